// The telemetry contract: what a client tells a `telemetry` option about its calls. Types only, so the main entry
// pays for the few calls that emit these and for nothing else; `content-platform-sdk/otel` is one implementation.

import type { Method } from './retry.js';

/** Which API a client talks to. */
export type ApiName = 'management' | 'catalog';

/**
 * What a client reports about its calls, given as the `telemetry` client option (derived clients keep it).
 * `openTelemetry()` from `content-platform-sdk/otel` is one implementation; any object with `operation` is another
 * (a metrics system, an APM agent, a test recorder). No value handed to it holds the API key or a whole purchase
 * code: URLs and request ids are redacted, errors are the SDK's scrubbed ones.
 *
 * Every method is called synchronously on the call's path, so it should be quick. It cannot fail a call: what it throws
 * (or an operation without its four methods) is told once as a `warn` line of the client's log, and the call goes on
 * without it.
 *
 * @example
 * const telemetry: Telemetry = {
 *   operation: (start) => {
 *     const t0 = performance.now();
 *     return {
 *       run: (fn) => fn(),
 *       attempt: () => undefined,
 *       event: (event) => console.log(start.name, event.type),
 *       end: (end) => console.log(start.name, end.error ? 'failed' : 'ok', performance.now() - t0),
 *     };
 *   },
 * };
 */
export interface Telemetry {
  /**
   * An operation begins: one SDK method call (`pixels.get`, `purchases.validate`, …); each page of a list walk
   * is an operation of its own. Return what follows it, or `undefined` to leave it unobserved.
   */
  operation(start: OperationStart): OperationTelemetry | undefined;
  /**
   * The fleet store (`rateLimit.store`) of a client became unreachable (`'fallback'`: the process throttles alone)
   * or answers again (`'shared'`).
   */
  storeState?(state: 'shared' | 'fallback', api: ApiName): void;
}

/** The start of an operation. */
export interface OperationStart {
  /** The operation: the resource and method, as called (`pixels.list`, `account.details`). */
  name: string;
  /** The API the client talks to. */
  api: ApiName;
  /** The HTTP method it sends. */
  method: Method;
  /** The full URL it sends to, with the key and any purchase code masked (`api_key=***`, `…AB12`). */
  url: string;
  /** For a page after the first of a list walk: the first page's operation (to link to). */
  first?: OperationTelemetry | undefined;
}

/** What follows one operation. */
export interface OperationTelemetry {
  /**
   * Runs `fn` with the operation as the current context, and returns what it returns: the SDK sends the call inside
   * it, so the user's ky hooks (and any instrumentation of `fetch`) see the operation as their parent.
   */
  run<T>(fn: () => T): T;
  /**
   * An HTTP attempt is about to be sent (its headers may still be set: `traceparent`). Return what follows it,
   * or `undefined`.
   */
  attempt(start: AttemptStart): AttemptTelemetry | undefined;
  /** Something happened in the operation: a retry planned, a wait for a turn under the throttle. */
  event(event: OperationEvent): void;
  /** The operation is over: with its answer, or with its error. Called once (an attempt cut off by an abort may end after it). */
  end(end: OperationEnd): void;
}

/** One HTTP attempt of an operation, about to be sent. */
export interface AttemptStart {
  /** The attempt's number in its operation, from 1 (a retry is 2 or more). */
  number: number;
  /**
   * The request to be sent: set headers on it here (its URL holds the Catalog key: read `url`). Its body may be
   * absent: where no hook or `fetch` of the user's sees the request, the platform's fetch is handed the body itself.
   */
  request: Request;
  /** The request's URL with the key and any purchase code masked. */
  url: string;
}

/** What follows one attempt. */
export interface AttemptTelemetry {
  /** Runs the sending of the attempt (its fetch) with the attempt as the current context; returns what `fn` returns. */
  run<T>(fn: () => T): T;
  /** The attempt ended: with an answer of any status, or with what was thrown instead (no answer came). */
  end(end: AttemptEnd): void;
}

/** How an attempt ended. */
export interface AttemptEnd {
  /** The answer (any status; its body already read by the SDK). */
  response?: Response | undefined;
  /** What the fetch threw when no answer came: read its `name` and `cause.code` only, never its message. */
  error?: unknown;
  /**
   * When no answer came, the SDK error it stands for, as the retry event and the log lines name it:
   * `APIConnectionError`, `APIConnectionTimeoutError` or `APIUserAbortError` (not the fetch's own `TypeError`).
   */
  errorName?: string | undefined;
  /** The answer's `X-Request-Id`, masked like every value the SDK shows. */
  requestId?: string | undefined;
}

/** Something that happened in an operation. */
export type OperationEvent =
  | {
      /** A retry will be sent after `waitMs`. */
      type: 'retry';
      /** Which retry (from 1). */
      retry: number;
      /** Why: the status of the answer that failed, … */
      status?: number | undefined;
      /** … or, when none came, the SDK error the call would end with (`APIConnectionError`, `APIConnectionTimeoutError`). */
      errorName?: string | undefined;
      /** The wait before it: the server's, or a backoff. */
      waitMs: number;
    }
  | {
      /** The operation waited `waitMs` for a turn under the client's throttle (`retry`: before a retry). */
      type: 'throttle.wait';
      waitMs: number;
      retry: boolean;
    };

/** How an operation ended. */
export interface OperationEnd {
  /** The SDK's error, when it failed (already scrubbed; `mayHaveSucceeded` on a create that got no answer). */
  error?: unknown;
  /** The final answer (for a cache hit or stale answer, the cache's stand-in 200). */
  response?: Response | undefined;
  /** The last answer's `X-Request-Id`, masked. */
  requestId?: string | undefined;
  /** A cached validation: where the answer came from. */
  cache?: 'hit' | 'miss' | 'stale' | undefined;
  /** With a fleet store: whether the client was on the fleet's shared budget or throttling alone. */
  store?: 'shared' | 'fallback' | undefined;
}
