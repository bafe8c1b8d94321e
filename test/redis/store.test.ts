// redisStore in one process against a real redis-server: clients with separate Redis connections stand for separate
// processes (they share nothing but Redis). What they must share per API root and key: the requests in flight
// (`maxConcurrent` fleet-wide), the pause after a 429, and nothing of the key in clear.
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CatalogClient } from '../../src/catalog/index.js';
import { RateLimitError } from '../../src/core/errors/index.js';
import type { Logger } from '../../src/core/transport/index.js';
import { ManagementClient } from '../../src/management/index.js';
import { redisStore } from '../../src/redis/index.js';
import {
  createReferenceServer,
  type FetchHandler,
  type ListeningServer,
  listen,
} from '../../src/testing/index.js';
import { gate } from '../helpers/front.js';
import { mark, since, wallSince } from '../helpers/load.js';
import { occurring, type RedisServer, redisContents, startRedis, useRedis } from '../helpers/redis.js';
import { describeRun, killAll, spawnChild, until } from './children.js';

// A token no real text holds; `+`, `/` and `=` make the keys' encoded forms differ from the raw ones.
const TOKEN = 'QX7REDISSTOREZK';
const MGMT_KEY = `mk+${TOKEN}/fleet=`;
const CATALOG_KEY = `ck+${TOKEN}/fleet=`;

const redis = useRedis();

// A generous server budget, so its rate-limit headers are there but only the client's own caps hold calls back.
const api = createReferenceServer({
  rateLimit: { limit: 1_000, windowMs: 1_000 },
  managementKeys: [MGMT_KEY],
  catalogKeys: [CATALOG_KEY],
});
/**
 * Requests at the server right now, the most seen at once, how long each is held before it is answered, and a gate
 * that holds each until it opens (helpers/front.ts).
 */
const seen = { now: 0, most: 0, holdMs: 0, gate: undefined as Promise<void> | undefined };
const front: FetchHandler = {
  async fetch(request) {
    seen.now += 1;
    seen.most = Math.max(seen.most, seen.now);
    try {
      if (seen.holdMs > 0) await new Promise((resolve) => setTimeout(resolve, seen.holdMs));
      if (seen.gate) await seen.gate;
      return await api.fetch(request);
    } finally {
      seen.now -= 1;
    }
  },
};
let server: ListeningServer;
beforeAll(async () => {
  server = await listen(front, { port: 0 });
});
afterAll(async () => {
  killAll();
  await server?.close();
});

/** Every Redis connection a test opened, closed after it. */
const connections: { destroy(): void }[] = [];
/** The log lines of every client of the test, as `level message`. */
let lines: string[] = [];
const logger: Logger = {
  error: (message: string) => void lines.push(`error ${message}`),
  warn: (message: string) => void lines.push(`warn ${message}`),
  info: (message: string) => void lines.push(`info ${message}`),
  debug: (message: string) => void lines.push(`debug ${message}`),
};
const redisWarnings = () => lines.filter((line) => line.startsWith('warn ') && /redis/i.test(line));

beforeEach(async () => {
  // Each test starts from an empty Redis: no turn, pause or budget of an earlier test.
  const admin = await connect();
  await admin.flushAll();
  api.reset();
  seen.now = 0;
  seen.most = 0;
  seen.holdMs = 0;
  seen.gate = undefined;
  lines = [];
});
afterEach(() => {
  for (const connection of connections.splice(0)) connection.destroy();
});

/** A node-redis connection of its own (another process, as far as Redis can tell). */
async function connect(url = redis.url) {
  const client = createClient({ url });
  // A stopped server makes the client emit errors while it reconnects: the store reports, the test must not crash.
  client.on('error', () => {});
  connections.push(client);
  return client.connect();
}

type StoreOptions = Parameters<typeof redisStore>[1];

/** A Management client on the test server whose store has its own connection. */
async function member(
  options: { maxConcurrent?: number; maxRetries?: number; url?: string; store?: StoreOptions } = {},
) {
  const store = redisStore(await connect(options.url), options.store);
  return new ManagementClient({
    baseUrl: server.url,
    apiKey: MGMT_KEY,
    logger,
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    rateLimit: { store, ...(options.maxConcurrent ? { maxConcurrent: options.maxConcurrent } : {}) },
  });
}

async function scriptsCached(): Promise<number> {
  const admin = await connect();
  const info = await admin.info('memory');
  return Number(/number_of_cached_scripts:(\d+)/.exec(info)?.[1] ?? Number.NaN);
}

