import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  type CacheStore,
  CatalogClient,
  type CatalogClientOptions,
  InvalidParamsError,
  InvalidPurchaseCodeError,
  type Logger,
} from '../../src/index.js';
import {
  createReferenceServer,
  type ListeningServer,
  listen,
  SEED_CATALOG_KEYS,
  SEED_PURCHASE_CODES,
} from '../../src/testing/index.js';
import { timed } from '../helpers/failure.js';

// What the purchase cache guarantees when callers leave, stores fail or lie, and the server fails (issue 33, items
// 11-17): over a real 127.0.0.1 socket to the reference server, with stores of the test's own making.
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const KEY = SEED_CATALOG_KEYS[0];
const CODE = SEED_PURCHASE_CODES.supported;
const OTHER = SEED_PURCHASE_CODES.downloaded;
const api = createReferenceServer({ rateLimit: false });
let live: ListeningServer;
const lines: { level: string; message: string; fields: unknown }[] = [];
function recorder(into: typeof lines): Logger {
  const note = (level: string) => (message: string, fields?: unknown) =>
    void into.push({ level, message, fields });
  return { error: note('error'), warn: note('warn'), info: note('info'), debug: note('debug') };
}

beforeAll(async () => {
  live = await listen(api, { port: 0 });
});
afterAll(async () => {
  await live.close();
});
beforeEach(() => {
  api.reset();
  lines.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

function catalog(options: Partial<CatalogClientOptions> = {}): CatalogClient {
  return new CatalogClient({
    siteUrl: live.url,
    apiKey: KEY,
    logger: recorder(lines),
    logLevel: 'info',
    maxRetries: 0,
    cache: { ttl: HOUR, staleIfError: 3 * DAY },
    ...options,
  });
}
/** A fetch that hands each answer over `ms` late: the server has answered, the client has not heard yet. */
function lateFetch(ms: number): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    await new Promise((resolve) => setTimeout(resolve, ms));
    return response;
  };
}
const validations = () => api.requests.filter((r) => r.method === 'POST').length;
const warns = (from = lines) => from.filter((line) => line.level === 'warn');
/** A store of the test's own over a Map, with hooks to make it fail or lie. */
function mapStore(overrides: Partial<CacheStore> = {}) {
  const kept = new Map<string, unknown>();
  const store: CacheStore = {
    get: (key) => kept.get(key),
    set: (key, value) => void kept.set(key, value),
    delete: (key) => void kept.delete(key),
    ...overrides,
  };
  return { kept, store };
}
describe('single flight keeps each caller’s own signal, deadline and result (item 11)', () => {
  it('the first caller aborts: it alone rejects (APIUserAbortError); the 5 others get the answer, from 1 request', async () => {
    api.faults.set({ latencyMs: 400 });
    const client = catalog();
    const first = new AbortController();
    const calls = [
      client.purchases.validate(CODE, { signal: first.signal }).withResponse(),
      ...Array.from({ length: 5 }, () => client.purchases.validate(CODE).withResponse()),
    ];
    setTimeout(() => first.abort(new Error('the client went away')), 50);
    const [aborted, ...others] = await Promise.all(calls.map(timed));
    expect(aborted?.error).toBeInstanceOf(APIUserAbortError);
    expect(String((aborted?.error as Error | undefined)?.message)).toMatch(
      /^POST http:\/\/127\.0\.0\.1:\d+\/api\/purchases\/validation was aborted by the caller\.$/,
    );
    expect(aborted?.ms).toBeLessThan(300);
    for (const other of others)
      expect(other.value).toMatchObject({ cache: 'miss', data: { purchase_code: CODE } });
    expect(validations()).toBe(1);
  });

  it('a later joiner’s own totalTimeout (300 ms) ends its wait alone; the first caller still gets the answer', async () => {
    api.faults.set({ latencyMs: 1_500 });
    const client = catalog();
    const first = timed(client.purchases.validate(CODE));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const joiner = await timed(client.purchases.validate(CODE, { totalTimeout: 300 }));
    expect(joiner.error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(joiner.ms).toBeGreaterThanOrEqual(290);
    expect(joiner.ms).toBeLessThan(600);
    expect((await first).value).toMatchObject({ purchase_code: CODE });
    expect(validations()).toBe(1);
  });

  it('a later joiner’s own signal ends its wait alone', async () => {
    api.faults.set({ latencyMs: 600 });
    const client = catalog();
    const first = timed(client.purchases.validate(CODE));
    const mine = new AbortController();
    const joiner = timed(client.purchases.validate(CODE, { signal: mine.signal }));
    setTimeout(() => mine.abort(), 50);
    expect((await joiner).error).toBeInstanceOf(APIUserAbortError);
    expect((await first).value).toMatchObject({ purchase_code: CODE });
  });

  it('the first caller’s shorter deadline does not fail a joiner with time left: the joiner asks again', async () => {
    api.faults.set({ latencyMs: 400 });
    const client = catalog();
    const first = timed(client.purchases.validate(CODE, { totalTimeout: 150 }));
    const joiner = timed(client.purchases.validate(CODE));
    expect((await first).error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((await joiner).value).toMatchObject({ purchase_code: CODE });
  });

  it('every caller gone: the shared request stops, and the next caller starts a new one (not the old abort)', async () => {
    api.faults.set({ latencyMs: 300 });
    const client = catalog();
    const controllers = [new AbortController(), new AbortController()];
    const gone = controllers.map((c) => timed(client.purchases.validate(CODE, { signal: c.signal })));
    await new Promise((resolve) => setTimeout(resolve, 30));
    for (const c of controllers) c.abort();
    for (const result of await Promise.all(gone)) expect(result.error).toBeInstanceOf(APIUserAbortError);
    await expect(client.purchases.validate(CODE)).resolves.toMatchObject({ purchase_code: CODE });
  });

  it('a caller whose signal has aborted already gets its APIUserAbortError and sends nothing', async () => {
    const client = catalog();
    await expect(client.purchases.validate(CODE, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
    expect(validations()).toBe(0);
  });
});

describe('a refused code stays refused, whatever the store does (item 12)', () => {
  it('a store whose delete throws: after a refusal, the next validation asks the server, not the store', async () => {
    const { store } = mapStore({
      delete: () => {
        throw new Error('delete refused by the store');
      },
    });
    const client = catalog({ cache: { ttl: HOUR, staleIfError: 3 * DAY, store } });
    await client.purchases.validate(CODE);
    expect(api.store.refundPurchase(CODE)).toBe(true);
    await expect(client.purchases.validate(CODE, { cache: false })).rejects.toBeInstanceOf(
      InvalidPurchaseCodeError,
    );
    await expect(client.purchases.validate(CODE)).rejects.toBeInstanceOf(InvalidPurchaseCodeError);
    // A derived client shares the cache, and what it knows.
    await expect(client.withOptions({ timeout: 5_000 }).purchases.validate(CODE)).rejects.toBeInstanceOf(
      InvalidPurchaseCodeError,
    );
    expect(validations()).toBe(4);
    // Nor does a failing server bring the refused code back as stale.
    api.faults.set({ failureRate: 1, failureStatuses: [503] });
    await expect(client.purchases.validate(CODE)).rejects.toMatchObject({ status: 503 });
  });

  it('a store that says another process is refreshing the code: a refused code is still asked, not read', async () => {
    // Before: the wait on the claim read the store's entry (its delete did nothing) and answered it as a hit.
    let claims = 0;
    const { store } = mapStore({ delete: () => {}, claim: () => claims++ === 0 });
    const client = catalog({ cache: { ttl: HOUR, staleIfError: 3 * DAY, store } });
    await client.purchases.validate(CODE);
    api.store.refundPurchase(CODE);
    await expect(client.purchases.validate(CODE, { cache: false })).rejects.toBeInstanceOf(
      InvalidPurchaseCodeError,
    );
    await expect(client.purchases.validate(CODE)).rejects.toBeInstanceOf(InvalidPurchaseCodeError);
    expect(validations()).toBe(3);
  });

  it('a refusal that lands while another caller reads the store: that entry answers nothing, not even stale', async () => {
    // A reads a stale entry slowly; meanwhile B's request is refused; then A's own request fails (503). Before: A
    // answered the entry it had read, 'stale', for a code the server had just refused.
    let slow = 0;
    const { store, kept } = mapStore();
    const { get } = store;
    // The value is taken at once, and delivered late (a slow network back from the store).
    store.get = async (key) => {
      const value = get(key);
      await new Promise((resolve) => setTimeout(resolve, slow));
      return value;
    };
    const client = catalog({ cache: { ttl: 1, staleIfError: 3 * DAY, store } });
    await client.purchases.validate(CODE);
    expect(kept.size).toBe(1);
    slow = 300;
    const a = timed(client.purchases.validate(CODE));
    await new Promise((resolve) => setTimeout(resolve, 20));
    api.store.refundPurchase(CODE);
    await expect(client.purchases.validate(CODE, { cache: false })).rejects.toBeInstanceOf(
      InvalidPurchaseCodeError,
    );
    api.faults.set({ failureRate: 1, failureStatuses: [503] });
    expect((await a).error).toMatchObject({ status: 503 });
    expect(client.cache?.stale).toBe(0);
  });

  it('every client of the process remembers a refusal: another client on the same store does not answer it', async () => {
    const { store } = mapStore({
      delete: () => {
        throw new Error('delete refused by the store');
      },
    });
    const first = catalog({ cache: { ttl: HOUR, staleIfError: 3 * DAY, store } });
    const second = catalog({ cache: { ttl: HOUR, staleIfError: 3 * DAY, store } });
    await first.purchases.validate(CODE);
    api.store.refundPurchase(CODE);
    await expect(first.purchases.validate(CODE, { cache: false })).rejects.toBeInstanceOf(
      InvalidPurchaseCodeError,
    );
    // Before: the second client read the entry the failed delete left, and answered it as a hit.
    await expect(second.purchases.validate(CODE)).rejects.toBeInstanceOf(InvalidPurchaseCodeError);
    api.faults.set({ failureRate: 1, failureStatuses: [503] });
    await expect(second.purchases.validate(CODE)).rejects.toMatchObject({ status: 503 });
    expect(second.cache).toMatchObject({ hits: 0, stale: 0 });
    expect(validations()).toBe(4);
  });

  it('an answer to a request sent before the refusal neither lifts it nor is kept, and no one joins it after', async () => {
    // Client 1's request is answered valid, but its fetch hands the answer over 400 ms late; meanwhile the code is
    // refunded and client 2 is refused. Before: client 1's late answer lifted the process's refusal and was kept, so
    // both clients answered the refunded code valid from their caches; a call made after the refusal joined it.
    const late = lateFetch(400);
    const first = catalog({ fetch: late });
    const second = catalog();
    const asked = timed(first.purchases.validate(CODE).withResponse());
    await new Promise((resolve) => setTimeout(resolve, 100));
    api.store.refundPurchase(CODE);
    await expect(second.purchases.validate(CODE, { cache: false })).rejects.toBeInstanceOf(
      InvalidPurchaseCodeError,
    );
    const after = timed(first.purchases.validate(CODE));
    // Asked before the refusal: its caller has the answer the server gave then.
    expect((await asked).value?.cache).toBe('miss');
    expect((await after).error).toBeInstanceOf(InvalidPurchaseCodeError);
    await expect(first.purchases.validate(CODE)).rejects.toBeInstanceOf(InvalidPurchaseCodeError);
    await expect(second.purchases.validate(CODE)).rejects.toBeInstanceOf(InvalidPurchaseCodeError);
    expect(validations()).toBe(5);
  });

  it('{ cache: false } sends its own request: it never joins one already under way', async () => {
    // Before: a check with { cache: false } made after the refund joined the request sent before it, and answered
    // the refunded code valid.
    const late = lateFetch(300);
    const client = catalog({ fetch: late });
    const asked = timed(client.purchases.validate(CODE));
    await new Promise((resolve) => setTimeout(resolve, 100));
    api.store.refundPurchase(CODE);
    await expect(client.purchases.validate(CODE, { cache: false })).rejects.toBeInstanceOf(
      InvalidPurchaseCodeError,
    );
    expect((await asked).value).toMatchObject({ purchase_code: CODE });
    expect(validations()).toBe(2);
  });

  it('a code the server accepts again is cached again (the refusal is forgotten)', async () => {
    const client = catalog();
    api.store.refundPurchase(CODE);
    await expect(client.purchases.validate(CODE)).rejects.toBeInstanceOf(InvalidPurchaseCodeError);
    api.reset();
    await client.purchases.validate(CODE);
    expect((await client.purchases.validate(CODE).withResponse()).cache).toBe('hit');
  });
});

describe('an entry is bound to its code and client; a wrong one is a miss (items 13, 14)', () => {
  it('a store answering every key with another code’s entry: the refused code is asked, and refused', async () => {
    let lie: unknown;
    const { kept, store } = mapStore({ get: () => lie });
    const client = catalog({ cache: { ttl: HOUR, staleIfError: 3 * DAY, store } });
    await client.purchases.validate(CODE);
    lie = [...kept.values()][0];
    api.store.refundPurchase(OTHER);
    await expect(client.purchases.validate(OTHER)).rejects.toBeInstanceOf(InvalidPurchaseCodeError);
    // Nor does it stand in as stale for a code whose server fails.
    api.faults.set({ failureRate: 1, failureStatuses: [503] });
    await expect(client.purchases.validate(SEED_PURCHASE_CODES.supportExpired)).rejects.toMatchObject({
      status: 503,
    });
    expect(client.cache).toMatchObject({ rejected: 2, hits: 0, stale: 0 });
  });

  it('an entry of another client’s cache (another key and site), under this name, is a miss', async () => {
    const otherKey = 'ck-other-client-key';
    const otherApi = createReferenceServer({ rateLimit: false, catalogKeys: [otherKey] });
    const otherLive = await listen(otherApi, { port: 0 });
    try {
      const { kept, store } = mapStore();
      const mine = catalog({ cache: { ttl: HOUR, store } });
      await mine.purchases.validate(CODE);
      const [name] = [...kept.keys()] as [string];
      const other = catalog({ siteUrl: otherLive.url, apiKey: otherKey, cache: { ttl: HOUR, store } });
      await other.purchases.validate(otherApi.store.purchases(otherKey)[0]?.purchase_code as string);
      const copied = [...kept].find(([key]) => key !== name)?.[1];
      expect(copied).toBeDefined();
      kept.set(name, copied);
      expect((await mine.purchases.validate(CODE).withResponse()).cache).toBe('miss');
      expect(mine.cache?.rejected).toBe(1);
    } finally {
      await otherLive.close();
    }
  });

  it('an entry stamped ahead of this clock (beyond 5 s) is a miss, not fresh for ever', async () => {
    const { store } = mapStore();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T01:00:00Z'));
    // A fleet member whose clock runs an hour ahead writes the entry.
    await catalog({ cache: { ttl: HOUR, store } }).purchases.validate(CODE);
    vi.setSystemTime(new Date('2026-11-24T00:00:00Z'));
    const client = catalog({ cache: { ttl: HOUR, store } });
    expect((await client.purchases.validate(CODE).withResponse()).cache).toBe('miss');
    expect(client.cache?.rejected).toBe(1);
    // 4 s ahead is within the allowance: the entry just written (now) answers.
    vi.setSystemTime(Date.now() - 4_000);
    expect((await client.purchases.validate(CODE).withResponse()).cache).toBe('hit');
  });

  it('a tampered entry (its purchase, stamp or MAC changed) is a miss; so is a value that is no entry', async () => {
    const { kept, store } = mapStore();
    const client = catalog({ cache: { ttl: HOUR, store } });
    await client.purchases.validate(CODE);
    const [name, entry] = [...kept][0] as [string, { at: number; purchase: string; mac: string }];
    const tampered = [
      { ...entry, purchase: entry.purchase.replace(/"currency":"\w+"/, '"currency":"XXX"') },
      { ...entry, purchase: '{}' },
      { ...entry, at: entry.at + 1 },
      { ...entry, mac: entry.mac.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) },
      { at: entry.at, purchase: JSON.parse(entry.purchase) },
      'not an entry',
      42,
    ];
    expect(tampered[0]).not.toEqual(entry);
    for (const value of tampered) {
      kept.set(name, value);
      expect((await client.purchases.validate(CODE).withResponse()).cache).toBe('miss');
    }
    expect(client.cache?.rejected).toBe(tampered.length);
  });

  it('every hit is a copy of its own: one caller’s change never shows in the next result', async () => {
    for (const store of [undefined, mapStore().store]) {
      const client = catalog({ cache: { ttl: HOUR, store } });
      await client.purchases.validate(CODE);
      const one = await client.purchases.validate(CODE);
      one.item.name = 'changed';
      one.item.tags.push('changed');
      const two = await client.purchases.validate(CODE);
      expect(two.item.name).not.toBe('changed');
      expect(two.item.tags).not.toContain('changed');
    }
  });

  it('callers who share one request each have an answer of their own: one’s change shows in no other’s', async () => {
    for (const store of [undefined, mapStore().store]) {
      api.reset();
      api.faults.set({ latencyMs: 200 });
      const client = catalog({ cache: { ttl: HOUR, store } });
      // The first caller starts the request; the others join it: one request, four answers.
      const answers = await Promise.all(Array.from({ length: 4 }, () => client.purchases.validate(CODE)));
      expect(validations()).toBe(1);
      const [changed, ...others] = [answers[1], answers[0], ...answers.slice(2)];
      if (changed === undefined) throw new Error('expected four answers');
      changed.item.name = 'changed';
      changed.item.tags.push('changed');
      for (const answer of others) {
        expect(answer?.item.name).not.toBe('changed');
        expect(answer?.item.tags).not.toContain('changed');
      }
      // Nothing shared between any two of them, at any depth the purchase has objects.
      for (const [i, a] of answers.entries())
        for (const b of answers.slice(i + 1)) {
          expect(a).not.toBe(b);
          expect(a?.item).not.toBe(b?.item);
          expect(a?.item.tags).not.toBe(b?.item.tags);
        }
      expect((await client.purchases.validate(CODE)).item.name).not.toBe('changed');
    }
  });
});

describe('store operations end with the call; a breaker skips a failing store (item 15)', () => {
  it('a hanging store: the caller’s abort ends the validation at once, not after the store’s 1 s', async () => {
    const { store } = mapStore({ get: () => new Promise(() => {}) });
    const client = catalog({ cache: { ttl: HOUR, store } });
    const result = await timed(client.purchases.validate(CODE, { signal: AbortSignal.timeout(100) }));
    expect(result.error).toBeInstanceOf(APIUserAbortError);
    expect(result.ms).toBeLessThan(400);
    expect(validations()).toBe(0);
    // The caller's leaving is not the store's failure.
    expect(client.cache?.errors).toBe(0);
  });

  it('a hanging store takes at most half of the caller’s totalTimeout: the server answers in the other half', async () => {
    // Before: the store's read took the whole 300 ms, and the call failed (APIConnectionTimeoutError) with the
    // server healthy. A failing store is a miss, never a failed call.
    const { store } = mapStore({ get: () => new Promise(() => {}) });
    const client = catalog({ cache: { ttl: HOUR, store } });
    const result = await timed(client.purchases.validate(CODE, { totalTimeout: 300 }).withResponse());
    expect(result.value?.cache).toBe('miss');
    expect(result.value?.data.purchase_code).toBe(CODE);
    expect(result.ms).toBeLessThan(300);
    expect(validations()).toBe(1);
    // The warn line says how long the store had, in whole milliseconds.
    expect(warns().map((line) => line.message)).toEqual([
      expect.stringMatching(
        /^\[content-platform-sdk\] the purchase cache store failed \(no answer within \d+ ms\): validations ask the server\.$/,
      ),
    ]);
  });

  it('a joiner has the server’s answer as soon as it is in, not once a hanging store has taken the entry', async () => {
    // Before: the shared request settled only after the entry's write (up to 1 s on a hanging store), and a joiner
    // with a 400 ms deadline failed with APIConnectionTimeoutError while the server had answered at ~100 ms.
    api.faults.set({ latencyMs: 100 });
    const { store } = mapStore({ set: () => new Promise(() => {}) });
    const client = catalog({ cache: { ttl: HOUR, store } });
    const first = timed(client.purchases.validate(CODE).withResponse());
    await new Promise((resolve) => setTimeout(resolve, 20));
    const joiner = await timed(client.purchases.validate(CODE, { totalTimeout: 400 }).withResponse());
    expect(joiner.value?.cache).toBe('miss');
    expect(joiner.value?.data.purchase_code).toBe(CODE);
    expect(joiner.ms).toBeLessThan(400);
    // The first caller waits for the write (the store's 1 s bound), so a process that ends after it leaves the entry.
    expect((await first).value?.cache).toBe('miss');
    expect(validations()).toBe(1);
  });

  it('the first caller waiting for a hanging store’s write still ends with its own abort', async () => {
    const { store } = mapStore({ set: () => new Promise(() => {}) });
    const client = catalog({ cache: { ttl: HOUR, store } });
    const leaving = new AbortController();
    const first = timed(client.purchases.validate(CODE, { signal: leaving.signal }));
    const joiner = timed(client.purchases.validate(CODE).withResponse());
    expect((await joiner).value?.cache).toBe('miss');
    const aborted = performance.now();
    leaving.abort();
    const result = await first;
    expect(result.error).toBeInstanceOf(APIUserAbortError);
    expect(performance.now() - aborted).toBeLessThan(100);
    expect(validations()).toBe(1);
  });

  it('a hanging store and a server that does not answer: the call ends at its deadline', async () => {
    api.faults.set({ latencyMs: 2_000 });
    const { store } = mapStore({ get: () => new Promise(() => {}) });
    const client = catalog({ cache: { ttl: HOUR, store } });
    const result = await timed(client.purchases.validate(CODE, { totalTimeout: 200 }));
    expect(result.error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(result.ms).toBeGreaterThanOrEqual(190);
    expect(result.ms).toBeLessThan(500);
  });
});

describe('stale answers (items 16, 17)', () => {
  async function withStaleEntry(options: Partial<CatalogClientOptions> = {}) {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T00:00:00Z'));
    const client = catalog(options);
    await client.purchases.validate(CODE);
    vi.setSystemTime(Date.now() + DAY);
    return client;
  }

  it.each([503, 500, 429])(
    'a %i carrying a Catalog error envelope is a server failure: stale',
    async (status) => {
      const client = await withStaleEntry();
      api.faults.script([{ status, body: { status: 'خطأ', msg: 'الخدمة غير متاحة' } }]);
      expect((await client.purchases.validate(CODE).withResponse()).cache).toBe('stale');
    },
  );

  it('an invalid-code envelope, whatever its status, is a refusal: never stale', async () => {
    const client = await withStaleEntry();
    api.faults.script([{ status: 503, body: { status: 'خطأ', msg: 'كود الشراء غير صحيح' } }]);
    await expect(client.purchases.validate(CODE)).rejects.toBeInstanceOf(InvalidPurchaseCodeError);
  });

  it('a derived client’s and a second client’s stale warnings go to their own loggers', async () => {
    const client = await withStaleEntry();
    const childLines: typeof lines = [];
    const secondLines: typeof lines = [];
    const child = client.withOptions({ logger: recorder(childLines) });
    const options = { cache: { ttl: HOUR, staleIfError: 3 * DAY } };
    const first = catalog(options);
    const second = catalog({ ...options, logger: recorder(secondLines) });
    vi.setSystemTime(Date.now() - DAY);
    await first.purchases.validate(CODE);
    vi.setSystemTime(Date.now() + DAY);
    api.faults.set({ failureRate: 1, failureStatuses: [503] });
    expect((await child.purchases.validate(CODE).withResponse()).cache).toBe('stale');
    expect((await second.purchases.validate(CODE).withResponse()).cache).toBe('stale');
    expect(warns(childLines)).toHaveLength(1);
    expect(warns(secondLines)).toHaveLength(1);
    expect(warns()).toHaveLength(0);
  });

  it('one warn line per outage (and logger), the stale counter counts every answer', async () => {
    const client = await withStaleEntry();
    api.faults.set({ failureRate: 1, failureStatuses: [503] });
    for (let i = 0; i < 5; i += 1)
      expect((await client.purchases.validate(CODE).withResponse()).cache).toBe('stale');
    expect(warns()).toHaveLength(1);
    expect(client.cache?.stale).toBe(5);
    // The server answers: the outage is over; the next one is told again.
    api.faults.set({});
    await client.purchases.validate(OTHER);
    api.faults.set({ failureRate: 1, failureStatuses: [503] });
    await client.purchases.validate(CODE);
    expect(warns()).toHaveLength(2);
  });

  it('a 429 within maxRetryAfter with a stale entry at hand answers stale at once, and so do the checks after it', async () => {
    const client = await withStaleEntry({ maxRetries: 2, maxRetryAfter: 60_000 });
    api.faults.script([{ status: 429, headers: { 'retry-after': '30' } }]);
    const first = await timed(client.purchases.validate(CODE).withResponse());
    expect(first.value?.cache).toBe('stale');
    expect(first.ms).toBeLessThan(1_000);
    const sent = validations();
    // The client is paused for 30 s: the next check answers stale without a request, nor a wait.
    const next = await timed(client.purchases.validate(CODE).withResponse());
    expect(next.value?.cache).toBe('stale');
    expect(next.ms).toBeLessThan(200);
    expect(validations()).toBe(sent);
    // A code without an entry still waits its turn (and here, its totalTimeout ends it).
    await expect(client.purchases.validate(OTHER, { totalTimeout: 200 })).rejects.toBeInstanceOf(
      APIConnectionTimeoutError,
    );
  });
});

describe('per-call options of a cached validation', () => {
  it.each([
    ['hooks: "garbage"', { hooks: 'garbage' }],
    ['hooks.beforeRequest: "notarray"', { hooks: { beforeRequest: 'notarray' } }],
  ])('%s is an InvalidParamsError on a hit too, where nothing is sent', async (_, options) => {
    const client = catalog({ cache: { ttl: HOUR } });
    await client.purchases.validate(CODE);
    const sent = validations();
    const error = await client.purchases.validate(CODE, options as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect(error).toMatchObject({ param: 'hooks' });
    expect(validations()).toBe(sent);
  });
});

describe('the cache option (item 16)', () => {
  it.each([null, false, 'yes', 3600])('cache: %s is an InvalidParamsError naming cache', (cache) => {
    let thrown: unknown;
    try {
      catalog({ cache: cache as never });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidParamsError);
    expect(thrown).toMatchObject({ param: 'cache' });
  });
});
