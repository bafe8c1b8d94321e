// The purchase cache shared by a fleet (issue 33, item 17): a code's refresh is asked of the server by one process,
// and the others on the same Redis read its answer as it lands, instead of asking too. Separate clients with
// separate Redis connections and separate caches stand for separate processes (they share nothing but Redis).
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  type CacheStore,
  CatalogClient,
  InvalidPurchaseCodeError,
  type Logger,
} from '../../src/index.js';
import { redisStore } from '../../src/redis/index.js';
import { createReferenceServer, type ListeningServer, listen } from '../../src/testing/index.js';
import { timed } from '../helpers/failure.js';
import { useRedis } from '../helpers/redis.js';
import { describeRun, killAll, spawnChild } from './children.js';

const CATALOG_KEY = 'ck-cache-fleet-key';
const HOUR = 3_600_000;
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

const connections: { destroy(): void }[] = [];
beforeEach(async () => {
  const admin = await connect();
  await admin.flushAll();
  api.reset();
  // A validation takes 300 ms at the server: long enough for every process to miss at once.
  api.faults.set({ latencyMs: 300, match: (r) => r.url.endsWith('/purchases/validation') });
});
afterEach(() => {
  for (const connection of connections.splice(0)) connection.destroy();
});

async function connect() {
  const client = createClient({ url: redis.url });
  client.on('error', () => {});
  connections.push(client);
  return client.connect();
}

/** A Catalog client with a cache of its own on a Redis connection of its own: another process, as far as it goes. */
async function process_() {
  return new CatalogClient({
    siteUrl: server.url,
    apiKey: CATALOG_KEY,
    logLevel: 'off',
    cache: { ttl: HOUR, store: redisStore(await connect()) },
  });
}

const validations = () => api.requests.filter((r) => r.url.endsWith('/purchases/validation')).length;
const codes = () => api.store.purchases(CATALOG_KEY).map((p) => p.purchase_code);

