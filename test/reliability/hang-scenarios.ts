import { expect } from 'vitest';
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  InternalServerError,
  RateLimitError,
} from '../../src/core/errors/classes.js';
import type { Hooks } from '../../src/core/transport/index.js';
import type { ManagementClient } from '../../src/management/index.js';
import {
  attempts,
  capturingLogger,
  failure,
  linesSince,
  type Middleware,
  mark,
  type Scenario,
  since,
  wallSince,
} from './harness.js';

/** Every answer says `remaining` of `limit` requests are left (the reference server of the suite says nothing). */
function budget(remaining: number, limit = 60): Middleware {
  return async (request, next) => {
    const response = await next(request);
    const headers = new Headers(response.headers);
    headers.set('x-ratelimit-limit', String(limit));
    headers.set('x-ratelimit-remaining', String(remaining));
    return new Response(response.body, { status: response.status, headers });
  };
}

/** A server that holds each request 100 ms and notes how many it held at once (`peak`, reset by the test). */
function held() {
  let inFlight = 0;
  const seen = { peak: 0 };
  const middleware: Middleware = async (request, next) => {
    inFlight += 1;
    seen.peak = Math.max(seen.peak, inFlight);
    await pause(100);
    inFlight -= 1;
    return next(request);
  };
  return { seen, middleware };
}

/** Sends 20 calls at once: they must all be in flight together, not one at a time (20 × 100 ms and more). */
async function twentyAtOnce(client: ManagementClient, seen: { peak: number }): Promise<void> {
  seen.peak = 0;
  const started = mark();
  await Promise.all(Array.from({ length: 20 }, () => client.pixels.get(1)));
  expect(since(started)).toBeLessThan(1_000);
  expect(seen.peak).toBeGreaterThanOrEqual(10);
}

/** A hook that never settles: a logging backend that hangs, a lock never released. */
const never = () => new Promise<never>(() => {});

