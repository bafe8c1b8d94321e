// The purchase cache on redisStore, shared by real processes (fleet-child.ts with CACHE=1) against the reference
// server over 127.0.0.1, and what Redis holds afterwards: neither the codes nor the key, in any encoding.
import KeyvRedis from '@keyv/redis';
import Keyv from 'keyv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogClient } from '../../src/catalog/index.js';
import { createReferenceServer, type ListeningServer, listen } from '../../src/testing/index.js';
import { occurring, redisContents, useRedis } from '../helpers/redis.js';
import { describeRun, killAll, spawnChild } from './children.js';

const TOKEN = 'QX7REDISCACHEZK';
const CATALOG_KEY = `ck+${TOKEN}/cache=`;
const redis = useRedis();
const api = createReferenceServer({ rateLimit: false, catalogKeys: [CATALOG_KEY] });
let server: ListeningServer;
beforeAll(async () => {
  server = await listen(api, { port: 0 });
});
afterAll(async () => {
  killAll();
  await server?.close();
});

/**
 * One process validating `codes` (each `calls / codes` times) through the cache on the shared Redis: 30 s for its
 * calls from when it is ready, its start-up (the machine's time) aside.
 */
async function validator(codes: string[], calls: number) {
  const child = spawnChild(
    {
      MODE: 'validate',
      CACHE: '1',
      BASE_URL: server.url,
      API_KEY: CATALOG_KEY,
      REDIS_URL: redis.url,
      CODES: JSON.stringify(codes),
      CALLS: String(calls),
      PARALLEL: '1',
    },
    30_000,
  );
  const run = await child.done;
  expect(run.code, describeRun(run)).toBe(0);
  expect(run.result, describeRun(run)).toMatchObject({ succeeded: calls, failed: 0 });
  return run;
}

describe('the purchase cache on redisStore: one cache for a fleet', () => {
  it('two processes, one code: the second finds the first one’s entry, and the server is asked once', async () => {
    const codes = api.store.purchases(CATALOG_KEY).map((p) => p.purchase_code);
    expect(codes.length).toBeGreaterThan(0);
    const [code] = codes as [string];
    await validator([code], 5);
    await validator([code], 5);
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    // Two processes one after the other, each its start-up (START_LIMIT_MS, 60 s) and its calls (30 s).
  }, 180_000);

  it('holds neither a purchase code nor the key in any Redis key or value, in clear or encoded', async () => {
    const codes = api.store.purchases(CATALOG_KEY).map((p) => p.purchase_code);
    await validator(codes, codes.length * 2);
    const { keys, texts } = await redisContents(redis.url);
    expect(keys.some((key) => key.toString().startsWith('content-platform-sdk:cache:'))).toBe(true);
    const needles = [
      CATALOG_KEY,
      encodeURIComponent(CATALOG_KEY),
      TOKEN,
      ...codes,
      ...codes.map((c) => c.replace(/-/g, '')),
    ];
    expect(occurring(texts, needles)).toEqual([]);
  }, 120_000);
});

describe('the purchase cache on a Keyv store', () => {
  it('plugs in as it is: new Keyv(new KeyvRedis(url)) answers the second validation, on the real Redis', async () => {
    const keyv = new Keyv(new KeyvRedis(redis.url), { namespace: 'licenses' });
    try {
      const catalog = new CatalogClient({
        siteUrl: server.url,
        apiKey: CATALOG_KEY,
        cache: { ttl: 3_600_000, store: keyv },
      });
      const [code] = api.store.purchases(CATALOG_KEY).map((p) => p.purchase_code) as [string];
      const before = api.requests.length;
      expect((await catalog.purchases.validate(code).withResponse()).cache).toBe('miss');
      expect((await catalog.purchases.validate(code).withResponse()).cache).toBe('hit');
      expect(api.requests.length - before).toBe(1);
      const { keys } = await redisContents(redis.url);
      // Keyv names the entry under its namespace; the name the cache gave it is a keyed hash.
      const names = keys.map(String).filter((key) => key.startsWith('licenses:'));
      expect(names).toHaveLength(1);
      expect(names[0]).toMatch(/^licenses:.*content-platform-sdk:purchase:[A-Za-z0-9_-]{43}$/);
    } finally {
      await keyv.disconnect();
    }
  }, 30_000);
});