describe('redisStore', () => {
  it("shows in client.rateLimit.store: 'shared' with a store, undefined without", async () => {
    const alone = new ManagementClient({ baseUrl: server.url, apiKey: MGMT_KEY, logger });
    await alone.pixels.list();
    expect(alone.rateLimit.store).toBeUndefined();
    const shared = await member();
    await shared.pixels.list();
    expect(shared.rateLimit.store).toBe('shared');
    const catalog = new CatalogClient({
      siteUrl: server.url,
      apiKey: CATALOG_KEY,
      logger,
      rateLimit: { store: redisStore(await connect()) },
    });
    await catalog.items.list();
    expect(catalog.rateLimit.store).toBe('shared');
    expect(lines.filter((line) => line.startsWith('warn'))).toEqual([]);
  });

  it('shares maxConcurrent: 2 between two clients on separate connections: 6 parallel calls, at most 2 at the server', async () => {
    seen.holdMs = 150;
    const [a, b] = [await member({ maxConcurrent: 2 }), await member({ maxConcurrent: 2 })];
    // The first two are held at the server until the other four are seen waiting in their clients (a fixed hold let a
    // busy machine answer the first before the second had its turn).
    const held = gate();
    seen.gate = held.closed;
    const calls = [a, a, a, b, b, b].map((client) => client.pixels.list({ per_page: 10 }));
    const waiting = () => a.rateLimit.queued + b.rateLimit.queued;
    expect(await until(() => seen.now === 2 && waiting() === 4, 20_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([seen.now, waiting()]).toEqual([2, 4]);
    seen.gate = undefined;
    held.open();
    const pages = await Promise.all(calls);
    expect(pages.map((page) => page.data.length)).toEqual(Array(6).fill(10));
    expect(seen.most).toBe(2);
    expect(api.requests).toHaveLength(6);
  });

  it('pauses every member after a 429: Retry-After 1 answered to A holds B’s next call ≥ ~1 s', async () => {
    const [a, b] = [await member({ maxRetries: 0 }), await member()];
    // Both know the server first (the budget is not news to either).
    await Promise.all([a.pixels.list(), b.pixels.list()]);
    api.faults.script([
      { status: 429, headers: { 'retry-after': '1' }, body: { message: 'Too Many Attempts.' } },
    ]);
    await expect(a.pixels.list()).rejects.toBeInstanceOf(RateLimitError);
    const limitedAt = mark();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const requestsBefore = api.requests.length;
    await b.pixels.list();
    // At least the pause, and not much more (upper bound: less a loaded machine's wait for a CPU, helpers/load.ts).
    expect(wallSince(limitedAt)).toBeGreaterThanOrEqual(900);
    expect(since(limitedAt)).toBeLessThan(3_000);
    // B sent one request, after the pause: no 429 of its own.
    expect(api.requests.slice(requestsBefore).map((r) => r.status)).toEqual([200]);
  });

  it('keeps calls going when Redis forgets its scripts mid-run (SCRIPT FLUSH: EVALSHA meets NOSCRIPT)', async () => {
    seen.holdMs = 10;
    const [a, b] = [await member({ maxConcurrent: 3 }), await member({ maxConcurrent: 3 })];
    const admin = await connect();
    let flushed = false;
    const run = async (client: ManagementClient, n: number) => {
      for (let i = 0; i < n; i++) {
        await client.pixels.list({ per_page: 10 });
        if (!flushed && api.requests.length >= 10) {
          flushed = true;
          expect(await admin.scriptFlush()).toBe('OK');
        }
      }
    };
    await Promise.all([run(a, 12), run(a, 12), run(b, 12), run(b, 12)]);
    expect(flushed).toBe(true);
    expect(api.requests.filter((r) => r.status === 200)).toHaveLength(48);
    // Not an outage: the store loaded its scripts again and stayed shared.
    expect(await scriptsCached()).toBeGreaterThan(0);
    expect([a.rateLimit.store, b.rateLimit.store]).toEqual(['shared', 'shared']);
    expect(redisWarnings()).toEqual([]);
  });

  it('keeps every key under its prefix option', async () => {
    const client = await member({ store: { prefix: 'cps-prefix-test' } });
    await client.pixels.list();
    const { keys } = await redisContents(redis.url);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.map(String).filter((key) => !key.startsWith('cps-prefix-test'))).toEqual([]);
  });

  it('stores nothing of either key in clear: no key name, value, DUMP, channel or client name holds it', async () => {
    const [a, b] = [await member({ maxRetries: 0, maxConcurrent: 4 }), await member({ maxConcurrent: 4 })];
    const catalog = new CatalogClient({
      siteUrl: server.url,
      apiKey: CATALOG_KEY,
      logger,
      rateLimit: { store: redisStore(await connect()) },
    });
    await Promise.all([
      a.pixels.list(),
      b.pixels.list(),
      catalog.purchases.validate(api.fixtures.purchaseCodes.supported),
    ]);
    // A pause in Redis too, and calls in flight while the contents are read.
    api.faults.script([{ status: 429, headers: { 'retry-after': '1' } }]);
    await expect(a.pixels.list()).rejects.toBeInstanceOf(RateLimitError);
    seen.holdMs = 300;
    const inFlight = Promise.all([b.pixels.list(), catalog.items.list()]);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const contents = await redisContents(redis.url);
    await inFlight;
    expect(contents.keys.length).toBeGreaterThan(0);
    const forms = (key: string) => [
      key,
      encodeURIComponent(key),
      encodeURIComponent(encodeURIComponent(key)),
      Buffer.from(key).toString('base64'),
      Buffer.from(key).toString('base64url'),
      Buffer.from(key).toString('hex'),
    ];
    expect(occurring(contents.texts, [TOKEN, ...forms(MGMT_KEY), ...forms(CATALOG_KEY)])).toEqual([]);
  });

  it('falls back when Redis goes away (calls go on, one warn line an outage) and rejoins when it is back', async () => {
    const own: RedisServer = await startRedis();
    try {
      const client = await member({ url: own.url });
      // A call's time, less a loaded machine's wait for a CPU (helpers/load.ts).
      const timed = async () => {
        const started = mark();
        await client.pixels.list();
        return since(started);
      };
      await timed();
      expect(client.rateLimit.store).toBe('shared');
      for (let outage = 1; outage <= 2; outage++) {
        await own.stop();
        for (let i = 0; i < 5; i++) expect(await timed()).toBeLessThan(3_000);
        expect(client.rateLimit.store).toBe('fallback');
        expect(redisWarnings()).toHaveLength(outage);
        await own.start();
        // Calls go on meanwhile; one of them finds Redis again.
        let back = false;
        for (const deadline = Date.now() + 20_000; !back && Date.now() < deadline; ) {
          expect(await timed()).toBeLessThan(3_000);
          back = client.rateLimit.store === 'shared';
          if (!back) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        // Within a second or two alone; 20 s is for a busy machine (a condition waited for, not a speed claim).
        expect(back, 'the client went back to the fleet store within 20 s of Redis coming back').toBe(true);
      }
      expect(redisWarnings()).toHaveLength(2);
    } finally {
      await own.stop();
    }
  }, 90_000);

  it('frees the turn of a process killed mid-request after its lease (timeout 1000: within ~3 s)', async () => {
    let arrivedAt = 0;
    api.faults.script(['hang'], {
      match: () => {
        arrivedAt = performance.now();
        return true;
      },
    });
    const child = spawnChild(
      {
        MODE: 'hang',
        BASE_URL: server.url,
        API_KEY: MGMT_KEY,
        REDIS_URL: redis.url,
        TIMEOUT: '1000',
        MAX_CONCURRENT: '1',
      },
      30_000,
    );
    // Its start-up first (the machine's time: seconds when busy), then its request.
    await child.ready;
    const arrived = await until(() => arrivedAt > 0, 15_000);
    if (!arrived) {
      child.process.kill('SIGKILL');
      throw new Error(`the child's request never reached the server\n${describeRun(await child.done)}`);
    }
    child.process.kill('SIGKILL');
    const killedAt = mark();
    const run = await child.done;
    expect(run.signal, describeRun(run)).toBe('SIGKILL');
    // The same key, root and cap: the dead process's turn is the only one there is, until its lease ends.
    const other = await member({ maxConcurrent: 1 });
    await other.pixels.list();
    // It did wait for the dead process's turn (a 2 s lease: timeout + 1 s, renewed every third of it), and not for long
    // (less a loaded machine's wait for a CPU, helpers/load.ts; the longest lease, 15 s, is far past it).
    expect(wallSince(killedAt)).toBeGreaterThanOrEqual(300);
    expect(since(killedAt)).toBeLessThan(3_000);
    expect(api.requests.map((r) => r.fault)).toEqual(['hang', 'pass']);
  }, 90_000);
});