/** Resolves after `ms`. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// RFC 850 dates (RFC 9110's obsolete form) with a two-digit year, as an old proxy or framework writes them.
const YEAR_60 = 'Sunday, 01-Jan-60 00:00:00 GMT';
const YEAR_99 = 'Friday, 01-Jan-99 00:00:00 GMT';

/** Calls that could wait for ever: on a server's date, on a user's hook, on a budget nobody renews. */
export const hangScenarios: Scenario[] = [
  ...(['retry-after', 'ratelimit-reset', 'x-ratelimit-reset'] as const).map(
    (header): Scenario => ({
      name: `a 429 whose ${header} is a two-digit-year date (01-Jan-60): 2060, past maxRetryAfter, fails at once`,
      within: 1_500,
      async run(rig, via) {
        rig.server.faults.script([{ status: 429, headers: { [header]: YEAR_60 } }]);
        const logged = capturingLogger.lines.length;
        const started = mark();
        const error = await failure(rig.mgmt(via).pixels.get(1));
        expect(error).toBeInstanceOf(RateLimitError);
        // The wait the SDK checked is the one ky would sleep: about 33 years, not 0.
        const years = ((error as RateLimitError).retryAfter ?? 0) / (365.25 * 86_400);
        expect(years).toBeGreaterThan(30);
        expect(years).toBeLessThan(35);
        expect(attempts(rig)).toBe(1);
        expect(since(started)).toBeLessThan(1_000);
        expect(linesSince(logged).filter((line) => line.includes(': retry '))).toEqual([]);
      },
    }),
  ),
  {
    name: 'a 429 whose Retry-After is a two-digit year long past (01-Jan-99): retried at once, as the line says',
    within: 1_500,
    async run(rig, via) {
      rig.server.faults.script([{ status: 429, headers: { 'retry-after': YEAR_99 } }]);
      const logged = capturingLogger.lines.length;
      const started = mark();
      await expect(rig.mgmt(via).pixels.get(1)).resolves.toMatchObject({ id: 1 });
      expect(since(started)).toBeLessThan(1_000);
      expect(attempts(rig)).toBe(2);
      const retries = linesSince(logged).filter((line) => line.includes(': retry '));
      expect(retries).toHaveLength(1);
      expect(retries[0]).toContain('retry 1 of 2 in 0 ms after HTTP 429');
    },
  },
  {
    name: 'a 503 asking 0.3 s (a decimal Retry-After): the retry waits 0.3 s, not a backoff, not a second',
    within: 2_000,
    async run(rig, via) {
      rig.server.faults.script([{ status: 503, headers: { 'retry-after': '0.3' } }]);
      const logged = capturingLogger.lines.length;
      const started = mark();
      await expect(rig.mgmt(via).pixels.get(1)).resolves.toMatchObject({ id: 1 });
      expect(wallSince(started)).toBeGreaterThanOrEqual(290);
      expect(since(started)).toBeLessThan(900);
      expect(linesSince(logged).some((line) => line.includes('retry 1 of 2 in 300 ms after HTTP 503'))).toBe(
        true,
      );
    },
  },
  ...(['beforeRequest', 'afterResponse', 'beforeRetry'] as const).map(
    (hook): Scenario => ({
      name: `${hook}: a hook that never settles: the caller's abort ends the call`,
      within: 2_000,
      async run(rig, via) {
        // A retry needs a failure first; the other hooks run on the first attempt.
        if (hook === 'beforeRetry') rig.server.faults.script([{ status: 503 }]);
        const controller = new AbortController();
        const hooks: Hooks = { [hook]: [never] };
        const call = rig.mgmt(via).pixels.get(1, { signal: controller.signal, hooks });
        await pause(hook === 'beforeRequest' ? 50 : 400);
        const aborted = mark();
        controller.abort();
        const error = await failure(call);
        expect(error).toBeInstanceOf(APIUserAbortError);
        expect(since(aborted)).toBeLessThan(200);
        expect(attempts(rig)).toBe(hook === 'beforeRequest' ? 0 : 1);
      },
    }),
  ),
  {
    name: 'a beforeRequest hook that never settles, with Remaining: 1: the abort frees its turn for the next call',
    within: 2_000,
    async run(rig, via) {
      rig.use(budget(1));
      const client = rig.mgmt(via);
      await client.pixels.get(1);
      const controller = new AbortController();
      const hung = client.pixels.get(1, { signal: controller.signal, hooks: { beforeRequest: [never] } });
      hung.catch(() => {});
      await pause(50);
      const next = client.pixels.get(2);
      await pause(50);
      // The hung call holds the one turn the server's budget allows: the next call waits behind it.
      expect(client.rateLimit).toMatchObject({ inFlight: 1, queued: 1, remaining: 1 });
      controller.abort();
      expect(await failure(hung)).toBeInstanceOf(APIUserAbortError);
      await expect(next).resolves.toMatchObject({ id: 2 });
      expect(client.rateLimit).toMatchObject({ inFlight: 0, queued: 0 });
    },
  },
  {
    name: 'a stated Remaining: 0 expires with its window (X-RateLimit-Reset): then 20 calls go in parallel',
    within: 4_000,
    async run(rig, via) {
      let first = true;
      const { seen, middleware } = held();
      rig.use(async (request, next) => {
        if (!first) return middleware(request, next);
        first = false;
        const response = await next(request);
        const headers = new Headers(response.headers);
        headers.set('x-ratelimit-limit', '60');
        headers.set('x-ratelimit-remaining', '0');
        headers.set('x-ratelimit-reset', String(Math.ceil(Date.now() / 1000) + 1));
        return new Response(response.body, { status: response.status, headers });
      });
      const client = rig.mgmt(via);
      await client.pixels.get(1);
      expect(client.rateLimit.remaining).toBe(0);
      await pause(2_100);
      expect(client.rateLimit.remaining).toBeUndefined();
      // No rate-limit headers from here on (a server or proxy that stopped sending them): the first answer reopens.
      await twentyAtOnce(client, seen);
    },
  },
  {
    name: 'a 429 whose reset is past maxRetryAfter expires with it: later calls without headers go in parallel',
    within: 5_000,
    async run(rig, via) {
      rig.server.faults.script([
        {
          status: 429,
          headers: { 'retry-after': '2', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0' },
        },
      ]);
      const { seen, middleware } = held();
      rig.use(middleware);
      const client = rig.mgmt(via, { maxRetryAfter: 1_000 });
      expect(await failure(client.pixels.get(1))).toBeInstanceOf(RateLimitError);
      expect(client.rateLimit.remaining).toBe(0);
      await pause(2_100);
      await twentyAtOnce(client, seen);
    },
  },
  {
    name: 'a beforeRetry hook that never settles and no signal: totalTimeout ends the call',
    within: 2_000,
    async run(rig, via) {
      rig.server.faults.script([{ status: 503 }]);
      const started = mark();
      const error = await failure(
        rig.mgmt(via).pixels.get(1, { totalTimeout: 800, hooks: { beforeRetry: [never] } }),
      );
      // ky races its hooks with totalTimeout: the call times out, its cause the answer it was retrying.
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      expect((error as Error).cause).toBeInstanceOf(InternalServerError);
      expect(since(started)).toBeLessThan(1_500);
    },
  },
];
