import { retryAfterSeconds } from '../errors/index.js';

/** HTTP methods the APIs use. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What went wrong with one attempt, in the terms the retry rules need (no transport types). */
export type Failure =
  | { kind: 'status'; status: number; headers: Headers }
  | { kind: 'network'; code: string | undefined }
  | { kind: 'timeout' }
  | { kind: 'other'; name: string };

/** Default `maxRetryAfter`: the longest server-requested wait slept through; a longer one fails at once. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Statuses worth another attempt: a timeout, a rate limit, any server error (5xx outside ky's list too). */
export const RETRY_STATUSES: readonly number[] = [
  408,
  429,
  ...Array.from({ length: 100 }, (_, i) => 500 + i),
];

/** Longest backoff between two attempts (ky's own steps: 300 ms, doubling), before jitter. */
export const BACKOFF_CAP_MS = 8_000;

// Codes that prove the request never left this machine: retrying cannot duplicate anything.
const NOTHING_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Whether the server may have acted on the attempt that failed this way: a request left and no answer came
 * (a timeout, a reset). A refused connection or a DNS failure proves nothing was sent.
 */
export function mayHaveActed(failure: Failure): boolean {
  if (failure.kind === 'timeout') return true;
  return failure.kind === 'network' && !NOTHING_SENT.has(failure.code ?? '');
}

/**
 * Whether to try again. An idempotent call retries a timeout, a connection error, a 408, a 429 and any 5xx, except
 * when the server asks for a wait beyond `maxWaitMs` (the `maxRetryAfter` option, or less when the call's deadline
 * is nearer). A create (not idempotent) is retried only when nothing reached the server: the connection was
 * refused, or a 429 came back from the throttle, which answers before doing anything.
 */
export function shouldRetry(failure: Failure, idempotent: boolean, maxWaitMs = MAX_RETRY_AFTER_MS): boolean {
  if (failure.kind === 'other') return false;
  if (!idempotent) {
    if (failure.kind === 'network') return NOTHING_SENT.has(failure.code ?? '');
    return failure.kind === 'status' && failure.status === 429 && waitAllowed(failure, maxWaitMs);
  }
  if (failure.kind !== 'status') return true;
  return RETRY_STATUSES.includes(failure.status) && waitAllowed(failure, maxWaitMs);
}

/** A 429 or 503 may ask for a wait; one beyond `maxWaitMs` is not slept through. */
function waitAllowed(failure: Extract<Failure, { kind: 'status' }>, maxWaitMs: number): boolean {
  const wait = serverWaitMs(failure);
  return wait === undefined || wait <= maxWaitMs;
}

/** The wait a 429 or 503 asked for, in ms, which ky is told to sleep; `undefined` when it did not say (a backoff). */
export function serverWaitMs(failure: Failure): number | undefined {
  if (failure.kind !== 'status' || (failure.status !== 429 && failure.status !== 503)) return undefined;
  const seconds = retryAfterSeconds(failure.headers);
  return seconds === undefined ? undefined : seconds * 1000;
}

/** A short reason for a retry log line: the status, the connection code, or "a timeout". */
export function retryReason(failure: Failure): string {
  if (failure.kind === 'status') return `HTTP ${failure.status}`;
  if (failure.kind === 'timeout') return 'a timeout';
  return `a connection error (${failure.kind === 'network' ? (failure.code ?? 'NetworkError') : failure.name})`;
}

/** A failure as log fields: the status of an answer, else the SDK error class it would end as. */
export function failureFields(failure: Failure): { status?: number; errorName?: string } {
  if (failure.kind === 'status') return { status: failure.status };
  if (failure.kind === 'timeout') return { errorName: 'APIConnectionTimeoutError' };
  return { errorName: failure.kind === 'network' ? 'APIConnectionError' : failure.name };
}
