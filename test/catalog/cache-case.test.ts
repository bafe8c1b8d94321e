import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CatalogClient,
  type CatalogClientOptions,
  InternalServerError,
  InvalidPurchaseCodeError,
} from '../../src/index.js';
import {
  createReferenceServer,
  type ListeningServer,
  listen,
  SEED_CATALOG_KEYS,
  SEED_PURCHASE_CODES,
} from '../../src/testing/index.js';

// Letter case of purchase codes through the SDK, over a real 127.0.0.1 socket to the reference server, which matches
// a code in any case as the real one does (a MySQL lookup, collation utf8mb4_unicode_ci). The cache keys an entry,
// and its single flight, by the code folded to lower case: each spelling must get the answer the server gives it.
const HOUR = 3_600_000;
const KEY = SEED_CATALOG_KEYS[0];
const CODE = SEED_PURCHASE_CODES.supported;
const UPPER = CODE.toUpperCase();
const MIXED = [...CODE].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c)).join('');
const SPELLINGS = [UPPER, MIXED, CODE];
const api = createReferenceServer({ rateLimit: false });
let live: ListeningServer;

beforeAll(async () => {
  live = await listen(api, { port: 0 });
});
afterAll(async () => {
  await live.close();
});
beforeEach(() => {
  api.reset();
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
    logLevel: 'off',
    maxRetries: 0,
    cache: { ttl: HOUR, staleIfError: 24 * HOUR },
    ...options,
  });
}
const validations = () => api.requests.filter((r) => r.method === 'POST').length;
/** What each validation came to: the purchase code and item it answered with, or the error's class name. */
const outcome = (promise: Promise<{ purchase_code: string; item: { id: number } }>) =>
  promise.then(
    (p) => ({ valid: p.purchase_code, item: p.item.id }),
    (e: unknown) => ({ refused: (e as Error).constructor.name }),
  );

describe.each([
  ['with a cache', {}],
  ['without a cache', { cache: undefined }],
] as const)('both spellings asked at once, %s', (_, options) => {
  it('a stored code is valid in every spelling, each answered with its own spelling', async () => {
    const client = catalog(options);
    const results = await Promise.all(SPELLINGS.map((code) => outcome(client.purchases.validate(code))));
    expect(results).toEqual(SPELLINGS.map((code) => ({ valid: code, item: 101 })));
    // One request and one entry for every spelling with a cache (single flight), one request each without.
    const cached = !('cache' in options);
    expect(validations()).toBe(cached ? 1 : 3);
    if (cached) expect(client.cache).toMatchObject({ misses: 1, entries: 1 });
    else expect(client.cache).toBeUndefined();
  });

  it('a code refunded in one spelling is refused in every spelling', async () => {
    const client = catalog(options);
    expect(api.store.refundPurchase(MIXED)).toBe(true);
    const results = await Promise.all(SPELLINGS.map((code) => outcome(client.purchases.validate(code))));
    expect(results).toEqual(SPELLINGS.map(() => ({ refused: InvalidPurchaseCodeError.name })));
  });
});

describe('spellings asked one after the other', () => {
  it('the cache answers each spelling as the server does: a hit for another spelling of a valid code', async () => {
    const cached = catalog();
    const direct = catalog({ cache: undefined });
    for (const code of [CODE, UPPER, MIXED]) {
      const [fromCache, fromServer] = [
        await outcome(cached.purchases.validate(code)),
        await outcome(direct.purchases.validate(code)),
      ];
      expect(fromCache).toEqual(fromServer);
      expect(fromCache).toEqual({ valid: code, item: 101 });
    }
    // The cached client asked once (the first spelling); the others were hits of the same entry.
    expect(cached.cache).toMatchObject({ hits: 2, misses: 1, entries: 1 });
    expect(validations()).toBe(1 + 3);
  });

  it('once a spelling is refused, no other spelling is answered valid from the cache, fresh or stale', async () => {
    const client = catalog();
    await client.purchases.validate(CODE);
    expect(api.store.refundPurchase(UPPER)).toBe(true);
    vi.setSystemTime(Date.now() + HOUR);
    await expect(client.purchases.validate(UPPER)).rejects.toBeInstanceOf(InvalidPurchaseCodeError);
    // The refusal dropped the one entry of every spelling: the server is asked, and refuses.
    await expect(client.purchases.validate(CODE)).rejects.toBeInstanceOf(InvalidPurchaseCodeError);
    // A 503 now finds no entry to answer stale with: the failure, never a valid purchase.
    api.faults.script([{ status: 503 }]);
    await expect(client.purchases.validate(MIXED)).rejects.toBeInstanceOf(InternalServerError);
    expect(client.cache).toMatchObject({ stale: 0, entries: 0 });
  });
});

describe('the purchase_code a validation gives back', () => {
  it('is the caller’s spelling (trimmed), not the server’s, whether the server, the cache or a shared request answered', async () => {
    // The server stores the code in lower case and answers with that spelling.
    const direct = await catalog({ cache: undefined }).purchases.validate(` ${UPPER} `);
    expect(direct.purchase_code).toBe(UPPER);
    const client = catalog();
    const [first, joined] = await Promise.all([
      client.purchases.validate(MIXED).withResponse(),
      client.purchases.validate(UPPER).withResponse(),
    ]);
    expect([first.cache, first.data.purchase_code]).toEqual(['miss', MIXED]);
    expect([joined.cache, joined.data.purchase_code]).toEqual(['miss', UPPER]);
    const hit = await client.purchases.validate(CODE).withResponse();
    expect([hit.cache, hit.data.purchase_code]).toEqual(['hit', CODE]);
    // Each caller's result is its own object.
    expect(first.data).not.toBe(joined.data);
    expect(validations()).toBe(2);
  });
});