describe('a purchase cache shared through redisStore', () => {
  it('four processes missing the same three codes at once ask the server once per code; the others read its answer', async () => {
    const fleet = await Promise.all([1, 2, 3, 4].map(() => process_()));
    const asked = codes().slice(0, 3);
    const results = await Promise.all(
      fleet.flatMap((client) => asked.map((code) => client.purchases.validate(code).withResponse())),
    );
    expect(validations()).toBe(3);
    for (const [i, result] of results.entries()) expect(result.data.purchase_code).toBe(asked[i % 3]);
    const states = results.map((r) => r.cache).sort();
    expect(states).toEqual([...Array(9).fill('hit'), ...Array(3).fill('miss')]);
    // Each process counts what it did: one asked per code, the others hit.
    const counted = fleet.map((client) => client.cache);
    expect(counted.reduce((n, c) => n + (c?.misses ?? 0), 0)).toBe(3);
    expect(counted.reduce((n, c) => n + (c?.hits ?? 0), 0)).toBe(9);
  });

  it('a code the server refuses is refused to every process: the ones waiting on the claim ask for themselves', async () => {
    const [a, b] = await Promise.all([process_(), process_()]);
    const code = codes()[0] as string;
    api.store.refundPurchase(code, CATALOG_KEY);
    const [first, second] = await Promise.all([
      a.purchases.validate(code).catch((e: unknown) => e),
      b.purchases.validate(code).catch((e: unknown) => e),
    ]);
    expect(first).toBeInstanceOf(InvalidPurchaseCodeError);
    expect(second).toBeInstanceOf(InvalidPurchaseCodeError);
    expect(validations()).toBe(2);
  }, 20_000);

  it('a process gives its claim back with its answer: a refused code checked again asks at once, within a 2 s deadline', async () => {
    // Before: the first check's claim held the code for 3 s, so the second waited on it for an entry a refusal never
    // writes, and asked the server with 1 ms of its 2 s left (APIConnectionTimeoutError).
    const client = new CatalogClient({
      siteUrl: server.url,
      apiKey: CATALOG_KEY,
      logLevel: 'off',
      totalTimeout: 2_000,
      cache: { ttl: HOUR, store: redisStore(await connect()) },
    });
    const code = codes()[0] as string;
    api.store.refundPurchase(code, CATALOG_KEY);
    for (let check = 1; check <= 3; check += 1)
      await expect(client.purchases.validate(code)).rejects.toBeInstanceOf(InvalidPurchaseCodeError);
    expect(validations()).toBe(3);
  }, 20_000);

  it('no claim outlives its request: after a miss, a refusal and a stale answer, Redis holds none', async () => {
    const admin = await connect();
    const claims = async () => (await admin.keys('*:cache:claim:*')).length;
    const client = new CatalogClient({
      siteUrl: server.url,
      apiKey: CATALOG_KEY,
      logLevel: 'off',
      maxRetries: 0,
      cache: { ttl: 1, staleIfError: HOUR, store: redisStore(await connect()) },
    });
    const [valid, refunded] = codes() as [string, string];
    expect((await client.purchases.validate(valid).withResponse()).cache).toBe('miss');
    expect(await claims()).toBe(0);
    api.store.refundPurchase(refunded, CATALOG_KEY);
    await expect(client.purchases.validate(refunded)).rejects.toBeInstanceOf(InvalidPurchaseCodeError);
    // The refusal's claim goes back once its entry is deleted, right after the call settles.
    await expect.poll(claims, { timeout: 1_000 }).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    api.faults.set({
      failureRate: 1,
      failureStatuses: [503],
      match: (r) => r.url.endsWith('/purchases/validation'),
    });
    expect((await client.purchases.validate(valid).withResponse()).cache).toBe('stale');
    await expect.poll(claims, { timeout: 1_000 }).toBe(0);
  }, 20_000);

  it("a store gives back only its own claim: one that expired and was taken by another process stays the other's", async () => {
    const mine = redisStore(await connect());
    const theirs = redisStore(await connect());
    const admin = await connect();
    const key = 'content-platform-sdk:purchase:claim-test';
    expect(await mine.claim?.(key, 50)).toBe(true);
    expect(await theirs.claim?.(key, 3_000)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await theirs.claim?.(key, 3_000)).toBe(true);
    await mine.release?.(key);
    expect(await admin.exists('content-platform-sdk:cache:claim:purchase:claim-test')).toBe(1);
    await theirs.release?.(key);
    expect(await admin.exists('content-platform-sdk:cache:claim:purchase:claim-test')).toBe(0);
  });

  it('a claim held with no expiry, or a later one than any process sets (hand-edited), holds a refresh 3 s at most', async () => {
    const mine = redisStore(await connect());
    const admin = await connect();
    const claim = 'content-platform-sdk:cache:claim:purchase:forever';
    for (const [name, set] of [
      ['no expiry', () => admin.set(claim, 'stuck')],
      ['a day', () => admin.set(claim, 'stuck', { PX: 86_400_000 })],
    ] as const) {
      await set();
      // Not this store's to take; but what stays of it is bounded by what a process would ever ask for.
      expect(await mine.claim?.('content-platform-sdk:purchase:forever', 3_000), name).toBe(false);
      const left = await admin.pTTL(claim);
      expect(left, name).toBeGreaterThan(2_500);
      expect(left, name).toBeLessThanOrEqual(3_000);
      await admin.del(claim);
    }
    // A claim within the bound keeps its own expiry.
    await admin.set(claim, 'theirs', { PX: 1_000 });
    expect(await mine.claim?.('content-platform-sdk:purchase:forever', 3_000)).toBe(false);
    expect(await admin.pTTL(claim)).toBeLessThanOrEqual(1_000);
  });

  it('a value under a code’s name that is not JSON is a miss counted in rejected, not a store failure: the store is still read', async () => {
    const admin = await connect();
    const client = await process_();
    const [one, two] = codes() as [string, string];
    await client.purchases.validate(one);
    await client.purchases.validate(two);
    const names = await admin.keys('*:cache:purchase:*');
    expect(names).toHaveLength(2);
    for (const name of names) await admin.set(name, 'not json');
    // Each is a miss asked of the server, and the store is not skipped: the answer is written back and read.
    expect((await client.purchases.validate(one).withResponse()).cache).toBe('miss');
    expect((await client.purchases.validate(two).withResponse()).cache).toBe('miss');
    expect(client.cache).toMatchObject({ rejected: 2, errors: 0 });
    const other = await process_();
    expect((await other.purchases.validate(one).withResponse()).cache).toBe('hit');
    expect(other.cache).toMatchObject({ rejected: 0, errors: 0 });
  }, 20_000);

  it('a refusal whose delete failed is deleted once the store answers again: another process then has no entry to answer stale', async () => {
    const admin = await connect();
    const entries = () => admin.keys('*:cache:purchase:*');
    const real = redisStore(await connect());
    // A's store refuses the first delete (as Redis down would), then works.
    let failures = 1;
    const flaky: CacheStore = {
      get: (key) => real.get(key),
      set: (key, value, ttlMs) => real.set(key, value, ttlMs),
      delete: async (key) => {
        if (failures-- > 0) throw new Error('the store is down');
        return real.delete(key);
      },
      claim: (key, ttlMs) => real.claim?.(key, ttlMs),
      release: (key) => real.release?.(key),
    };
    const warnings: string[] = [];
    const logger: Logger = {
      warn: (m) => void warnings.push(m),
      error: () => {},
      info: () => {},
      debug: () => {},
    };
    const common = { siteUrl: server.url, apiKey: CATALOG_KEY, logger, maxRetries: 0 } as const;
    const a = new CatalogClient({ ...common, cache: { ttl: 1, staleIfError: HOUR, store: flaky } });
    const code = codes()[0] as string;
    await a.purchases.validate(code);
    expect(await entries()).toHaveLength(1);
    api.store.refundPurchase(code, CATALOG_KEY);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(a.purchases.validate(code)).rejects.toBeInstanceOf(InvalidPurchaseCodeError);
    // The delete failed: the entry is still in Redis, and the store is skipped for 5 s.
    expect(await entries()).toHaveLength(1);
    expect(warnings).toEqual([
      '[content-platform-sdk] the purchase cache store failed (the store is down): validations ask the server.',
    ]);
    // Once the store answers again (its breaker's 5 s), the delete is tried again, and the entry goes.
    await expect.poll(entries, { timeout: 10_000, interval: 200 }).toHaveLength(0);
    // Another process, the server failing: no entry to answer the refunded code valid with.
    api.faults.set({
      failureRate: 1,
      failureStatuses: [503],
      match: (r) => r.url.endsWith('/purchases/validation'),
    });
    // A real process: every client of this one remembers the refusal, whatever Redis holds. Its cache takes an
    // entry as fresh for an hour, so the entry, had it stayed, would have answered the refunded code valid.
    const b = spawnChild(
      {
        MODE: 'validate',
        CACHE: '1',
        BASE_URL: server.url,
        API_KEY: CATALOG_KEY,
        REDIS_URL: redis.url,
        CODES: JSON.stringify([code]),
        CALLS: '1',
        PARALLEL: '1',
      },
      30_000,
    );
    const run = await b.done;
    expect(run.result, describeRun(run)).toMatchObject({
      succeeded: 0,
      failed: 1,
      errors: { InternalServerError: 1 },
    });
  }, 90_000);

  it('{ cache: false } asks the server whatever another process has claimed', async () => {
    const [a, b] = await Promise.all([process_(), process_()]);
    const code = codes()[0] as string;
    await Promise.all([a.purchases.validate(code), b.purchases.validate(code, { cache: false })]);
    expect(validations()).toBe(2);
  });

  it('a claim goes back even while the store is skipped: a failed write or delete holds no other process off for 3 s', async () => {
    // Before: a failed write (or a refused code's failed delete) opened the store's breaker, and the claim's release,
    // going through the breaker, was skipped: the claim held the code for 3 s, and another process waited it out.
    const admin = await connect();
    const claims = () => admin.keys('*:cache:claim:*');
    const real = redisStore(await connect());
    const failing = (what: 'set' | 'delete'): CacheStore => ({
      ...real,
      [what]: () => {
        throw new Error(`${what} refused by the store`);
      },
    });
    const [valid, refunded] = codes() as [string, string];
    const quiet = { siteUrl: server.url, apiKey: CATALOG_KEY, logLevel: 'off', maxRetries: 0 } as const;
    const writer = new CatalogClient({ ...quiet, cache: { ttl: HOUR, store: failing('set') } });
    expect((await writer.purchases.validate(valid).withResponse()).cache).toBe('miss');
    await expect.poll(claims, { timeout: 500 }).toEqual([]);
    const other = await process_();
    const next = await timed(other.purchases.validate(valid).withResponse());
    expect(next.value?.cache).toBe('miss');
    expect(next.ms).toBeLessThan(1_500);

    await admin.flushAll();
    api.store.refundPurchase(refunded, CATALOG_KEY);
    const deleter = new CatalogClient({ ...quiet, cache: { ttl: HOUR, store: failing('delete') } });
    await expect(deleter.purchases.validate(refunded)).rejects.toBeInstanceOf(InvalidPurchaseCodeError);
    await expect.poll(claims, { timeout: 500 }).toEqual([]);
  }, 20_000);

  it('a claim that lands after its caller has gone is given back at once', async () => {
    // The claim's command reaches Redis 100 ms late; the only caller aborts at 20 ms. Before: the claim, taken after
    // the flight had stopped waiting for it, stayed for its 3 s.
    const admin = await connect();
    const real = redisStore(await connect());
    let landed = false;
    const late: CacheStore = {
      ...real,
      claim: async (key, ttlMs) => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const mine = await real.claim?.(key, ttlMs);
        landed = mine === true;
        return mine;
      },
    };
    const client = new CatalogClient({
      siteUrl: server.url,
      apiKey: CATALOG_KEY,
      logLevel: 'off',
      cache: { ttl: HOUR, store: late },
    });
    const stop = new AbortController();
    const call = client.purchases.validate(codes()[0] as string, { signal: stop.signal });
    setTimeout(() => stop.abort(), 20);
    await expect(call).rejects.toBeInstanceOf(APIUserAbortError);
    await expect.poll(() => landed, { timeout: 1_000 }).toBe(true);
    await expect.poll(() => admin.keys('*:cache:claim:*'), { timeout: 500 }).toEqual([]);
    expect(validations()).toBe(0);
  }, 20_000);

  it('a caller that aborts leaves its joiners on the fleet’s answer: one request for the fleet', async () => {
    // Process A asks the server (600 ms); in process B, F starts the flight that waits on A's claim, J joins it, and
    // F aborts. Before: the flight read the store with F's aborted signal, never saw A's entry, and asked again.
    api.faults.set({ latencyMs: 600, match: (r) => r.url.endsWith('/purchases/validation') });
    const [a, b] = await Promise.all([process_(), process_()]);
    const code = codes()[0] as string;
    const first = a.purchases.validate(code).withResponse();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const leaving = new AbortController();
    const f = timed(b.purchases.validate(code, { signal: leaving.signal }));
    const j = timed(b.purchases.validate(code).withResponse());
    setTimeout(() => leaving.abort(), 50);
    expect((await f).error).toBeInstanceOf(APIUserAbortError);
    expect((await first).cache).toBe('miss');
    const joined = await j;
    expect(joined.value?.cache).toBe('hit');
    expect(joined.value?.data.purchase_code).toBe(code);
    expect(joined.ms).toBeLessThan(1_000);
    expect(validations()).toBe(1);
  }, 20_000);

  it('a caller whose deadline comes while another process holds the refresh sends nothing: one request for the fleet', async () => {
    // Before: its wait stopped 50 ms short of the deadline and sent a request with the few ms left: a second refresh.
    api.faults.set({ latencyMs: 700, match: (r) => r.url.endsWith('/purchases/validation') });
    const [a, b] = await Promise.all([process_(), process_()]);
    const code = codes()[0] as string;
    const holder = a.purchases.validate(code).withResponse();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const short = await timed(b.purchases.validate(code, { totalTimeout: 250 }));
    expect(short.error).toBeInstanceOf(APIConnectionTimeoutError);
    // Said as it is: nothing was sent, another process was asking.
    expect((short.error as Error).message).toMatch(
      /^POST http:\/\/127\.0\.0\.1:\d+\/api\/purchases\/validation was not sent: the deadline came while another process of the fleet asked the server about this code \(its claim on the refresh holds 3 s at most\)\.$/,
    );
    expect(short.error).toMatchObject({ mayHaveSucceeded: false });
    expect(short.ms).toBeGreaterThanOrEqual(240);
    expect(short.ms).toBeLessThan(500);
    expect((await holder).cache).toBe('miss');
    expect(validations()).toBe(1);
  }, 20_000);
});
