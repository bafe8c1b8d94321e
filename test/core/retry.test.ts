import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import * as errors from '../../src/core/errors/classes.js';
import { connectionCode } from '../../src/core/errors/index.js';
import {
  type Failure,
  RETRY_STATUSES,
  retryReason,
  serverWaitMs,
  shouldRetry,
} from '../../src/core/transport/retry.js';
import { bearerClient, paramClient } from '../helpers/core.js';

const Anything = z.unknown();
const ROOT = 'https://links.example.com/api/v1';

/** A custom fetch that plays `steps` in order (the last one repeats) and records every attempt. */
function script(...steps: ((request: Request) => Promise<Response>)[]) {
  const attempts: { method: string; url: string; body: string; signal: AbortSignal; at: number }[] = [];
  const fetch = async (request: Request) => {
    attempts.push({
      method: request.method,
      url: request.url,
      body: await request.clone().text(),
      signal: request.signal,
      at: performance.now(),
    });
    const step = steps[Math.min(attempts.length - 1, steps.length - 1)] as (typeof steps)[0];
    return step(request);
  };
  return { fetch, attempts };
}

const answer =
  (status: number, body = '{}', headers: Record<string, string> = {}) =>
  async () =>
    new Response(status === 204 ? null : body, { status, headers });
const refuse = (code: string) => async () => {
  throw new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code}`), { code }) });
};
/** Never answers; rejects with the signal's reason once the attempt is aborted, as fetch does. */
const hang = (request: Request) =>
  new Promise<Response>((_, reject) => {
    request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
  });
/** Answers at once, then sends a body that never ends (until the attempt is aborted). */
const stallBody = async (request: Request) => {
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"id":'));
      request.signal.addEventListener('abort', () => controller.error(request.signal.reason), { once: true });
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
};
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error as Error,
  );

beforeEach(() => {
  // Backoff waits are drawn at random below the backoff step: pinned to 0 so retries are immediate.
  vi.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => vi.restoreAllMocks());

describe('retries through ky (HttpClient)', () => {
  it('retries a 503 on a GET and resolves to the next answer, re-sending the same request', async () => {
    const { fetch, attempts } = script(answer(503), answer(200, '{"ok":true}'));
    await expect(bearerClient({ fetch, maxRetries: 2 }).get('pixels/1', Anything)).resolves.toEqual({
      ok: true,
    });
    expect(attempts.map((a) => `${a.method} ${a.url}`)).toEqual([
      `GET ${ROOT}/pixels/1`,
      `GET ${ROOT}/pixels/1`,
    ]);
    expect(attempts[0]?.signal).not.toBe(attempts[1]?.signal);
  });

  it('re-sends the same form body on each retry of a PUT', async () => {
    const { fetch, attempts } = script(answer(502), answer(200));
    await bearerClient({ fetch, maxRetries: 1 }).request('PUT', 'pixels/1', Anything, {
      body: { name: 'a b&c' },
    });
    expect(attempts.map((a) => a.body)).toEqual(['name=a+b%26c', 'name=a+b%26c']);
  });

  it('sends maxRetries + 1 attempts, then maps the last answer', async () => {
    const { fetch, attempts } = script(answer(500, '{"message":"down"}'));
    const error = await failure(bearerClient({ fetch, maxRetries: 3 }).get('pixels/1', Anything));
    expect(error).toBeInstanceOf(errors.InternalServerError);
    expect(attempts).toHaveLength(4);
  });

  it('waits what a 429 asks for (Retry-After seconds) before the retry, without jitter', async () => {
    const { fetch, attempts } = script(answer(429, '{}', { 'retry-after': '1' }), answer(200));
    await bearerClient({ fetch, maxRetries: 1 }).get('pixels/1', Anything);
    const waited = (attempts[1]?.at ?? 0) - (attempts[0]?.at ?? 0);
    expect(waited).toBeGreaterThanOrEqual(950);
  });

  it('waits a decimal Retry-After as asked (the SDK states the wait to ky): never short, never a whole second', async () => {
    const { fetch, attempts } = script(answer(503, '{}', { 'retry-after': '0.4' }), answer(200));
    await bearerClient({ fetch, maxRetries: 1 }).get('pixels/1', Anything);
    const waited = (attempts[1]?.at ?? 0) - (attempts[0]?.at ?? 0);
    expect(waited).toBeGreaterThanOrEqual(390);
    expect(waited).toBeLessThan(900);
  });

  it('retries refused connections on a GET, then maps the last one to APIConnectionError with its code', async () => {
    const { fetch, attempts } = script(refuse('ECONNREFUSED'));
    const error = await failure(bearerClient({ fetch, maxRetries: 2 }).get('pixels/1', Anything));
    expect(error).toBeInstanceOf(errors.APIConnectionError);
    expect(error.message).toBe(`GET ${ROOT}/pixels/1 failed: could not reach the server (ECONNREFUSED).`);
    expect(attempts).toHaveLength(3);
  });

  it('counts any TypeError from fetch as a network error and retries it (ky only knows some messages)', async () => {
    const custom = async () => {
      throw new TypeError('socket hang up');
    };
    const { fetch, attempts } = script(custom, answer(200, '{"ok":1}'));
    await expect(bearerClient({ fetch, maxRetries: 1 }).get('pixels/1', Anything)).resolves.toEqual({
      ok: 1,
    });
    expect(attempts).toHaveLength(2);
  });

  it('does not retry a fault that is not a TypeError (a bug in a custom fetch), and maps it to APIConnectionError', async () => {
    const { fetch, attempts } = script(async () => {
      throw new RangeError('bug in the custom fetch');
    });
    const error = await failure(bearerClient({ fetch, maxRetries: 2 }).get('pixels/1', Anything));
    expect(error).toBeInstanceOf(errors.APIConnectionError);
    expect(error.message).toBe(
      `GET ${ROOT}/pixels/1 failed: the connection was lost before an answer (bug in the custom fetch).`,
    );
    expect(attempts).toHaveLength(1);
  });

  it('times an attempt out, retries the GET, then rejects with APIConnectionTimeoutError', async () => {
    const { fetch, attempts } = script(hang);
    const error = await failure(
      bearerClient({ fetch, maxRetries: 1, timeout: 50 }).get('pixels/1', Anything),
    );
    expect(error).toBeInstanceOf(errors.APIConnectionTimeoutError);
    expect(attempts).toHaveLength(2);
    expect(attempts.every((a) => a.signal.aborted)).toBe(true);
  });

  it('counts the body in the attempt: a body that stalls times out and the GET is retried', async () => {
    const { fetch, attempts } = script(stallBody, answer(200, '{"id":1}'));
    await expect(
      bearerClient({ fetch, maxRetries: 1, timeout: 100 }).get('pixels/1', Anything),
    ).resolves.toEqual({ id: 1 });
    expect(attempts).toHaveLength(2);
  });

  it('never passes off a body cut short by the timeout as the answer', async () => {
    // A fetch whose body simply ends (instead of erroring) when the attempt is aborted.
    const truncating = async (request: Request) => {
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"id":1,'));
          request.signal.addEventListener('abort', () => controller.close(), { once: true });
        },
      });
      return new Response(body, { status: 200 });
    };
    const { fetch } = script(truncating);
    const error = await failure(bearerClient({ fetch, timeout: 50 }).get('pixels/1', Anything));
    expect(error).toBeInstanceOf(errors.APIConnectionTimeoutError);
  });

  it('rejects with APIUserAbortError when the caller aborts an attempt, and does not retry', async () => {
    const controller = new AbortController();
    const { fetch, attempts } = script((request) => {
      setTimeout(() => controller.abort(), 10);
      return hang(request);
    });
    const error = await failure(
      bearerClient({ fetch, maxRetries: 2 }).get('pixels/1', Anything, { signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(errors.APIUserAbortError);
    expect(attempts).toHaveLength(1);
  });

  it('stops a wait between attempts as soon as the caller aborts', async () => {
    const controller = new AbortController();
    const { fetch, attempts } = script(answer(503, '{}', { 'retry-after': '30' }));
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    const error = await failure(
      bearerClient({ fetch, maxRetries: 2 }).get('pixels/1', Anything, { signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(errors.APIUserAbortError);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(attempts).toHaveLength(1);
  });

  it("fails at once with the answer's own error when the server's wait would pass totalTimeout", async () => {
    const { fetch, attempts } = script(answer(503, '{}', { 'retry-after': '5' }));
    const started = performance.now();
    const error = await failure(
      bearerClient({ fetch, maxRetries: 2, totalTimeout: 200 }).get('pixels/1', Anything),
    );
    // Not a timeout 200 ms later: the 503 itself, with the wait it asked for.
    expect(error).toBeInstanceOf(errors.InternalServerError);
    expect(error).toMatchObject({ status: 503, retryAfter: 5, attempts: 1 });
    expect(attempts).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('shortens an attempt to what is left of totalTimeout', async () => {
    const { fetch, attempts } = script(hang);
    const started = performance.now();
    const error = await failure(
      bearerClient({ fetch, maxRetries: 0, timeout: 10_000, totalTimeout: 100 }).get('pixels/1', Anything),
    );
    expect(error).toBeInstanceOf(errors.APIConnectionTimeoutError);
    expect(attempts).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('retries of a create (Management POST)', () => {
  it('retries after a 429 (the throttle answered before acting), after its Retry-After', async () => {
    const { fetch, attempts } = script(answer(429, '{}', { 'retry-after': '0' }), answer(201, '{"id":5}'));
    await expect(
      bearerClient({ fetch, maxRetries: 2 }).post('pixels', Anything, { name: 'x' }),
    ).resolves.toEqual({ id: 5 });
    expect(attempts.map((a) => `${a.method} ${a.body}`)).toEqual(['POST name=x', 'POST name=x']);
  });

  it('retries when the connection was refused before anything was sent', async () => {
    const { fetch, attempts } = script(refuse('ECONNREFUSED'), answer(201, '{"id":5}'));
    await expect(
      bearerClient({ fetch, maxRetries: 2 }).post('pixels', Anything, { name: 'x' }),
    ).resolves.toEqual({ id: 5 });
    expect(attempts).toHaveLength(2);
  });

  it.each<[string, (request: Request) => Promise<Response>, abstract new (...args: never[]) => Error]>([
    ['a 503', answer(503, '{}', { 'retry-after': '0' }), errors.InternalServerError],
    ['a 500', answer(500), errors.InternalServerError],
    ['a reset connection', refuse('ECONNRESET'), errors.APIConnectionError],
    ['a timeout', hang, errors.APIConnectionTimeoutError],
  ])('never retries after %s: it may have been created', async (_label, step, expected) => {
    const { fetch, attempts } = script(step);
    const error = await failure(
      bearerClient({ fetch, maxRetries: 2, timeout: 50 }).post('pixels', Anything, { name: 'x' }),
    );
    expect(error).toBeInstanceOf(expected);
    expect(attempts).toHaveLength(1);
  });

  it('retries the Catalog POST (purchase validation only reads) like a GET', async () => {
    const { fetch, attempts } = script(answer(502), answer(200, '{"ok":true}'));
    await paramClient({ fetch, maxRetries: 1 }).post('purchases/validation', Anything, {
      purchase_code: 'c',
    });
    expect(attempts).toHaveLength(2);
  });
});

const status = (code: number, headers: Record<string, string> = {}): Failure => ({
  kind: 'status',
  status: code,
  headers: new Headers(headers),
});
const network = (code?: string): Failure => ({ kind: 'network', code });

describe('shouldRetry (every answer final: ky never decides, nor reads a wait)', () => {
  it('retries statuses, timeouts and an allowed Retry-After of an idempotent call', () => {
    expect(shouldRetry(status(503), true)).toBe(true);
    expect(shouldRetry(status(429, { 'retry-after': '60' }), true)).toBe(true);
    expect(shouldRetry({ kind: 'timeout' }, true)).toBe(true);
  });

  it('refuses what must not be retried, and retries any 5xx', () => {
    expect(shouldRetry(status(404), true)).toBe(false);
    expect(shouldRetry(status(413, { 'retry-after': '1' }), true)).toBe(false);
    expect(shouldRetry(status(501), true)).toBe(true);
    expect(shouldRetry(status(599), true)).toBe(true);
  });

  it('retries any network failure of an idempotent call, with backoff', () => {
    expect(shouldRetry(network('ECONNRESET'), true)).toBe(true);
    expect(shouldRetry(network(), true)).toBe(true);
  });

  it('refuses a 429 or 503 that asks for more than 60 s (Retry-After, a date, or X-RateLimit-Reset)', () => {
    expect(shouldRetry(status(429, { 'retry-after': '61' }), true)).toBe(false);
    expect(shouldRetry(status(503, { 'retry-after': '3600' }), true)).toBe(false);
    const later = new Date(Date.now() + 120_000).toUTCString();
    expect(shouldRetry(status(429, { 'retry-after': later }), true)).toBe(false);
    const reset = String(Math.floor(Date.now() / 1000) + 120);
    expect(shouldRetry(status(429, { 'x-ratelimit-reset': reset }), true)).toBe(false);
    // A 500 asks for no wait (only a 429 or 503 does): it backs off.
    expect(shouldRetry(status(500, { 'retry-after': '3600' }), true)).toBe(true);
  });

  it('refuses a wait over 60 s in any header ky waits on, and lets a reset long past through at once', () => {
    expect(shouldRetry(status(429, { 'ratelimit-reset': '3600' }), true)).toBe(false);
    expect(shouldRetry(status(503, { 'x-ratelimit-retry-after': '120' }), true)).toBe(false);
    expect(shouldRetry(status(429, { 'x-ratelimit-reset': '1000000000' }), true)).toBe(true);
    expect(serverWaitMs(status(429, { 'x-ratelimit-reset': '1000000000' }))).toBe(0);
    expect(serverWaitMs(status(429, { 'x-ratelimit-reset': '999999999' }))).toBe(999_999_999_000);
  });

  it('never retries a fault that is not a network error', () => {
    expect(shouldRetry({ kind: 'other', name: 'RangeError' }, true)).toBe(false);
  });

  it.each([
    'ECONNREFUSED',
    'ENOTFOUND',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'UND_ERR_CONNECT_TIMEOUT',
  ])('retries a create when %s proves nothing was sent', (code) => {
    expect(shouldRetry(network(code), false)).toBe(true);
  });

  it('retries a create after a 429 within the cap, and refuses one beyond it', () => {
    expect(shouldRetry(status(429, { 'retry-after': '1' }), false)).toBe(true);
    expect(shouldRetry(status(429), false)).toBe(true);
    expect(shouldRetry(status(429, { 'retry-after': '61' }), false)).toBe(false);
  });

  it.each<[string, Failure]>([
    ['a reset connection', network('ECONNRESET')],
    ['a closed socket', network('UND_ERR_SOCKET')],
    ['an unknown network failure', network()],
    ['a 503', status(503)],
    ['a 500', status(500)],
    ['a timeout', { kind: 'timeout' }],
    ['any other error', { kind: 'other', name: 'TypeError' }],
  ])('never retries a create after %s', (_label, failure) => {
    expect(shouldRetry(failure, false)).toBe(false);
  });
});

describe('RETRY_STATUSES', () => {
  it('holds 408, 429 and every 5xx, and no other client error', () => {
    expect(RETRY_STATUSES).toEqual(expect.arrayContaining([408, 429, 500, 502, 503, 504, 599]));
    for (const code of [400, 401, 403, 404, 409, 413, 422]) expect(RETRY_STATUSES).not.toContain(code);
  });
});

describe('connectionCode', () => {
  it('finds the code down the cause chain', () => {
    const wrapped = new Error('network', {
      cause: new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }),
    });
    expect(connectionCode(wrapped)).toBe('ECONNREFUSED');
    expect(connectionCode({ code: 'EPIPE' })).toBe('EPIPE');
    expect(connectionCode(new Error('no code'))).toBeUndefined();
    expect(connectionCode(undefined)).toBeUndefined();
  });
});

describe('retryReason', () => {
  it('says what failed, briefly', () => {
    expect(retryReason(status(502))).toBe('HTTP 502');
    expect(retryReason({ kind: 'timeout' })).toBe('a timeout');
    expect(retryReason(network('ECONNRESET'))).toBe('a connection error (ECONNRESET)');
    expect(retryReason(network())).toBe('a connection error (NetworkError)');
    expect(retryReason({ kind: 'other', name: 'TypeError' })).toBe('a connection error (TypeError)');
  });
});
