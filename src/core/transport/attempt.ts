import { bodyText, headerText, type Log } from './log.js';
import { readAttempt, type Send } from './read-fetch.js';
import type { Trace } from './trace.js';

/**
 * The ky option that carries a call's trace to the client's attempt fetch and to its hooks: ky hands options it
 * does not know to `fetch` as its `init`, and keeps them in the `options` its hooks and `HTTPError` see. The trace's
 * fields are the call's counters and lazy labels; nothing on it shows the key.
 */
export const TRACE = 'contentPlatformTrace';

// The Request each attempt sent carries its call under this key (ky's TimeoutError names that Request), and what an
// attempt threw is noted here (a NetworkError names it as its cause).
const SENT_BY: unique symbol = Symbol('content-platform-sdk.trace');
const thrownBy = new WeakMap<object, Trace>();

/**
 * The trace of the call an attempt's error belongs to: an `HTTPError` carries the call's options, ky's own
 * `TimeoutError` the Request the attempt sent, and a `NetworkError` what the attempt threw as its `cause`.
 */
export function traceOf(error: unknown): Trace | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { options, request, cause } = error as { options?: object; request?: unknown; cause?: unknown };
  const carried = (options as Record<string, unknown> | undefined)?.[TRACE];
  if (carried !== undefined) return carried as Trace;
  if (request instanceof Request) {
    const trace = (request as { [SENT_BY]?: Trace })[SENT_BY];
    if (trace) return trace;
  }
  return (
    thrownBy.get(error) ?? (typeof cause === 'object' && cause !== null ? thrownBy.get(cause) : undefined)
  );
}

/**
 * The client's fetch, as ky calls it for every attempt of every call: built once per client, it finds the call in
 * the `init` ky passes on (`TRACE`). Counts the attempt, takes the turn granted for it, reads the body inside the
 * attempt (`readAttempt`), and hands the turn back with what the answer said. Logs a line per attempt only when the
 * client's level has info lines. `heedsSignal`: `send` is the platform's fetch, which ends a request and its body on
 * the attempt's signal itself.
 */
export function attemptFetch(
  send: Send,
  log: Log,
  heedsSignal: boolean,
): (input: Request | URL | string, init?: RequestInit) => Promise<Response> {
  const logs = log.enabled('info');
  return async (input, init) => {
    // ky always passes a Request; anything else is made one, so `send` can rely on it.
    const request = input instanceof Request ? input : new Request(input, init);
    const trace = (init as { [TRACE]?: Trace } | undefined)?.[TRACE];
    if (trace === undefined) return send(request, init);
    trace.attempts += 1;
    (request as { [SENT_BY]?: Trace })[SENT_BY] = trace;
    const turn = trace.claim();
    let answer: Response;
    try {
      answer = await readAttempt(
        logs ? logged(send, trace, log) : send,
        request,
        others(init),
        trace,
        heedsSignal,
      );
    } catch (error) {
      trace.attempted(turn, undefined);
      if (typeof error === 'object' && error !== null) thrownBy.set(error, trace);
      throw error;
    }
    trace.attempted(turn, answer);
    return answer;
  };
}

/** ky's fetch options without the trace: what the platform's or the user's fetch is given. */
function others(init: RequestInit | undefined): RequestInit {
  const rest: Record<string, unknown> = {};
  for (const key in init) if (key !== TRACE) rest[key] = (init as Record<string, unknown>)[key];
  return rest;
}

/** `send` that logs one line per attempt: status or failure, duration, request id (and headers at debug level). */
function logged(send: Send, trace: Trace, log: Log): Send {
  return async (input, init) => {
    const started = performance.now();
    const line = `${trace.label} (attempt ${trace.attempts})`;
    // Reading a clone of the body costs a copy: only at debug level.
    if (log.verbose)
      log(
        'debug',
        `${line} request ${headerText(input.headers)}${await bodyText(input)}`,
        trace.fields(),
        trace.scrub,
      );
    try {
      const response = await send(input, init);
      const durationMs = Math.round(performance.now() - started);
      const requestId = response.headers.get('x-request-id') ?? undefined;
      const fields = trace.fields({ status: response.status, durationMs, requestId });
      log('info', `${line} → ${response.status} in ${durationMs} ms`, fields, trace.scrub);
      if (log.verbose) log('debug', `${line} response ${headerText(response.headers)}`, fields, trace.scrub);
      return response;
    } catch (error) {
      const durationMs = Math.round(performance.now() - started);
      const errorName = (error as Error)?.name;
      log(
        'info',
        `${line} → no answer after ${durationMs} ms: ${(error as Error)?.message}`,
        trace.fields({ durationMs, errorName }),
        trace.scrub,
      );
      throw error;
    }
  };
}
