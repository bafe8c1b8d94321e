import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  type CacheStore,
  CatalogClient,
  type CatalogClientOptions,
  InternalServerError,
  InvalidParamsError,
  InvalidPurchaseCodeError,
  type Logger,
  RateLimitError,
} from '../../src/index.js';
import {
  createReferenceServer,
  type ListeningServer,
  listen,
  SEED_CATALOG_KEYS,
  SEED_PURCHASE_CODES,
} from '../../src/testing/index.js';

// The purchase cache over a real 127.0.0.1 socket to the reference server. Only Date is faked, to age entries:
// the sockets' own timers stay real.
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const KEY = SEED_CATALOG_KEYS[0];
const CODE = SEED_PURCHASE_CODES.supported;
const api = createReferenceServer({ rateLimit: false });
let live: ListeningServer;
const lines: { level: string; message: string; fields: unknown }[] = [];
const note = (level: string) => (message: string, fields?: unknown) =>
  void lines.push({ level, message, fields });
const logger: Logger = { error: note('error'), warn: note('warn'), info: note('info'), debug: note('debug') };

beforeAll(async () => {
  live = await listen(api, { port: 0 });
});
afterAll(async () => {
  await live.close();
});
beforeEach(() => {
  api.reset();
  lines.length = 0;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-24T00:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

function catalog(options: Partial<CatalogClientOptions> = {}): CatalogClient {
  return new CatalogClient({
    siteUrl: live.url,
    apiKey: KEY,
    logger,
    logLevel: 'info',
    maxRetries: 0,
    cache: { ttl: HOUR, staleIfError: 3 * DAY },
    ...options,
  });
}
const validations = () => api.requests.filter((r) => r.method === 'POST').length;
const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);

describe('purchase cache: fresh, expired, refreshed', () => {
  it('asks the server once, then answers from the cache for ttl: no request, cache "hit"', async () => {
    const client = catalog();
    const first = await client.purchases.validate(CODE).withResponse();
    expect(first.cache).toBe('miss');
    expect(first.response.status).toBe(200);
    advance(HOUR - 1);
    const again = await client.purchases.validate(CODE).withResponse();
    expect(again.cache).toBe('hit');
    expect(again.data).toEqual(first.data);
    expect(again.response.headers.get('x-content-platform-cache')).toBe('hit');
    expect(validations()).toBe(1);
    expect(client.cache).toEqual({ hits: 1, misses: 1, stale: 0, errors: 0, rejected: 0, entries: 1 });
  });

  it('gives back the code as the caller wrote it, never one it kept (the entry holds no code)', async () => {
    const client = catalog();
    await client.purchases.validate(CODE);
    const upper = await client.purchases.validate(CODE.toUpperCase());
    expect(upper.purchase_code).toBe(CODE.toUpperCase());
    expect(validations()).toBe(1);
  });

  it('asks again once ttl has passed, and keeps the new answer', async () => {
    const client = catalog();
    await client.purchases.validate(CODE);
    advance(HOUR);
    expect((await client.purchases.validate(CODE).withResponse()).cache).toBe('miss');
    expect((await client.purchases.validate(CODE).withResponse()).cache).toBe('hit');
    expect(validations()).toBe(2);
  });

  it('{ cache: false } asks the server past a fresh entry, and refreshes it', async () => {
    const client = catalog();
    await client.purchases.validate(CODE);
    advance(HOUR - 10);
    expect((await client.purchases.validate(CODE, { cache: false }).withResponse()).cache).toBe('miss');
    advance(HOUR - 10);
    // Refreshed 10 ms short of the hour: still fresh.
    expect((await client.purchases.validate(CODE).withResponse()).cache).toBe('hit');
    expect(validations()).toBe(2);
    await expect(client.purchases.validate(CODE, { cache: true as never })).rejects.toThrow(
      new InvalidParamsError('cache for one validation can only be false; got true.', 'cache'),
    );
  });

  it('without a cache option: every validation asks, withResponse has no cache, catalog.cache is undefined', async () => {
    const client = catalog({ cache: undefined });
    const result = await client.purchases.validate(CODE).withResponse();
    await client.purchases.validate(CODE);
    expect(result.cache).toBeUndefined();
    expect(client.cache).toBeUndefined();
    expect(validations()).toBe(2);
  });

  it('shares one request among concurrent validations of a code: a stampede of 100 sends 1', async () => {
    const client = catalog();
    const results = await Promise.all(
      Array.from({ length: 100 }, () => client.purchases.validate(CODE).withResponse()),
    );
    expect(validations()).toBe(1);
    expect(new Set(results.map((r) => r.cache))).toEqual(new Set(['miss']));
  });

  it('1 000 validations of 50 codes send at most 50 requests', async () => {
    const codes = Array.from(
      { length: 50 },
      (_, i) => `9a8b7c6d-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    for (const code of codes) api.store.addPurchase({ ...api.store.purchases()[0]!, purchase_code: code });
    const client = catalog();
    for (let round = 0; round < 20; round += 1) {
      await Promise.all(codes.map((code) => client.purchases.validate(code)));
    }
    expect(validations()).toBe(50);
    expect(client.cache).toMatchObject({ hits: 950, misses: 50, entries: 50 });
  });

  it('derived clients keep their parent’s entries; another key has its own', async () => {
    const client = catalog();
    await client.purchases.validate(CODE);
    await client.withOptions({ timeout: 5_000 }).purchases.validate(CODE);
    expect(validations()).toBe(1);
  });
});

describe('purchase cache: fail closed, stale only for transient failures', () => {
  it('a refunded code: after ttl the server says invalid, the entry is deleted and the error thrown', async () => {
    const client = catalog();
    await client.purchases.validate(CODE);
    expect(api.store.refundPurchase(CODE)).toBe(true);
    // Within ttl the cache still answers: the refund counts from the next check.
    await expect(client.purchases.validate(CODE)).resolves.toMatchObject({ purchase_code: CODE });
    advance(HOUR);
    await expect(client.purchases.validate(CODE)).rejects.toBeInstanceOf(InvalidPurchaseCodeError);
    // The entry is gone: a server that cannot answer now gets no stale purchase to hide behind.
    api.faults.set({ failureRate: 1, failureStatuses: [503] });
    await expect(client.purchases.validate(CODE)).rejects.toBeInstanceOf(InternalServerError);
    expect(client.cache).toMatchObject({ entries: 0, stale: 0 });
  });

  it.each([
    ['503', () => api.faults.set({ failureRate: 1, failureStatuses: [503] }), InternalServerError],
    [
      'a 429 whose wait is past maxRetryAfter',
      () => api.faults.script([{ status: 429, headers: { 'retry-after': '3600' } }]),
      RateLimitError,
    ],
    ['a dropped connection', () => api.faults.script(['reset']), APIConnectionError],
  ] as const)('answers with the stale entry on %s, with one warn line', async (_, fault, ErrorClass) => {
    const client = catalog();
    await client.purchases.validate(CODE);
    advance(2 * DAY);
    fault();
    const stale = await client.purchases.validate(CODE).withResponse();
    expect(stale.cache).toBe('stale');
    expect(stale.data).toMatchObject({ purchase_code: CODE });
    const warned = lines.filter((line) => line.level === 'warn');
    expect(warned).toHaveLength(1);
    expect(warned[0]?.message).toMatch(
      /^\[content-platform-sdk\] purchase validation answered from the cache \(stale\): /,
    );
    expect(warned[0]?.fields).toMatchObject({ ageMs: 2 * DAY, errorName: ErrorClass.name });
    expect(client.cache).toMatchObject({ stale: 1, misses: 2 });
  });

  it('answers with the stale entry on a timeout', async () => {
    const client = catalog({ timeout: 300 });
    await client.purchases.validate(CODE);
    advance(DAY);
    api.faults.script(['hang']);
    expect((await client.purchases.validate(CODE).withResponse()).cache).toBe('stale');
  });

  it('answers with the stale entry when the connection is refused', async () => {
    const server = await listen(api, { port: 0 });
    const client = catalog({ siteUrl: server.url });
    await client.purchases.validate(CODE);
    await server.close();
    advance(DAY);
    expect((await client.purchases.validate(CODE).withResponse()).cache).toBe('stale');
  });

  it('never past staleIfError: the error is thrown as without a cache', async () => {
    const client = catalog();
    await client.purchases.validate(CODE);
    advance(3 * DAY);
    api.faults.set({ failureRate: 1, failureStatuses: [503] });
    await expect(client.purchases.validate(CODE)).rejects.toBeInstanceOf(InternalServerError);
  });

  it('never papers over a 401 or an invalid code, whatever the entry', async () => {
    const client = catalog();
    await client.purchases.validate(CODE);
    advance(DAY);
    api.faults.script([{ status: 401, body: { message: 'Unauthenticated.' } }]);
    await expect(client.purchases.validate(CODE)).rejects.toMatchObject({ status: 401 });
    const wrongKey = catalog({ apiKey: SEED_CATALOG_KEYS[1] });
    await expect(wrongKey.purchases.validate(CODE)).rejects.toBeInstanceOf(InvalidPurchaseCodeError);
  });

  it('with the server failing every request, cached codes are answered as stale until staleIfError', async () => {
    const client = catalog({ timeout: 300 });
    await client.purchases.validate(CODE);
    await client.purchases.validate(SEED_PURCHASE_CODES.downloaded);
    api.faults.set({ failureRate: 1, failureStatuses: [500, 503] });
    for (const age of [HOUR, DAY, 3 * DAY - HOUR]) {
      vi.setSystemTime(new Date('2026-11-24T00:00:00Z').getTime() + age);
      for (const code of [CODE, SEED_PURCHASE_CODES.downloaded]) {
        expect((await client.purchases.validate(code).withResponse()).cache).toBe('stale');
      }
    }
    advance(HOUR);
    await expect(client.purchases.validate(CODE)).rejects.toBeInstanceOf(InternalServerError);
    await expect(client.purchases.validate(SEED_PURCHASE_CODES.supportExpired)).rejects.toBeInstanceOf(
      InternalServerError,
    );
  });

  it('a timeout with no entry is thrown as it would be without a cache', async () => {
    api.faults.script(['hang']);
    await expect(catalog({ timeout: 300 }).purchases.validate(CODE)).rejects.toBeInstanceOf(
      APIConnectionTimeoutError,
    );
  });
});

describe('purchase cache: stores', () => {
  it('uses any Keyv-compatible store (get, set with a ttl, delete), its values holding no code and no key', async () => {
    const kept = new Map<string, { value: unknown; ttl: number }>();
    const store: CacheStore = {
      get: async (key) => kept.get(key)?.value,
      set: async (key, value, ttl) => void kept.set(key, { value, ttl }),
      delete: async (key) => void kept.delete(key),
    };
    const client = catalog({ cache: { ttl: HOUR, staleIfError: 3 * DAY, store } });
    await client.purchases.validate(CODE);
    expect((await client.purchases.validate(CODE).withResponse()).cache).toBe('hit');
    expect(kept.size).toBe(1);
    const [name, { value, ttl }] = [...kept][0] as [string, { value: unknown; ttl: number }];
    expect(name).toMatch(/^content-platform-sdk:purchase:[A-Za-z0-9_-]{43}$/);
    expect(ttl).toBe(3 * DAY);
    const text = JSON.stringify([name, value]).toLowerCase();
    for (const secret of [CODE, KEY, encodeURIComponent(KEY)])
      expect(text).not.toContain(secret.toLowerCase());
    expect(client.cache?.entries).toBeUndefined();
  });

  it('a store that fails or never answers is a miss, with one warn line an outage, never a failed call; a breaker skips it', async () => {
    let broken = true;
    let reads = 0;
    const store: CacheStore = {
      get: () => {
        reads += 1;
        return broken ? new Promise(() => {}) : undefined;
      },
      set: () => {
        if (broken) throw new Error('store down');
      },
      delete: () => undefined,
    };
    const client = catalog({ cache: { ttl: HOUR, store } });
    await expect(client.purchases.validate(CODE)).resolves.toMatchObject({ purchase_code: CODE });
    // The breaker is open: the next validations do not wait for the store at all.
    const started = performance.now();
    await expect(client.purchases.validate(CODE)).resolves.toMatchObject({ purchase_code: CODE });
    await expect(client.purchases.validate(CODE)).resolves.toMatchObject({ purchase_code: CODE });
    expect(performance.now() - started).toBeLessThan(500);
    expect(validations()).toBe(3);
    expect(reads).toBe(1);
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);
    expect(client.cache?.errors).toBe(1);
    // 5 s on, one operation tries the store again.
    broken = false;
    advance(5_000);
    await client.purchases.validate(CODE);
    expect(reads).toBe(2);
    expect(lines.filter((line) => line.level === 'info' && /answers again/.test(line.message))).toHaveLength(
      1,
    );
  }, 10_000);

  it('refuses a bad cache option at construction', () => {
    for (const cache of [
      { ttl: 0 },
      { ttl: HOUR, staleIfError: -1 },
      { ttl: HOUR, store: {} },
      { ttl: HOUR, maxEntries: 0 },
    ]) {
      expect(() => catalog({ cache: cache as never })).toThrow(InvalidParamsError);
    }
  });

  it.each([
    [{ ttl: 1e300 }, 'cache.ttl', '1e+300'],
    [{ ttl: 31_536_000_001 }, 'cache.ttl', '31536000001'],
    [{ ttl: Number.POSITIVE_INFINITY }, 'cache.ttl', 'Infinity'],
    [{ ttl: HOUR, staleIfError: 1e17 }, 'cache.staleIfError', '100000000000000000'],
  ])('refuses a duration past a year (a store could not keep it): %o', (cache, name, got) => {
    const error = (() => {
      try {
        catalog({ cache });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect(error).toMatchObject({
      param: 'cache',
      message: `${name} must be a positive number of milliseconds, at most a year (31536000000); got ${got}.`,
    });
  });

  it('accepts a year exactly, for ttl and staleIfError', () => {
    expect(() => catalog({ cache: { ttl: 31_536_000_000, staleIfError: 31_536_000_000 } })).not.toThrow();
  });

  it('keeps at most maxEntries in memory, the least recently used going first', async () => {
    const client = catalog({ cache: { ttl: HOUR, maxEntries: 2 } });
    await client.purchases.validate(CODE);
    await client.purchases.validate(SEED_PURCHASE_CODES.downloaded);
    await client.purchases.validate(CODE);
    await client.purchases.validate(SEED_PURCHASE_CODES.supportExpired);
    expect(client.cache?.entries).toBe(2);
    expect((await client.purchases.validate(CODE).withResponse()).cache).toBe('hit');
    expect((await client.purchases.validate(SEED_PURCHASE_CODES.downloaded).withResponse()).cache).toBe(
      'miss',
    );
  });
});
