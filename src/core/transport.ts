import { connectionCode, type Failure, retryDelay } from './retry.js';

// setTimeout fires at once for a longer delay; options.ts already refuses such timeouts.
const MAX_TIMER_MS = 2_147_483_647;

/** Sends one attempt: `url` and `init` as for `fetch` (the signal is the attempt's own). */
export type Send = (url: string, init: RequestInit) => Promise<Response>;

/** One call as the transport runs it: a request fixed before the first attempt, re-sent as is by each retry. */
export interface Exchange {
  url: string;
  /** Method, headers, body (a string or URLSearchParams, so it can be sent again), `redirect`. */
  init: RequestInit;
  /** Whether an answer that may have been acted on can be asked for again (see `retryDelay`). */
  idempotent: boolean;
  /** How many retries at most. */
  retries: number;
  /** Milliseconds for each attempt, from sending to the last byte of the body. */
  timeout: number;
  /** Milliseconds for the whole call, waits between attempts included; `undefined`: no overall deadline. */
  totalTimeout: number | undefined;
  /** The caller's signal: aborts the attempt in flight or the wait before the next one. */
  signal: AbortSignal | undefined;
}

/** An answer, of any status, with its body read in full. */
export interface Answered {
  response: Response;
  text: string;
}

/** The call ended without an answer: what the last attempt ran into, and the error behind it. */
export class NoAnswer extends Error {
  readonly failure: Failure;

  constructor(failure: Failure, cause?: unknown) {
    super(failure.kind, { cause });
    this.name = 'NoAnswer';
    this.failure = failure;
  }
}

/** Told before each retry: what failed, and which retry of how many comes next. */
export type OnRetry = (failure: Failure, retry: number, retries: number) => void;

/**
 * Runs one call over `send`: each attempt has its own deadline (headers and body), failures are retried by
 * `retryDelay`'s rules, and the caller's signal stops everything. Resolves to the last answer whatever its
 * status (the caller maps non-2xx ones); rejects with NoAnswer, or with the caller's abort reason.
 */
export async function exchange(x: Exchange, send: Send, onRetry: OnRetry): Promise<Answered> {
  const deadline = x.totalTimeout === undefined ? undefined : performance.now() + x.totalTimeout;
  for (let retry = 0; ; retry += 1) {
    const left = deadline === undefined ? x.timeout : Math.min(x.timeout, deadline - performance.now());
    if (left <= 0) throw new NoAnswer({ kind: 'timeout' });
    const outcome = await attempt(x, send, left);
    const failure =
      'failure' in outcome
        ? outcome.failure
        : outcome.response.ok
          ? undefined
          : statusFailure(outcome.response);
    if (failure === undefined) return outcome as Answered;
    const wait = retry < x.retries ? retryDelay(failure, retry + 1, x.idempotent) : undefined;
    if (wait === undefined) {
      if ('failure' in outcome) throw new NoAnswer(failure, outcome.cause);
      return outcome;
    }
    // No retry is sent that the overall deadline would cut short: the call times out when the wait would.
    if (deadline !== undefined && wait >= deadline - performance.now()) {
      await sleep(Math.max(0, deadline - performance.now()), x.signal);
      throw new NoAnswer({ kind: 'timeout' });
    }
    onRetry(failure, retry + 1, x.retries);
    await sleep(wait, x.signal);
  }
}

type Outcome = Answered | { failure: Failure; cause: unknown };

async function attempt(x: Exchange, send: Send, ms: number): Promise<Outcome> {
  if (x.signal?.aborted) throw x.signal.reason;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
      controller.abort();
    },
    Math.min(ms, MAX_TIMER_MS),
  );
  // AbortSignal.any only when there is a caller's signal: it costs a linked signal per attempt.
  const signal = x.signal ? AbortSignal.any([x.signal, controller.signal]) : controller.signal;
  try {
    const response = await send(x.url, { ...x.init, signal });
    const text = await response.text();
    // A fetch whose body simply ends when aborted (a stream closed, not errored) gave a truncated text.
    if (timedOut) return { failure: { kind: 'timeout' }, cause: undefined };
    return { response, text };
  } catch (error) {
    if (x.signal?.aborted) throw x.signal.reason;
    if (timedOut) return { failure: { kind: 'timeout' }, cause: error };
    // The Fetch standard rejects with a TypeError when there is no answer; anything else is a fault.
    if (error instanceof TypeError)
      return { failure: { kind: 'network', code: connectionCode(error) }, cause: error };
    return { failure: { kind: 'other', name: (error as Error)?.name ?? typeof error }, cause: error };
  } finally {
    clearTimeout(timer);
  }
}

function statusFailure(response: Response): Failure {
  return { kind: 'status', status: response.status, headers: response.headers };
}

/** Waits `ms`; rejects with the caller's abort reason as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener('abort', abort);
      resolve();
    };
    const timer = setTimeout(done, Math.min(ms, MAX_TIMER_MS));
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}
