import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Failure } from '../../src/core/retry.js';
import { type Exchange, exchange, NoAnswer, type Send } from '../../src/core/transport.js';

const URL_ = 'https://links.example.com/api/v1/pixels/1';

function plan(overrides: Partial<Exchange> = {}): Exchange {
  return {
    url: URL_,
    init: { method: 'GET', headers: { accept: 'application/json' }, body: null, redirect: 'manual' },
    idempotent: true,
    retries: 2,
    timeout: 5_000,
    totalTimeout: undefined,
    signal: undefined,
    ...overrides,
  };
}

/** A send that plays `steps` in order (the last one repeats) and records every attempt. */
function script(...steps: ((init: RequestInit) => Promise<Response>)[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const send: Send = (url, init) => {
    calls.push({ url, init });
    const step = steps[Math.min(calls.length - 1, steps.length - 1)] as (typeof steps)[0];
    return step(init);
  };
  return { send, calls };
}

const answer =
  (status: number, body = '{}', headers: Record<string, string> = {}) =>
  async () =>
    new Response(status === 204 ? null : body, { status, headers });
const refuse = (code: string) => async () => {
  throw new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code}`), { code }) });
};
/** Never answers; rejects with the signal's reason once the attempt is aborted, as fetch does. */
const hang = (init: RequestInit) =>
  new Promise<Response>((_, reject) => {
    init.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true });
  });

const noRetries = () => vi.fn<(failure: Failure, retry: number, retries: number) => void>();
const failureOf = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 'resolved',
    (e) => e,
  );

beforeEach(() => {
  // Backoff waits are drawn at random below the backoff step: pinned to 0 so retries are immediate.
  vi.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => vi.restoreAllMocks());

describe('exchange', () => {
  it('sends the request once, as planned, with an attempt signal, and resolves to the answer and its text', async () => {
    const { send, calls } = script(answer(200, '{"id":1}'));
    const onRetry = noRetries();
    const { response, text } = await exchange(plan(), send, onRetry);
    expect(response.status).toBe(200);
    expect(text).toBe('{"id":1}');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe(URL_);
    expect(calls[0]?.init).toMatchObject({ method: 'GET', redirect: 'manual', body: null });
    expect(calls[0]?.init.signal).toBeInstanceOf(AbortSignal);
    expect(onRetry).not.toHaveBeenCalled();
  });

  it('resolves to a non-retryable status at once: the caller maps it', async () => {
    const { send, calls } = script(answer(404, '{"message":"nope"}'));
    const { response, text } = await exchange(plan(), send, noRetries());
    expect([response.status, text, calls.length]).toEqual([404, '{"message":"nope"}', 1]);
  });

  it('retries a 503 and tells onRetry which retry of how many comes next', async () => {
    const { send, calls } = script(answer(503), answer(200, '{"ok":true}'));
    const onRetry = noRetries();
    const { text } = await exchange(plan(), send, onRetry);
    expect(text).toBe('{"ok":true}');
    expect(calls).toHaveLength(2);
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect(onRetry.mock.calls[0]?.[0]).toMatchObject({ kind: 'status', status: 503 });
    expect(onRetry.mock.calls[0]?.slice(1)).toEqual([1, 2]);
  });

  it('re-sends the same body on each retry', async () => {
    const { send, calls } = script(answer(502), answer(200));
    const body = new URLSearchParams({ name: 'x' });
    await exchange(plan({ init: { method: 'PUT', body, redirect: 'manual' } }), send, noRetries());
    expect(calls.map((c) => c.init.body)).toEqual([body, body]);
  });

  it('resolves to the last answer once the retries are spent: retries + 1 attempts', async () => {
    const { send, calls } = script(answer(500, 'down'));
    const onRetry = noRetries();
    const { response, text } = await exchange(plan({ retries: 3 }), send, onRetry);
    expect([response.status, text, calls.length]).toEqual([500, 'down', 4]);
    expect(onRetry.mock.calls.map((c) => c[1])).toEqual([1, 2, 3]);
  });

  it('waits what a 429 asks for before the retry', async () => {
    const { send, calls } = script(answer(429, '{}', { 'retry-after': '0.2' }), answer(200));
    const started = performance.now();
    await exchange(plan(), send, noRetries());
    expect(calls).toHaveLength(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('rejects with NoAnswer (network, the code, the cause) after retries + 1 refused connections', async () => {
    const { send, calls } = script(refuse('ECONNRESET'));
    const error = await failureOf(exchange(plan(), send, noRetries()));
    expect(error).toBeInstanceOf(NoAnswer);
    expect((error as NoAnswer).failure).toEqual({ kind: 'network', code: 'ECONNRESET' });
    expect((error as NoAnswer).cause).toBeInstanceOf(TypeError);
    expect(calls).toHaveLength(3);
  });

  it('does not retry a fault that is not a TypeError (a bug in a custom fetch, say)', async () => {
    const bug = new RangeError('boom');
    const { send, calls } = script(async () => {
      throw bug;
    });
    const error = (await failureOf(exchange(plan(), send, noRetries()))) as NoAnswer;
    expect(error.failure).toEqual({ kind: 'other', name: 'RangeError' });
    expect(error.cause).toBe(bug);
    expect(calls).toHaveLength(1);
  });

  it('times an attempt out: aborts it, retries an idempotent call, then rejects with a timeout', async () => {
    const { send, calls } = script(hang);
    const started = performance.now();
    const error = (await failureOf(
      exchange(plan({ timeout: 50, retries: 1 }), send, noRetries()),
    )) as NoAnswer;
    expect(error.failure).toEqual({ kind: 'timeout' });
    expect(calls).toHaveLength(2);
    expect(calls.every((c) => c.init.signal?.aborted)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('counts the body read in the attempt: a body that stalls times out', async () => {
    const stalled = async (init: RequestInit) =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"da'));
            init.signal?.addEventListener('abort', () => controller.error(init.signal?.reason));
          },
        }),
      );
    const { send, calls } = script(stalled);
    const error = (await failureOf(
      exchange(plan({ timeout: 50, retries: 0 }), send, noRetries()),
    )) as NoAnswer;
    expect(error.failure).toEqual({ kind: 'timeout' });
    expect(calls).toHaveLength(1);
  });

  it('retries an idempotent call whose body stalled, like any other timeout', async () => {
    const stalled = async (init: RequestInit) =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"da'));
            init.signal?.addEventListener('abort', () => controller.error(init.signal?.reason));
          },
        }),
      );
    const { send, calls } = script(stalled, answer(200, '{"data":1}'));
    const onRetry = noRetries();
    const { text } = await exchange(plan({ timeout: 50, retries: 1 }), send, onRetry);
    expect(text).toBe('{"data":1}');
    expect(calls).toHaveLength(2);
    expect(onRetry.mock.calls[0]?.[0]).toEqual({ kind: 'timeout' });
  });

  it('never passes off a body cut short by the timeout as the answer', async () => {
    // Some fetches (an in-process handler) end the stream when aborted instead of failing it.
    const truncated = async (init: RequestInit) =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"data":[1,2'));
            init.signal?.addEventListener('abort', () => controller.close());
          },
        }),
      );
    const { send } = script(truncated);
    const error = (await failureOf(
      exchange(plan({ timeout: 50, retries: 0 }), send, noRetries()),
    )) as NoAnswer;
    expect(error).toBeInstanceOf(NoAnswer);
    expect(error.failure).toEqual({ kind: 'timeout' });
  });

  it("rejects with the caller's reason when the caller aborts an attempt, and does not retry", async () => {
    const controller = new AbortController();
    const { send, calls } = script(hang);
    setTimeout(() => controller.abort(new Error('stop')), 20);
    const error = await failureOf(exchange(plan({ signal: controller.signal }), send, noRetries()));
    expect(error).toEqual(new Error('stop'));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.init.signal?.aborted).toBe(true);
  });

  it('stops a wait between attempts as soon as the caller aborts', async () => {
    const controller = new AbortController();
    const { send, calls } = script(answer(503, '{}', { 'retry-after': '30' }));
    setTimeout(() => controller.abort(new Error('stop')), 30);
    const started = performance.now();
    const error = await failureOf(exchange(plan({ signal: controller.signal }), send, noRetries()));
    expect(error).toEqual(new Error('stop'));
    expect(calls).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('sends nothing when the caller has already aborted', async () => {
    const { send, calls } = script(answer(200));
    const error = await failureOf(
      exchange(plan({ signal: AbortSignal.abort(new Error('early')) }), send, noRetries()),
    );
    expect(error).toEqual(new Error('early'));
    expect(calls).toHaveLength(0);
  });

  it('gives up when the overall deadline would end during the wait, without another attempt', async () => {
    const { send, calls } = script(answer(503, '{}', { 'retry-after': '30' }));
    const onRetry = noRetries();
    const started = performance.now();
    const error = (await failureOf(exchange(plan({ totalTimeout: 100 }), send, onRetry))) as NoAnswer;
    expect(error.failure).toEqual({ kind: 'timeout' });
    expect(calls).toHaveLength(1);
    expect(onRetry).not.toHaveBeenCalled();
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(90);
    expect(elapsed).toBeLessThan(1_000);
  });

  it('shortens an attempt to what is left of the overall deadline', async () => {
    const { send, calls } = script(hang);
    const started = performance.now();
    const error = (await failureOf(
      exchange(plan({ timeout: 10_000, totalTimeout: 80 }), send, noRetries()),
    )) as NoAnswer;
    expect(error.failure).toEqual({ kind: 'timeout' });
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('retries a create only when the connection was refused before anything was sent', async () => {
    const refused = script(refuse('ECONNREFUSED'), answer(201, '{"id":9}'));
    const created = await exchange(plan({ idempotent: false }), refused.send, noRetries());
    expect([created.response.status, refused.calls.length]).toEqual([201, 2]);

    const failing = script(answer(503));
    const { response } = await exchange(plan({ idempotent: false }), failing.send, noRetries());
    expect([response.status, failing.calls.length]).toEqual([503, 1]);

    const reset = script(refuse('ECONNRESET'));
    const error = (await failureOf(
      exchange(plan({ idempotent: false }), reset.send, noRetries()),
    )) as NoAnswer;
    expect([error.failure.kind, reset.calls.length]).toEqual(['network', 1]);
  });
});
