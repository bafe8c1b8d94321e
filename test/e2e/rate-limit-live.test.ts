import { afterEach, describe, expect, it } from 'vitest';
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  ManagementClient,
  type ManagementClientOptions,
  RateLimitError,
} from '../../src/index.js';
import {
  createReferenceServer,
  listen,
  type ReferenceServerOptions,
  SEED_MANAGEMENT_KEYS,
} from '../../src/testing/index.js';

// Scripts at the rate limit, over a real 127.0.0.1 socket, against the reference server limiting as the real
// one does (per key, per window, the same headers), with a small limit: 10 requests a second.
const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

const TEN_A_SECOND = { limit: 10, windowMs: 1_000 };

/** A listening reference server that also notes when each request arrives and how many it holds at once. */
async function live(options: ReferenceServerOptions = {}) {
  const server = createReferenceServer(options);
  const arrivals: { at: number; url: string }[] = [];
  let holding = 0;
  let most = 0;
  const { url, close } = await listen(
    {
      async fetch(request) {
        arrivals.push({ at: performance.now(), url: request.url });
        most = Math.max(most, ++holding);
        try {
          return await server.fetch(request);
        } finally {
          holding -= 1;
        }
      },
    },
    { port: 0 },
  );
  open.push(close);
  const client = (extra: ManagementClientOptions = {}) =>
    new ManagementClient({ baseUrl: url, apiKey: SEED_MANAGEMENT_KEYS[0], logLevel: 'error', ...extra });
  const statuses = () => server.requests.map((r) => r.status);
  return {
    server,
    client,
    arrivals,
    statuses,
    mostAtOnce: () => most,
    resetMost: () => {
      most = holding;
    },
  };
}

/** Forty concurrent updates, as a script would send them. */
function burst(mgmt: ManagementClient, count = 40) {
  return Promise.allSettled(
    Array.from({ length: count }, (_, i) => mgmt.pixels.update(1 + (i % 12), { name: `burst ${i}` })),
  );
}

