import { redactUrl, type Scrub } from '../errors/index.js';
import { traceOf } from './attempt.js';
import type { Log } from './log.js';
import {
  BACKOFF_CAP_MS,
  type Failure,
  failureFields,
  mayHaveActed,
  retryReason,
  serverWaitMs,
  shouldRetry,
} from './retry.js';
import type { Trace } from './trace.js';

/** The SDK's retry rules in ky's `retry` shape (structurally typed, as ky's own type is not exported). */
export interface RetryPolicy {
  /** Set only where it differs from ky's default (`KY_RETRY_LIMIT`): ky copies the object's keys twice a call. */
  limit?: number;
  /** Set only for a method outside ky's default list (POST, PATCH): ky asks `shouldRetry` only for those listed. */
  methods?: string[];
  jitter: (delay: number) => number;
  shouldRetry: (state: { error: Error; retryCount: number }) => boolean | undefined;
}

/** ky's `retry.limit` when none is given: a call whose `maxRetries` is this leaves `limit` out. */
export const KY_RETRY_LIMIT = 2;

/** A client's retry rules, the same for every call: each call's `jitter` is `wait` with its trace. */
export interface ClientRetry {
  /** The wait before the retry `shouldRetry` allowed the call: the server's, or a backoff below `delay`. */
  wait(trace: Trace, delay: number): number;
  /** Whether ky may retry after `error`; finds the call's trace from the error itself (`traceOf`). */
  shouldRetry: RetryPolicy['shouldRetry'];
}

/** Every method the SDK sends, for ky's `methods` on a call whose method ky's default list lacks (POST, PATCH). */
export const RETRY_METHODS: readonly string[] = ['get', 'put', 'patch', 'delete', 'post'];

/** What a client's retry rules are made of: the same for every call (each call adds its own `limit`). */
export interface RetryRules {
  /** The methods safe to send twice (lower case): a create is retried only when nothing reached the server. */
  idempotent: readonly string[];
  /** Longest server-requested wait to sleep through (`maxRetryAfter`). */
  maxRetryAfter: number;
  /** Reads ky's error into a Failure (the transport's one reader of ky's error classes). */
  classify(error: Error): Failure;
  log: Log;
  /** The client's scrub (the key), for an error no call's trace is found for. */
  scrub: Scrub;
}

/**
 * A client's retry rules as ky options, built once: ky's own backoff (300 ms, doubling) with full jitter capped at
 * 8 s, and `shouldRetry` deciding every retry (it answers every error, timeouts included, so ky's
 * `retryOnTimeout` is never read). ky checks `methods` before `shouldRetry`: a call whose method is not in ky's
 * default list (GET, PUT, DELETE are) adds `RETRY_METHODS`. The SDK reads a server's wait (Retry-After, the reset
 * headers) itself and states it to ky as the retry's delay (`jitter` returns it): `shouldRetry` answers only `true`
 * or `false`, so ky never reads those headers and never sleeps a wait other than the one `maxRetryAfter` was checked
 * against. Each call hands ky its own object (`RetryPolicy`): a `jitter` that calls `wait` with the call's trace,
 * `shouldRetry`, and a `limit` only where the call's differs from ky's; `shouldRetry` finds the trace from the error
 * (`traceOf`). ky's defaults are left unset on purpose: ky copies the retry object's keys twice a call.
 */
export function retryPolicy(rules: RetryRules): ClientRetry {
  const { idempotent, maxRetryAfter, classify, log, scrub } = rules;
  return {
    // The wait before the retry `shouldRetry` allowed: the server's, or a backoff. ky's own `jitter: true` draws
    // below the uncapped step, then caps it (piling waits at 8 s); this draws below the capped step, so waits stay
    // spread up to the cap. Called by the call's `jitter`, which ky calls with its own backoff step.
    wait(trace, delay) {
      const pending = trace.pending;
      const wait = pending?.wait ?? Math.random() * Math.min(delay, BACKOFF_CAP_MS);
      if (pending) {
        trace.pending = undefined;
        const { failure, retry } = pending;
        trace.op?.event({ type: 'retry', retry, waitMs: wait, ...failureFields(failure) });
        retried(trace, failure, retry, wait, log);
      }
      return wait;
    },
    // ky asks only once the limit and `methods` allow a retry; a retry allowed here happens, after `jitter`'s wait.
    shouldRetry: ({ error, retryCount }) => {
      const trace = traceOf(error);
      // The beforeRetry hooks see this error next, and tracers export what they see.
      redactError(error, trace?.scrub ?? scrub);
      const failure = classify(error);
      if (trace) {
        trace.lastError = error;
        if (mayHaveActed(failure)) trace.lost = true;
      }
      const method = trace?.method ?? (error as { request?: Request }).request?.method ?? '';
      const verdict = shouldRetry(failure, idempotent.includes(method.toLowerCase()), maxWaitMs(trace));
      if (verdict && trace) {
        trace.pending = { failure, retry: retryCount, wait: serverWaitMs(failure) };
        trace.rest();
      }
      return verdict;
    },
  };

  // A wait the deadline would cut short fails at once, with the answer's own error (ky would time out).
  function maxWaitMs(trace: Trace | undefined): number {
    const left = trace?.timeLeft();
    const cap = trace?.init.maxPauseMs ?? maxRetryAfter;
    return left === undefined ? cap : Math.min(cap, left - 1);
  }

  /**
   * The line of a retry, once its wait is known: what failed, which retry, and the wait. At `info`, as openai-node
   * does: a retry is the SDK doing its job, and the call's error (if it still fails) says what happened.
   */
  function retried(trace: Trace, failure: Failure, retry: number, wait: number, log: Log): void {
    if (!log.enabled('info')) return;
    const retryInMs = Math.round(wait);
    const fields = trace.fields({
      attempt: retry,
      retryInMs,
      requestId: trace.requestId,
      ...failureFields(failure),
    });
    const line = `${trace.label}: retry ${retry} of ${trace.init.limit} in ${retryInMs} ms after ${retryReason(failure)}`;
    log('info', line, fields, trace.scrub);
  }
}

/**
 * ky's own error, its message and stack scrubbed in place before a user's hook sees it: ky writes the request's URL
 * into both, and a Catalog GET's URL carries `api_key` (an OpenTelemetry `span.recordException(error)` in a hook
 * would export it). The `request` it carries keeps its URL, as sent.
 */
export function redactError(error: unknown, scrub: Scrub): void {
  if (!(error instanceof Error)) return;
  error.message = scrub(redactUrl(error.message));
  if (typeof error.stack === 'string') error.stack = scrub(redactUrl(error.stack));
}
