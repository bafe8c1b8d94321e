import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rateLimitOption, Throttle, type Ticket } from '../../src/core/throttle/index.js';
import { createLog } from '../../src/core/transport/log.js';
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  InvalidParamsError,
  ManagementClient,
  RateLimitError,
} from '../../src/index.js';
import { createReferenceServer } from '../../src/testing/index.js';

const lines: { level: string; msg: string; fields: unknown }[] = [];
const note = (level: string) => (msg: string, fields: unknown) => lines.push({ level, msg, fields });
const log = createLog(
  { error: note('error'), warn: note('warn'), info: note('info'), debug: note('debug') },
  'info',
  (s) => s,
);
const MAX_PAUSE = 60_000;

function answer(status: number, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers });
}
const budget = (remaining: number, limit = 60) =>
  answer(200, { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(remaining) });

function ticket(extra: Partial<Ticket> = {}): Ticket {
  return { log, retry: false, timedOut: () => new Error('timed out in the queue'), ...extra };
}

/** Takes a turn and notes when it is granted; `granted` lists the names in grant order. */
function taker(throttle: Throttle) {
  const granted: string[] = [];
  const take = (name: string, extra: Partial<Ticket> = {}) => {
    const turn = throttle.take(ticket(extra));
    if (turn === undefined) {
      granted.push(name);
      return Promise.resolve();
    }
    return turn.then(() => {
      granted.push(name);
    });
  };
  return { granted, take };
}

/** An attempt that had a turn ends with `response`. */
function finish(throttle: Throttle, response: Response | undefined) {
  throttle.observe(response, log, MAX_PAUSE);
  throttle.release();
}

