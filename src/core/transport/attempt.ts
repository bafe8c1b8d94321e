import type { Log } from './log.js';
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
// A call's body, when it goes to the platform's fetch with each attempt instead of into ky's Request (`carryBody`).
// Kept off the trace, which rides on the options hooks see: the Catalog's body holds the key.
const carried = new WeakMap<Trace, string | URLSearchParams>();
let logging: Promise<typeof import('./logged.js')> | undefined;

/** The code that writes a call's info and debug lines, loaded the first time a client's level has them. */
export function logLines(): Promise<typeof import('./logged.js')> {
  logging ??= import('./logged.js');
  return logging;
}

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
 * Hands the call's body to each attempt's fetch rather than to ky: ky then sends a Request without a body, and its
 * `clone()` before every attempt that may be retried (a tee of the body's stream, twice the cost of building the
 * Request) copies no body. The platform's fetch builds each attempt's Request with the body, as openai-node
 * rebuilds its request per attempt. Only for a client whose ky Request nothing of the user's sees (see
 * `ClientInstance.carries`) and a call without hooks of its own. `body`: JSON text, or a form.
 */
export function carryBody(trace: Trace, body: string | URLSearchParams): void {
  carried.set(trace, body);
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
    // The lines of each attempt are written by code loaded the first time a client's level has them.
    const sends = logs ? (await logLines()).logged(send, trace, log) : send;
    trace.attempts += 1;
    (request as { [SENT_BY]?: Trace })[SENT_BY] = trace;
    const turn = trace.claim();
    const attempt = trace.op?.attempt({ number: trace.attempts, request, url: trace.url });
    const go = () => readAttempt(sends, request, others(init, request, trace), trace, heedsSignal);
    let answer: Response;
    try {
      answer = await (attempt ? attempt.run(go) : go());
    } catch (error) {
      trace.attempted(turn, undefined);
      attempt?.end({ error });
      if (typeof error === 'object' && error !== null) thrownBy.set(error, trace);
      throw error;
    }
    trace.attempted(turn, answer);
    attempt?.end({ response: answer, requestId: trace.requestId });
    return answer;
  };
}

/**
 * ky's fetch options without the trace: what the platform's or the user's fetch is given; with the call's body when
 * it is carried to the fetch (`carryBody`), its Content-Type (the one ky's Request would have had) set on the request
 * first, so a debug line and telemetry see the headers as sent.
 */
function others(init: RequestInit | undefined, request: Request, trace: Trace): RequestInit {
  const rest: Record<string, unknown> = {};
  for (const key in init) if (key !== TRACE) rest[key] = (init as Record<string, unknown>)[key];
  const body = carried.get(trace);
  if (body !== undefined) {
    if (!request.headers.has('content-type'))
      request.headers.set(
        'content-type',
        typeof body === 'string' ? 'application/json' : 'application/x-www-form-urlencoded;charset=UTF-8',
      );
    rest.body = body;
  }
  return rest;
}
