import type { Log } from './log.js';
import { byteCount } from './options.js';
import { type Reading, readingFetch, type Send } from './read-fetch.js';
import {
  type Failure,
  failureFields,
  mayHaveActed,
  type RetryPolicy,
  retryPolicy,
  retryReason,
} from './retry.js';
import { type Trace, tracingFetch } from './trace.js';
import type { CallTurns } from './turns.js';

/** What one call's retry rules depend on, beyond its trace. */
export interface CallLimits {
  /** Retries allowed. */
  limit: number;
  /** Whether the method may run twice. */
  idempotent: boolean;
  /** The call's overall deadline in ms (`totalTimeout`), if any. */
  total: number | undefined;
  /** Longest server-requested wait to sleep through (`maxRetryAfter`). */
  maxRetryAfter: number;
}

/**
 * One call's retry rules: its limit, its method's safety, its deadline, and a warn line per retry that says how
 * long it waits. `classify` reads the transport's error; what it says about a lost attempt goes on the trace.
 */
export function callRetry(
  trace: Trace,
  limits: CallLimits,
  classify: (error: Error) => Failure,
  log: Log,
): RetryPolicy {
  const { limit, total, maxRetryAfter } = limits;
  return retryPolicy({
    limit,
    idempotent: limits.idempotent,
    // A wait the deadline would cut short fails at once, with the answer's own error (ky would time out).
    maxWaitMs: () =>
      total === undefined ? maxRetryAfter : Math.min(maxRetryAfter, total - trace.elapsed() - 1),
    classify: (error) => {
      const failure = classify(error);
      if (mayHaveActed(failure)) trace.lost = true;
      return failure;
    },
    onRetry: (failure, retry, wait) => {
      const retryInMs = Math.round(wait);
      const fields = trace.fields({
        attempt: retry,
        retryInMs,
        requestId: trace.requestId,
        ...failureFields(failure),
      });
      const line = `${trace.method} ${trace.url}: retry ${retry} of ${limit} in ${retryInMs} ms after ${retryReason(failure)}`;
      log('warn', line, fields);
    },
  });
}

/**
 * One call's fetch, as ky calls it per attempt: counts the attempt (and logs it when info lines are on), reads
 * the body inside the attempt (see `readingFetch`), keeps the answer on the trace, and hands the attempt's turn
 * back to the throttle with what the answer said.
 */
export function callFetch(
  send: Send,
  trace: Trace,
  log: Log,
  reading: Omit<Reading, 'label'>,
  turns: CallTurns,
): (input: Request | URL | string, init?: RequestInit) => Promise<Response> {
  const traced = tracingFetch(send, trace, log.enabled('info') ? log : undefined);
  // A bad per-call maxResponseBytes throws here, as the call's options are set up: before anything is sent.
  const maxBytes = byteCount(reading.maxBytes, 'maxResponseBytes');
  const read = readingFetch(traced, { ...reading, maxBytes, label: `${trace.method} ${trace.url}` });
  return async (request, init) => {
    const turn = turns.claim();
    let answer: Response;
    try {
      answer = await read(request, init);
    } catch (error) {
      turns.attempted(turn, undefined);
      throw error;
    }
    turns.attempted(turn, answer);
    trace.answer = answer;
    trace.answers += 1;
    return answer;
  };
}