beforeEach(() => {
  vi.useFakeTimers();
  lines.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Throttle', () => {
  it('sends one request first on a cold client, then sizes the rest from its answer', async () => {
    const throttle = new Throttle({});
    const { granted, take } = taker(throttle);
    void take('a');
    void take('b');
    void take('c');
    void take('d');
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual(['a']);
    expect(throttle.snapshot()).toMatchObject({ queued: 3, inFlight: 1, remaining: undefined });
    finish(throttle, budget(2));
    await vi.advanceTimersByTimeAsync(0);
    // Two left: two in flight, the third waits for one of them.
    expect(granted).toEqual(['a', 'b', 'c']);
    finish(throttle, budget(1));
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual(['a', 'b', 'c']);
    // A new window a moment later (a higher budget read at once would be taken for a late answer: see below).
    await vi.advanceTimersByTimeAsync(250);
    finish(throttle, budget(5));
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual(['a', 'b', 'c', 'd']);
    expect(throttle.snapshot()).toMatchObject({ queued: 0, inFlight: 1, limit: 60, remaining: 5 });
  });

  it('opens for good when the first answer has no rate-limit headers, and ignores header-less answers later', async () => {
    const throttle = new Throttle({});
    const { granted, take } = taker(throttle);
    for (const name of ['a', 'b', 'c']) void take(name);
    finish(throttle, answer(200));
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual(['a', 'b', 'c']);
    expect(throttle.take(ticket())).toBeUndefined();
    expect(throttle.snapshot().inFlight).toBe(3);
  });

  it('grants turns in FIFO order, a retry before calls that have not started', async () => {
    const throttle = new Throttle({ maxConcurrent: 1 });
    const { granted, take } = taker(throttle);
    void take('first');
    void take('second');
    void take('third');
    void take('retry', { retry: true });
    finish(throttle, answer(200));
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual(['first', 'retry']);
    for (let i = 0; i < 2; i++) finish(throttle, answer(200));
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual(['first', 'retry', 'second', 'third']);
  });

  it('caps requests in flight at maxConcurrent whatever the server has left', async () => {
    const throttle = new Throttle({ maxConcurrent: 2 });
    const { granted, take } = taker(throttle);
    void take('a');
    finish(throttle, budget(100));
    for (const name of ['b', 'c', 'd']) void take(name);
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual(['a', 'b', 'c']);
    expect(throttle.snapshot()).toMatchObject({ inFlight: 2, queued: 1 });
    // maxConcurrent is the caller's own cap: nothing is announced.
    expect(lines).toEqual([]);
  });

  it('starts at most requestsPerMinute in any 60 s, and says how long the others wait', async () => {
    const throttle = new Throttle({ requestsPerMinute: 3 });
    const { granted, take } = taker(throttle);
    void take('a');
    finish(throttle, answer(200));
    await vi.advanceTimersByTimeAsync(10_000);
    for (const name of ['b', 'c', 'd', 'e']) void take(name);
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual(['a', 'b', 'c']);
    expect(lines).toEqual([
      {
        level: 'info',
        msg: '[content-platform-sdk] requestsPerMinute (3) reached: calls wait 50000 ms',
        fields: { waitMs: 50_000, queued: 1 },
      },
    ]);
    await vi.advanceTimersByTimeAsync(49_999);
    expect(granted).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(granted).toEqual(['a', 'b', 'c', 'd']);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(granted).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it("reads a 429's wait as ky does: a reset below 10^9 is seconds, from 10^9 on a Unix time", () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const cases: [Record<string, string>, number | undefined][] = [
      [{ 'x-ratelimit-reset': '3' }, 3_000],
      [{ 'ratelimit-reset': '2' }, 2_000],
      [{ 'x-ratelimit-reset': String(nowSeconds + 5) }, 5_000],
      // Long past: nothing to wait for.
      [{ 'x-ratelimit-reset': '1000000000' }, undefined],
    ];
    for (const [headers, pause] of cases) {
      const throttle = new Throttle({});
      expect(throttle.tryTake()).toBe(true);
      finish(throttle, answer(429, headers));
      expect(throttle.snapshot().pausedUntil?.getTime()).toBe(
        pause === undefined ? undefined : Date.now() + pause,
      );
    }
  });

  it('pauses every call after a 429 for its Retry-After, then lets one request find the new window', async () => {
    const throttle = new Throttle({});
    const { granted, take } = taker(throttle);
    void take('a');
    finish(throttle, budget(50));
    void take('b');
    for (const name of ['c', 'd']) void take(name);
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual(['a', 'b', 'c', 'd']);
    finish(
      throttle,
      answer(429, { 'retry-after': '2', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0' }),
    );
    // Answers already on their way that say the same do not announce the pause again.
    finish(throttle, answer(429, { 'retry-after': '2' }));
    for (const name of ['e', 'f']) void take(name);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(granted).toEqual(['a', 'b', 'c', 'd']);
    expect(throttle.snapshot()).toMatchObject({ queued: 2, remaining: 0 });
    expect(throttle.snapshot().pausedUntil?.getTime()).toBe(Date.now() + 1);
    await vi.advanceTimersByTimeAsync(1);
    // Nothing is known to be left: one request goes to find the new window, the next waits for its answer.
    expect(granted).toEqual(['a', 'b', 'c', 'd', 'e']);
    finish(throttle, budget(50));
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(lines).toEqual([
      {
        level: 'info',
        msg: '[content-platform-sdk] rate limit reached (HTTP 429): every call of this client waits 2000 ms',
        fields: { waitMs: 2000, queued: 0, limit: 60, remaining: 0 },
      },
    ]);
  });

  it("learns the server's window to the whole second from a 429's wait, and waits a spent window out to its end", async () => {
    const throttle = new Throttle({});
    const limited = () =>
      answer(429, { 'retry-after': '1', 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '0' });
    const left = (remaining: number) =>
      answer(200, { 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': String(remaining) });
    // A window begins with its first answer (1 of 2 left), and is spent 10 ms later.
    expect(throttle.tryTake()).toBe(true);
    finish(throttle, left(1));
    await vi.advanceTimersByTimeAsync(10);
    expect(throttle.tryTake()).toBe(true);
    finish(throttle, left(0));
    // Nothing says when it ends yet: one request finds out, 20 ms into the window, and draws a 429 naming 1 s.
    await vi.advanceTimersByTimeAsync(10);
    expect(throttle.tryTake()).toBe(true);
    finish(throttle, limited());
    // The window lasts the one whole second in (20 ms, 1 020 ms], not the 1 020 ms to the wait's end.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(throttle.tryTake()).toBe(true);
    finish(throttle, left(1));
    await vi.advanceTimersByTimeAsync(10);
    expect(throttle.tryTake()).toBe(true);
    finish(throttle, left(0));
    // Spent again: nothing goes before the window's end (its start, 1 020 ms, plus 1 s), and one request goes then.
    await vi.advanceTimersByTimeAsync(989);
    expect(throttle.tryTake()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(throttle.tryTake()).toBe(true);
  });

  it('keeps a Retry-After beyond maxRetryAfter as a pause: the calls that may not wait that long fail unsent until it ends', async () => {
    const throttle = new Throttle({});
    const paused = (waitMs: number) => new Error(`paused ${waitMs}`);
    const outcomes: string[] = [];
    void throttle.take(ticket());
    for (const name of ['b', 'c']) {
      throttle.take(ticket({ maxPauseMs: MAX_PAUSE, paused }))?.then(
        () => void outcomes.push(`${name} granted`),
        (e: Error) => void outcomes.push(`${name} ${e.message}`),
      );
    }
    throttle.observe(answer(429, { 'retry-after': '3600' }), log, MAX_PAUSE);
    throttle.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(outcomes).toEqual(['b paused 3600000', 'c paused 3600000']);
    expect(throttle.snapshot().pausedUntil?.getTime()).toBe(Date.now() + 3_600_000);
    // A later call fails the same way, without a request, until the named time.
    await vi.advanceTimersByTimeAsync(3_000_000);
    await expect(throttle.take(ticket({ maxPauseMs: MAX_PAUSE, paused }))).rejects.toThrow('paused 600000');
    expect(lines.map((l) => l.msg)).toEqual([
      '[content-platform-sdk] rate limit reached (HTTP 429): 3600000 ms, past maxRetryAfter: calls fail unsent until then',
    ]);
  });

  it('holds a pause and the budget through answers without rate-limit headers: a 5xx, a 408 or no answer opens nothing', async () => {
    const throttle = new Throttle({});
    const { granted, take } = taker(throttle);
    void take('a');
    finish(throttle, budget(0, 2));
    throttle.observe(answer(429, { 'retry-after': '1' }), log, MAX_PAUSE);
    for (const name of ['b', 'c', 'd', 'e']) void take(name);
    await vi.advanceTimersByTimeAsync(1_000);
    // The pause is over: one request finds out what the new window holds.
    expect(granted).toEqual(['a', 'b']);
    for (const failure of [answer(503), answer(408), undefined]) {
      finish(throttle, failure);
      await vi.advanceTimersByTimeAsync(0);
    }
    // Each failure let one more go, alone: never the whole queue at once.
    expect(granted).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(throttle.snapshot().inFlight).toBe(1);
    // A success without headers, once no budget is known, is news that the server does not count.
    void take('f');
    void take('g');
    finish(throttle, answer(200));
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  });

  it("fails a waiter unsent when a pause (set under a larger maxRetryAfter) runs past the waiter's own", async () => {
    const throttle = new Throttle({});
    const paused = (waitMs: number) => new Error(`paused ${waitMs}`);
    void throttle.take(ticket());
    const strict = throttle.take(ticket({ maxPauseMs: MAX_PAUSE, paused }));
    const patient = throttle.take(ticket({ maxPauseMs: 3_600_000, paused }));
    const outcome = { strict: '', patient: '' };
    strict?.then(
      () => {
        outcome.strict = 'granted';
      },
      (e: Error) => {
        outcome.strict = e.message;
      },
    );
    patient?.then(() => {
      outcome.patient = 'granted';
    });
    throttle.observe(answer(429, { 'retry-after': '600' }), log, 3_600_000);
    throttle.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome.strict).toBe('paused 600000');
    expect(outcome.patient).toBe('');
    expect(throttle.snapshot().queued).toBe(1);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(outcome.patient).toBe('granted');
  });

  it('takes a higher budget read within 250 ms of a lower one for a late answer, and believes one read later', async () => {
    const throttle = new Throttle({});
    throttle.observe(budget(3), log, MAX_PAUSE);
    throttle.observe(budget(5), log, MAX_PAUSE);
    expect(throttle.snapshot().remaining).toBe(3);
    throttle.observe(budget(2), log, MAX_PAUSE);
    expect(throttle.snapshot().remaining).toBe(2);
    await vi.advanceTimersByTimeAsync(250);
    throttle.observe(budget(9), log, MAX_PAUSE);
    expect(throttle.snapshot().remaining).toBe(9);
  });

  it('counts a request that got no answer as spent (the server may have counted it): one less is left', () => {
    const throttle = new Throttle({});
    throttle.observe(budget(3), log, MAX_PAUSE);
    throttle.observe(undefined, log, MAX_PAUSE);
    expect(throttle.snapshot().remaining).toBe(2);
    throttle.observe(undefined, log, MAX_PAUSE);
    throttle.observe(undefined, log, MAX_PAUSE);
    throttle.observe(undefined, log, MAX_PAUSE);
    expect(throttle.snapshot().remaining).toBe(0);
  });

  it('forgets a stated budget when its window ends: a minute when the answer names no reset', async () => {
    const throttle = new Throttle({});
    const { granted, take } = taker(throttle);
    void take('a');
    finish(throttle, budget(0));
    await vi.advanceTimersByTimeAsync(59_000);
    expect(throttle.snapshot().remaining).toBe(0);
    // Within the window, header-less answers leave the budget at 0: one request at a time.
    for (const name of ['b', 'c', 'd']) void take(name);
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual(['a', 'b']);
    finish(throttle, answer(200));
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual(['a', 'b', 'c']);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(throttle.snapshot()).toMatchObject({ remaining: undefined, limit: 60 });
    // Past it, the next header-less answer opens the throttle, as a first answer would.
    finish(throttle, answer(200));
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual(['a', 'b', 'c', 'd']);
    expect(throttle.take(ticket())).toBeUndefined();
  });

  it('announces once when calls start waiting for the server budget', async () => {
    const throttle = new Throttle({});
    const { granted, take } = taker(throttle);
    void take('a');
    finish(throttle, budget(2, 10));
    for (const name of ['b', 'c', 'd', 'e']) void take(name);
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual(['a', 'b', 'c']);
    expect(lines).toEqual([
      {
        level: 'info',
        msg: '[content-platform-sdk] rate limit: 2 of 10 requests left; calls wait for the 2 in flight',
        fields: { queued: 1, remaining: 2, limit: 10, inFlight: 2 },
      },
    ]);
  });

  it('lets one more request go every 500 ms while a request sent alone gets no answer', async () => {
    const throttle = new Throttle({});
    const { granted, take } = taker(throttle);
    for (const name of ['hung', 'b', 'c']) void take(name);
    await vi.advanceTimersByTimeAsync(499);
    expect(granted).toEqual(['hung']);
    await vi.advanceTimersByTimeAsync(1);
    expect(granted).toEqual(['hung', 'b']);
    finish(throttle, answer(200));
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual(['hung', 'b', 'c']);
  });

  it('takes an aborted call out of the queue with the signal reason, and one past its time with its timeout error', async () => {
    const throttle = new Throttle({ maxConcurrent: 1 });
    expect(throttle.take(ticket())).toBeUndefined();
    const controller = new AbortController();
    const aborted = throttle.take(ticket({ signal: controller.signal }));
    const late = throttle.take(ticket({ timeoutMs: 100 }));
    const waiting = throttle.take(ticket());
    expect(throttle.snapshot().queued).toBe(3);
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    const timedOut = expect(late).rejects.toThrow('timed out in the queue');
    await vi.advanceTimersByTimeAsync(100);
    await timedOut;
    expect(throttle.snapshot().queued).toBe(1);
    finish(throttle, answer(200));
    await expect(waiting).resolves.toBeUndefined();
    // An already aborted signal never queues.
    await expect(throttle.take(ticket({ signal: AbortSignal.abort(new Error('before')) }))).rejects.toThrow(
      'before',
    );
  });

  it('reads whole numbers of any size from the headers, and ignores anything else', () => {
    const throttle = new Throttle({});
    throttle.observe(budget(999_999_999, 1_000_000_000), log, MAX_PAUSE);
    expect(throttle.snapshot()).toMatchObject({ limit: 1_000_000_000, remaining: 999_999_999 });
    throttle.observe(
      answer(200, { 'x-ratelimit-remaining': '-1', 'x-ratelimit-limit': '1e3' }),
      log,
      MAX_PAUSE,
    );
    expect(throttle.snapshot()).toMatchObject({ limit: 1_000_000_000, remaining: 999_999_999 });
  });

  it('when off, still reads answers for the snapshot', () => {
    const throttle = new Throttle(false);
    throttle.observe(budget(0), log, MAX_PAUSE);
    expect(throttle.snapshot()).toMatchObject({ enabled: false, remaining: 0, limit: 60 });
  });
});

describe('rateLimit option', () => {
  it('accepts caps of whole numbers, {} and false', () => {
    expect(rateLimitOption(undefined)).toEqual({});
    expect(rateLimitOption(false)).toBe(false);
    expect(rateLimitOption({ maxConcurrent: 4, requestsPerMinute: 50 })).toEqual({
      maxConcurrent: 4,
      requestsPerMinute: 50,
    });
  });

  it('accepts a store that builds throttles, and refuses anything else as one', () => {
    const store = { throttle: () => new Throttle({}) };
    expect(rateLimitOption({ store, maxConcurrent: 2 })).toEqual({ store, maxConcurrent: 2 });
    expect(rateLimitOption({ store: undefined })).toEqual({});
    for (const bad of [{}, 'redis://127.0.0.1', null, { throttle: 1 }]) {
      expect(() => rateLimitOption({ store: bad })).toThrow(
        new InvalidParamsError(
          'rateLimit.store must be a store such as redisStore(redis) from content-platform-sdk/redis.',
          'rateLimit',
        ),
      );
    }
  });

  it('gives a client with a store the throttle the store builds, told the root, key, caps and a lease past timeout', () => {
    const inits: unknown[] = [];
    const built = new Throttle({});
    const store = {
      throttle: (init: unknown) => {
        inits.push(init);
        return built;
      },
    };
    const client = new ManagementClient({
      baseUrl: 'https://links.example.com',
      apiKey: 'k',
      timeout: 2_000,
      rateLimit: { store, requestsPerMinute: 30 },
    });
    expect(inits).toEqual([
      {
        apiRoot: 'https://links.example.com/api/v1',
        apiKey: 'k',
        maxConcurrent: undefined,
        requestsPerMinute: 30,
        leaseMs: 3_000,
        log: expect.any(Function),
      },
    ]);
    // Derived clients with the same key, URL and caps (the same store) share it; another key builds its own.
    client.withOptions({ timeout: 5_000 });
    expect(inits).toHaveLength(1);
    client.withOptions({ apiKey: 'other' });
    expect(inits).toHaveLength(2);
    expect(client.rateLimit.store).toBeUndefined();
  });

  it.each([
    [true, 'rateLimit must be false or { maxConcurrent?, requestsPerMinute?, store? }; got true.'],
    [{ maxConcurent: 2 }, 'rateLimit: unknown option "maxConcurent"; did you mean maxConcurrent?'],
    [
      { maxConcurrent: 0 },
      'rateLimit.maxConcurrent must be a whole number from 1 to 1000000, or Infinity (no cap); got 0.',
    ],
    [
      { requestsPerMinute: 1.5 },
      'rateLimit.requestsPerMinute must be a whole number from 1 to 1000000, or Infinity (no cap); got 1.5.',
    ],
  ])('refuses %j at construction', (rateLimit, message) => {
    const build = () =>
      new ManagementClient({
        baseUrl: 'https://links.example.com',
        apiKey: 'k',
        rateLimit: rateLimit as never,
      });
    expect(build).toThrow(InvalidParamsError);
    expect(build).toThrow(message);
  });
});

describe("a pause another client of the key set, past this client's maxRetryAfter", () => {
  it('fails the call at once, unsent, with a RateLimitError naming the wait (a derived client with a larger cap met the 429)', async () => {
    vi.useRealTimers();
    const server = createReferenceServer();
    server.faults.script([{ status: 429, headers: { 'retry-after': '600' } }], {
      match: (r) => r.url.endsWith('/pixels/1'),
    });
    const stop = new AbortController();
    const strict = new ManagementClient({
      baseUrl: 'https://links.example.com',
      apiKey: server.keys.management[0],
      logLevel: 'off',
      fetch: server.fetch,
    });
    const patient = strict.withOptions({ maxRetryAfter: 3_600_000 });
    const waiting = patient.pixels.get(1, { signal: stop.signal }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(strict.rateLimit.pausedUntil).toBeDefined());
    const error = await strict.pixels.get(2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfter: 600, attempts: 0 });
    expect((error as Error).message).toBe(
      'GET https://links.example.com/api/v1/pixels/2 was not sent: a 429 paused this key for 600 s more, past ' +
        'maxRetryAfter (60 s).',
    );
    expect(server.requests.map((r) => new URL(r.url).pathname)).toEqual(['/api/v1/pixels/1']);
    stop.abort();
    expect(await waiting).toBeInstanceOf(APIUserAbortError);
  });
});

describe('a call hands back every turn it took', () => {
  it('a request that never settles and ignores its signal: the turn goes back when the call times out', async () => {
    vi.useRealTimers();
    const server = createReferenceServer();
    let calls = 0;
    const mgmt = new ManagementClient({
      baseUrl: 'https://links.example.com',
      apiKey: server.keys.management[0],
      rateLimit: { maxConcurrent: 1 },
      timeout: 100,
      maxRetries: 1,
      logLevel: 'off',
      // The first two attempts hang for good, whatever their signal says; the rest reach the server.
      fetch: (request) => (++calls <= 2 ? new Promise<Response>(() => {}) : server.fetch(request)),
    });
    const error = await mgmt.pixels.get(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toMatchObject({ attempts: 2 });
    expect(mgmt.rateLimit).toMatchObject({ inFlight: 0, queued: 0 });
    await expect(mgmt.pixels.get(2)).resolves.toMatchObject({ id: 2 });
    expect(mgmt.rateLimit.inFlight).toBe(0);
  });

  it('a retry whose deadline passes while it waits for its turn: nothing stays taken', async () => {
    vi.useRealTimers();
    const server = createReferenceServer();
    server.faults.script([{ status: 503, headers: { 'retry-after': '0' } }], {
      match: (r) => r.url.endsWith('/pixels/1'),
    });
    server.faults.set({ latencyMs: 300, match: (r) => r.url.endsWith('/pixels/2') });
    const mgmt = new ManagementClient({
      baseUrl: 'https://links.example.com',
      apiKey: server.keys.management[0],
      rateLimit: { maxConcurrent: 1 },
      logLevel: 'off',
      fetch: server.fetch,
    });
    // 1 fails at once and its retry queues behind 2, which holds the only turn past 1's deadline.
    const first = mgmt.pixels.get(1, { totalTimeout: 150 }).catch((e: unknown) => e);
    const second = mgmt.pixels.get(2);
    expect(await first).toBeInstanceOf(APIConnectionTimeoutError);
    await expect(second).resolves.toMatchObject({ id: 2 });
    expect(mgmt.rateLimit).toMatchObject({ inFlight: 0, queued: 0 });
    expect(server.requests.map((r) => new URL(r.url).pathname)).toEqual([
      '/api/v1/pixels/1',
      '/api/v1/pixels/2',
    ]);
  });
});
