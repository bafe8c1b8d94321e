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
  limit: number;
  methods: string[];
  retryOnTimeout: boolean;
  jitter: (this: { trace?: Trace }, delay: number) => number;
  shouldRetry: (state: { error: Error; retryCount: number }) => boolean | undefined;
}

/** What a client's retry rules are made of: the same for every call (each call adds its own `limit`). */
export interface RetryRules {
  /** The methods safe to send twice (lower case): a create is retried only when nothing reached the server. */
  idempotent: readonly string[];
  /** Longest server-requested wait to sleep through (`maxRetryAfter`). */
  maxRetryAfter: number;
  /** Reads ky's error into a Failure (the transport's one reader of ky's error classes). */
  classify(error: Error): Failure;
  log: Log;
}

/**
 * A client's retry rules as ky options, built once: ky's own backoff (300 ms, doubling) with full jitter capped at
 * 8 s, ky's statuses and Retry-After / X-RateLimit-Reset reading (429, 503), and `shouldRetry` on top. Every method
 * is in `methods` because ky checks it before `shouldRetry`. Each call hands ky a copy carrying its trace and limit
 * (`replaceOption`, so ky does not merge it): `jitter` reads the trace as `this.trace`, `shouldRetry` finds it from
 * the error (`traceOf`). ky's defaults are left unset on purpose: ky normalises the retry object on every call.
 */
export function retryPolicy(rules: RetryRules): Omit<RetryPolicy, 'limit'> {
  const { idempotent, maxRetryAfter, classify, log } = rules;
  return {
    methods: ['get', 'put', 'patch', 'delete', 'post'],
    retryOnTimeout: true,
    // ky's own `jitter: true` draws below the uncapped step, then caps it (piling waits at 8 s); this draws below
    // the capped step, so waits stay spread up to the cap. Called by ky as a method of the call's retry options.
    jitter(delay) {
      const wait = Math.random() * Math.min(delay, BACKOFF_CAP_MS);
      const trace = this?.trace;
      if (trace?.pending) retried(trace, trace.pending.failure, trace.pending.retry, wait, log);
      if (trace) trace.pending = undefined;
      return wait;
    },
    // ky asks only once the limit and `methods` allow a retry, and every answer here is final (ky's own rules
    // agree with each `undefined`): a retry decided here happens, after the server's wait or a backoff.
    shouldRetry: ({ error, retryCount }) => {
      const trace = traceOf(error);
      const failure = classify(error);
      if (trace && mayHaveActed(failure)) trace.lost = true;
      const method = trace?.method ?? (error as { request?: Request }).request?.method ?? '';
      const verdict = shouldRetry(failure, idempotent.includes(method.toLowerCase()), maxWaitMs(trace));
      if (verdict === false || trace === undefined) return verdict;
      const asked = verdict === undefined ? serverWaitMs(failure) : undefined;
      if (asked === undefined) trace.pending = { failure, retry: retryCount };
      else retried(trace, failure, retryCount, asked, log);
      return verdict;
    },
  };

  // A wait the deadline would cut short fails at once, with the answer's own error (ky would time out).
  function maxWaitMs(trace: Trace | undefined): number {
    const left = trace?.timeLeft();
    return left === undefined ? maxRetryAfter : Math.min(maxRetryAfter, left - 1);
  }

  /** The warn line of a retry, once its wait is known: what failed, which retry, and the wait. */
  function retried(trace: Trace, failure: Failure, retry: number, wait: number, log: Log): void {
    if (!log.enabled('warn')) return;
    const retryInMs = Math.round(wait);
    const fields = trace.fields({
      attempt: retry,
      retryInMs,
      requestId: trace.requestId,
      ...failureFields(failure),
    });
    const line = `${trace.label}: retry ${retry} of ${trace.init.limit} in ${retryInMs} ms after ${retryReason(failure)}`;
    log('warn', line, fields);
  }
}
