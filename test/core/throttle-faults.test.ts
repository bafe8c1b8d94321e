// The throttle through answers that say nothing of the budget (issue 34, item 1): a bare 5xx answering the request
// sent when a 429's pause ends must not open the throttle. Reproduction from the issue: a server allowing 2 requests
// a second, its 4th answer a 503 without rate-limit headers, 20 creates handed over at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagementClient, type ManagementClientOptions, RateLimitError } from '../../src/index.js';
import {
  createReferenceServer,
  type FetchHandler,
  type ListeningServer,
  listen,
  type ReferenceServer,
} from '../../src/testing/index.js';
import { countingFront } from '../helpers/front.js';

const api = createReferenceServer({ rateLimit: { limit: 2, windowMs: 1_000 } });
const { front, held: seen } = countingFront(api);
let server: ListeningServer;
beforeAll(async () => {
  server = await listen(front, { port: 0 });
});
afterAll(async () => {
  await server?.close();
});

/** A Management client of `server`'s first key, in process (no socket), through `through` when given. */
function local(
  server: ReferenceServer,
  options: ManagementClientOptions = {},
  through: FetchHandler = server,
) {
  return new ManagementClient({
    baseUrl: 'https://links.example.com',
    apiKey: server.keys.management[0] as string,
    logLevel: 'off',
    fetch: (request) => through.fetch(request),
    ...options,
  });
}

describe('the throttle through answers without rate-limit headers', () => {
  it('a bare 503 after a pause opens nothing: 20 creates at 2 a second, never more in flight than the budget, few 429s, 0 lost', async () => {
    const key = api.keys.management[0] as string;
    const mgmt = new ManagementClient({ baseUrl: server.url, apiKey: key, logLevel: 'off' });
    api.faults.script(['pass', 'pass', 'pass', { status: 503 }], {
      match: (r) => r.method === 'POST',
    });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        mgmt.pixels.create({ name: `bare-${i}`, type: 'facebook', value: String(100 + i) }),
      ),
    );
    const rejected = results.filter((r) => r.status === 'rejected');
    // The 503 answered a create, which the SDK never retries after a 5xx: that one row fails, reported; none else.
    expect(rejected).toHaveLength(1);
    expect(seen.most).toBeLessThanOrEqual(2);
    const limited = api.requests.filter((r) => r.status === 429).length;
    // One request finds each new window spent (the server names no reset on a success): one 429 a window at most.
    expect(limited).toBeLessThanOrEqual(11);
    expect(api.store.pixels(key).filter((p) => p.name.startsWith('bare-'))).toHaveLength(19);
    expect(results.some((r) => r.status === 'rejected' && r.reason instanceof RateLimitError)).toBe(false);
  }, 30_000);
});

describe("the server's window, learned", () => {
  it('once a 429 has shown how long a window lasts, a spent window is waited out instead of probed: 30 calls at 2 a second, at most 2 answers of 429', async () => {
    const server = createReferenceServer({ rateLimit: { limit: 2, windowMs: 1_000 } });
    const { front, held } = countingFront(server);
    const own = await listen(front, { port: 0 });
    try {
      const mgmt = new ManagementClient({
        baseUrl: own.url,
        apiKey: server.keys.management[0] as string,
        logLevel: 'off',
      });
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => mgmt.pixels.get(1 + (i % 5))));
      expect(results).toHaveLength(30);
      expect(held.most).toBeLessThanOrEqual(2);
      // The first spent window is probed (its 429 says how long windows last); the others are waited out.
      expect(server.requests.filter((r) => r.status === 429).length).toBeLessThanOrEqual(2);
    } finally {
      await own.close();
    }
  }, 30_000);
});