describe('the throttle against a server at its rate limit', () => {
  it('gets a burst of 40 through with default options, drawing only a few 429s', async () => {
    const { client, statuses } = await live({ rateLimit: TEN_A_SECOND });
    const results = await burst(client());
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const limited = statuses().filter((s) => s === 429).length;
    // One per window when its budget runs out (the request that finds the new window), none beyond.
    expect(limited).toBeLessThanOrEqual(5);
    expect(statuses().filter((s) => s === 200)).toHaveLength(40);
  }, 15_000);

  it('without the throttle (rateLimit: false) the same burst is sent at once and runs out of retries', async () => {
    const { client, statuses, arrivals } = await live({ rateLimit: TEN_A_SECOND });
    const results = await burst(client({ rateLimit: false }));
    // All 40 left before any answer came back: the first 40 arrivals are within a few ms.
    const first = arrivals.slice(0, 40).map((a) => a.at);
    expect(Math.max(...first) - Math.min(...first)).toBeLessThan(500);
    expect(statuses().filter((s) => s === 429).length).toBeGreaterThanOrEqual(30);
    const failed = results.filter((r) => r.status === 'rejected');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((r) => (r as PromiseRejectedResult).reason instanceof RateLimitError)).toBe(true);
  }, 15_000);

  it('never has more requests in flight than the server has left', async () => {
    const { client, statuses, mostAtOnce, resetMost, server } = await live({ rateLimit: TEN_A_SECOND });
    server.faults.set({ latencyMs: 50 });
    const mgmt = client();
    await mgmt.pixels.get(1);
    expect(mgmt.rateLimit).toMatchObject({ limit: 10, remaining: 9, queued: 0, inFlight: 0 });
    resetMost();
    const calls = Array.from({ length: 12 }, (_, i) => mgmt.pixels.get(1 + i));
    // Nine go at once (what the server has left); the other three wait in the queue.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(mgmt.rateLimit).toMatchObject({ queued: 3, inFlight: 9 });
    await Promise.all(calls);
    expect(mostAtOnce()).toBe(9);
    expect(statuses().slice(0, 10)).toEqual(Array(10).fill(200));
  }, 15_000);

  it('pauses every queued call after a 429 until its Retry-After, then sends them', async () => {
    const { client, server, arrivals } = await live();
    server.faults.script([
      { status: 429, body: { message: 'Too Many Attempts.' }, headers: { 'retry-after': '1' } },
    ]);
    const lines: { level: string; msg: string; fields: unknown }[] = [];
    const note = (level: string) => (msg: string, fields: unknown) => lines.push({ level, msg, fields });
    const logger = { error: note('error'), warn: note('warn'), info: note('info'), debug: note('debug') };
    const mgmt = client({ logger, logLevel: 'info' });
    // A cold client sends one request first: it draws the 429, the other four wait in the queue.
    const calls = [1, 2, 3, 4, 5].map((id) => mgmt.pixels.get(id));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(mgmt.rateLimit.pausedUntil).toBeInstanceOf(Date);
    // The four in the queue, and the one that drew the 429, waiting for its retry: every call still waiting.
    expect(mgmt.rateLimit).toMatchObject({ queued: 5, inFlight: 0 });
    expect((await Promise.all(calls)).map((p) => p.id)).toEqual([1, 2, 3, 4, 5]);
    expect(arrivals).toHaveLength(6);
    const [limited, ...rest] = arrivals;
    for (const later of rest) expect(later.at - (limited?.at ?? 0)).toBeGreaterThanOrEqual(990);
    const pause = lines.find((l) => l.msg.includes('rate limit reached'));
    expect(pause).toEqual({
      level: 'info',
      msg: '[content-platform-sdk] rate limit reached (HTTP 429): every call of this client waits 1000 ms',
      fields: { waitMs: 1000, queued: 4, remaining: 0 },
    });
  }, 15_000);

  it('never sends a queued call that the caller aborts', async () => {
    const { client, server } = await live({ rateLimit: TEN_A_SECOND });
    server.faults.set({ latencyMs: 300, match: (r) => r.url.endsWith('/pixels/1') });
    const mgmt = client();
    // Cold: the first request goes alone, and the second waits for its answer.
    const first = mgmt.pixels.get(1);
    const controller = new AbortController();
    const queued = mgmt.pixels.get(2, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mgmt.rateLimit.queued).toBe(1);
    controller.abort();
    const error = await queued.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(error).toMatchObject({ attempts: 0 });
    expect(mgmt.rateLimit.queued).toBe(0);
    await first;
    expect(server.requests.map((r) => new URL(r.url).pathname)).toEqual(['/api/v1/pixels/1']);
  }, 15_000);

  it('counts the time queued against totalTimeout, and a call whose deadline passes in the queue is never sent', async () => {
    const { client, server } = await live({ rateLimit: TEN_A_SECOND });
    server.faults.set({ latencyMs: 400, match: (r) => r.url.endsWith('/pixels/1') });
    const mgmt = client();
    const first = mgmt.pixels.get(1);
    const started = performance.now();
    const error = await mgmt.pixels.get(2, { totalTimeout: 100 }).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(350);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toMatchObject({ attempts: 0, mayHaveSucceeded: false });
    expect((error as Error).message).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/pixels\/2 waiting for its turn under the rate limit timed out/,
    );
    await first;
    expect(server.requests).toHaveLength(1);
  }, 15_000);

  it('does not throttle a server that sends no rate-limit headers, once its first answer says so', async () => {
    const { client, server, mostAtOnce, resetMost } = await live();
    server.faults.set({ latencyMs: 100 });
    const mgmt = client();
    // Cold: one request first, then the others together, 16 at a time (the default cap on requests in flight).
    await Promise.all(Array.from({ length: 20 }, (_, i) => mgmt.pixels.get(1 + (i % 12))));
    expect(mostAtOnce()).toBe(16);
    resetMost();
    await Promise.all(Array.from({ length: 20 }, (_, i) => mgmt.pixels.get(1 + (i % 12))));
    expect(mostAtOnce()).toBe(16);
    expect(mgmt.rateLimit).toMatchObject({ limit: undefined, remaining: undefined, queued: 0, inFlight: 0 });
  }, 15_000);

  it('does not let one hung first request hold up a cold burst past half a second', async () => {
    const { client, server } = await live();
    server.faults.script(['hang'], { match: (r) => r.url.endsWith('/pixels/3') });
    const mgmt = client({ timeout: 1_000, maxRetries: 0 });
    const hung = mgmt.pixels.get(3).catch((e: unknown) => e);
    const started = performance.now();
    await Promise.all([1, 2, 4].map((id) => mgmt.pixels.get(id)));
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(490);
    expect(waited).toBeLessThan(1_500);
    expect(await hung).toBeInstanceOf(APIConnectionTimeoutError);
  }, 15_000);

  it('sends a call with rateLimit: false at once, past the queue', async () => {
    const { client, server, mostAtOnce } = await live({ rateLimit: TEN_A_SECOND });
    server.faults.set({ latencyMs: 200 });
    const mgmt = client();
    const first = mgmt.pixels.get(1);
    const health = mgmt.pixels.get(2, { rateLimit: false });
    const queued = mgmt.pixels.get(3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mgmt.rateLimit).toMatchObject({ queued: 1, inFlight: 1 });
    await Promise.all([first, health, queued]);
    expect(mostAtOnce()).toBe(2);
    await expect(mgmt.pixels.get(1, { rateLimit: true as never })).rejects.toThrow(
      'rateLimit for one call can only be false (send it past the queue); got true.',
    );
  }, 15_000);

  it('makes a retry wait for its turn like any request: maxConcurrent 1 holds through retries', async () => {
    const { client, server, mostAtOnce, arrivals } = await live();
    server.faults.script([{ status: 503 }], { match: (r) => r.url.endsWith('/pixels/1') });
    // 2 takes longer than 1's backoff (at most 300 ms before the first retry): 1's retry must wait for it.
    server.faults.set({ latencyMs: 400, match: (r) => r.url.endsWith('/pixels/2') });
    const mgmt = client({ rateLimit: { maxConcurrent: 1 } });
    const [a, b] = await Promise.all([mgmt.pixels.get(1), mgmt.pixels.get(2)]);
    expect([a.id, b.id]).toEqual([1, 2]);
    expect(mostAtOnce()).toBe(1);
    // The first attempt of 1 failed; 2 had its turn during 1's backoff; then 1's retry.
    expect(arrivals.map((r) => new URL(r.url).pathname)).toEqual([
      '/api/v1/pixels/1',
      '/api/v1/pixels/2',
      '/api/v1/pixels/1',
    ]);
  }, 15_000);

  it('shares one throttle between a client and the clients it derives with the same key and caps', async () => {
    const { client } = await live({ rateLimit: TEN_A_SECOND });
    const mgmt = client();
    const patient = mgmt.withOptions({ timeout: 30_000, maxRetries: 5 });
    const other = mgmt.withOptions({ apiKey: SEED_MANAGEMENT_KEYS[1] });
    const capped = mgmt.withOptions({ rateLimit: { maxConcurrent: 2 } });
    await mgmt.pixels.get(1);
    await patient.pixels.get(2);
    expect(mgmt.rateLimit.remaining).toBe(8);
    expect(patient.rateLimit.remaining).toBe(8);
    expect(other.rateLimit.remaining).toBeUndefined();
    expect(capped.rateLimit.remaining).toBeUndefined();
  }, 15_000);
});
