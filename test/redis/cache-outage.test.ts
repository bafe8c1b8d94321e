// The purchase cache on redisStore and a real redis-server (issue 33, items 13, 15, 17): an entry copied in Redis
// from a valid code's key to a refunded code's key is a miss; keys carry the prefix once; with Redis stopped,
// validations keep answering from the server, quickly, through node-redis and ioredis set up as the guide says.
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogClient, InvalidPurchaseCodeError, type Logger } from '../../src/index.js';
import { redisStore } from '../../src/redis/index.js';
import { createReferenceServer, type ListeningServer, listen } from '../../src/testing/index.js';
import { mark, since } from '../helpers/load.js';
import { useRedis } from '../helpers/redis.js';

const CATALOG_KEY = 'ck-cache-outage-key';
const HOUR = 3_600_000;
const redis = useRedis();
const api = createReferenceServer({ rateLimit: false, catalogKeys: [CATALOG_KEY] });
let server: ListeningServer;
beforeAll(async () => {
  server = await listen(api, { port: 0 });
});
afterAll(async () => {
  await server?.close();
});
const codes = () =>
  api.store.purchases(CATALOG_KEY).map((p) => p.purchase_code) as [string, string, ...string[]];
const quiet = () => {};
const catalog = (store: ReturnType<typeof redisStore>, warnings: string[] = []) =>
  new CatalogClient({
    siteUrl: server.url,
    apiKey: CATALOG_KEY,
    maxRetries: 0,
    logLevel: 'warn',
    logger: {
      error: quiet,
      warn: (message) => void warnings.push(message),
      info: quiet,
      debug: quiet,
    } as Logger,
    cache: { ttl: HOUR, store },
  });

describe('redisStore as the cache store, on a real Redis', () => {
  it('keys read <prefix>:cache:purchase:<hash>, the prefix once; an entry copied to a refunded code’s key is a miss', async () => {
    const client = await createClient({ url: redis.url }).connect();
    try {
      await client.flushAll();
      const [valid, refunded] = codes();
      const first = catalog(redisStore(client));
      await first.purchases.validate(valid);
      // Entries only: a process's claim on a code's refresh lives beside them (`<prefix>:cache:claim:…`) while its
      // request runs, and is given back with the answer (see cache-fleet.test.ts).
      const entries = () => client.keys('*:cache:purchase:*');
      const [validKey] = await entries();
      expect(validKey).toMatch(/^content-platform-sdk:cache:purchase:[A-Za-z0-9_-]{43}$/);
      await expect.poll(() => client.keys('*'), { timeout: 1_000 }).toEqual([validKey]);
      await first.purchases.validate(refunded);
      const refundedKey = (await entries()).find((key) => key !== validKey) as string;
      // The code is refunded, and someone copies the valid code's entry over its key before any process of the
      // fleet has heard of the refund (a refusal seen in this process would keep every client of it off the entry).
      api.store.refundPurchase(refunded, CATALOG_KEY);
      await client.set(refundedKey, (await client.get(validKey as string)) as string, { PX: HOUR });
      const second = catalog(redisStore(client));
      await expect(second.purchases.validate(refunded)).rejects.toBeInstanceOf(InvalidPurchaseCodeError);
      expect(second.cache?.rejected).toBe(1);
      expect((await second.purchases.validate(valid).withResponse()).cache).toBe('hit');
    } finally {
      await client.quit();
    }
  }, 30_000);

  it.each([
    ['node-redis (disableOfflineQueue: true)', 'node-redis'],
    ['ioredis (enableOfflineQueue: false)', 'ioredis'],
  ] as const)(
    'Redis stopped: validations keep answering from the server, quickly, through %s',
    async (_, kind) => {
      const client =
        kind === 'node-redis'
          ? createClient({
              url: redis.url,
              disableOfflineQueue: true,
              socket: { reconnectStrategy: () => 200 },
            })
          : new Redis(redis.url, { enableOfflineQueue: false, lazyConnect: true, maxRetriesPerRequest: 0 });
      client.on('error', () => {});
      await client.connect();
      try {
        const [code] = codes();
        const warnings: string[] = [];
        const validator = catalog(redisStore(client as never), warnings);
        await validator.purchases.validate(code);
        await redis.stop();
        const before = api.requests.length;
        const started = mark();
        for (let i = 0; i < 20; i += 1) await validator.purchases.validate(code);
        // Less a loaded machine's wait for a CPU (helpers/load.ts).
        const ms = since(started);
        expect(api.requests.length - before, JSON.stringify(validator.cache)).toBe(20);
        // Without the breaker and the signal-bound store calls, each validation waited for Redis (0.5-1 s, twice).
        expect(ms).toBeLessThan(2_000);
        expect(validator.cache?.errors).toBeLessThanOrEqual(2);
        expect(
          warnings.filter((line) => /cache store failed/.test(line)),
          warnings.join('\n'),
        ).toHaveLength(1);
      } finally {
        await redis.start();
        client.disconnect();
      }
    },
    60_000,
  );
});