describe('maxRetryAfter for one call', () => {
  it('is honoured per call: 0 fails a 429 asking 1 s at once; a call may wait longer than its client allows', async () => {
    const server = createReferenceServer();
    const mgmt = local(server, { maxRetryAfter: 500 });
    server.faults.script([{ status: 429, headers: { 'retry-after': '1' } }]);
    const error = await mgmt.pixels.get(1, { maxRetryAfter: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ attempts: 1, retryAfter: 1 });
    server.faults.script([{ status: 429, headers: { 'retry-after': '1' } }]);
    // The client alone would fail it (500 ms < 1 s); this call may wait 2 s, and does.
    await expect(mgmt.pixels.get(1, { maxRetryAfter: 2_000 })).resolves.toMatchObject({ id: 1 });
    expect(server.requests.map((r) => r.status)).toEqual([429, 429, 200]);
  });

  it('is checked like the client option', async () => {
    const server = createReferenceServer();
    const mgmt = local(server);
    await expect(mgmt.pixels.get(1, { maxRetryAfter: -1 })).rejects.toMatchObject({
      name: 'InvalidParamsError',
      param: 'maxRetryAfter',
    });
    expect(server.requests).toHaveLength(0);
  });
});

describe('client.rateLimit while a call sleeps before its retry', () => {
  it('counts the call among the queued until its retry goes', async () => {
    const server = createReferenceServer();
    const mgmt = local(server);
    server.faults.script([{ status: 503, headers: { 'retry-after': '1' } }]);
    const call = mgmt.pixels.get(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.requests).toHaveLength(1);
    expect(mgmt.rateLimit).toMatchObject({ queued: 1, inFlight: 0 });
    await expect(call).resolves.toMatchObject({ id: 1 });
    expect(mgmt.rateLimit).toMatchObject({ queued: 0, inFlight: 0 });
  });

  it('forgets it when the call is aborted in its sleep', async () => {
    const server = createReferenceServer();
    const mgmt = local(server);
    server.faults.script([{ status: 503, headers: { 'retry-after': '5' } }]);
    const stop = new AbortController();
    const call = mgmt.pixels.get(1, { signal: stop.signal }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mgmt.rateLimit.queued).toBe(1);
    stop.abort();
    await call;
    expect(mgmt.rateLimit).toMatchObject({ queued: 0, inFlight: 0 });
  });
});

describe('the default cap on requests in flight (issue 34, item 3)', () => {
  /** A server without a rate limit that holds every request 100 ms, counting how many it holds at once. */
  function holding() {
    const server = createReferenceServer({ rateLimit: false });
    const { front: held, held: seen } = countingFront(server, 100);
    const client = (rateLimit?: { maxConcurrent?: number } | false) =>
      local(server, rateLimit === undefined ? {} : { rateLimit }, held);
    return { seen, client };
  }

  it('holds 40 calls handed over at once to 16 in flight by default', async () => {
    const { seen, client } = holding();
    const mgmt = client();
    await Promise.all(Array.from({ length: 40 }, (_, i) => mgmt.pixels.get(1 + (i % 5))));
    expect(seen.most).toBe(16);
  });

  it('lifts it with maxConcurrent: Infinity, or rateLimit: false; sets it with maxConcurrent', async () => {
    // Unlimited: a cold client sends one request first to learn the budget (none here), then all the others at once.
    for (const [rateLimit, most] of [
      [{ maxConcurrent: Number.POSITIVE_INFINITY }, 39],
      [false, 40],
      [{ maxConcurrent: 3 }, 3],
    ] as const) {
      const { seen, client } = holding();
      const mgmt = client(rateLimit);
      await Promise.all(Array.from({ length: 40 }, (_, i) => mgmt.pixels.get(1 + (i % 5))));
      expect(seen.most).toBe(most);
    }
  });

  it('refuses a cap that is not a whole number from 1, or Infinity', () => {
    for (const maxConcurrent of [0, 1.5, -1, Number.NaN, Number.NEGATIVE_INFINITY]) {
      expect(() => holding().client({ maxConcurrent })).toThrow(
        `rateLimit.maxConcurrent must be a whole number from 1 to 1000000, or Infinity (no cap); got ${maxConcurrent}.`,
      );
    }
  });
});
