import { retryAfterSeconds } from './error-map.js';

/** HTTP methods the APIs use. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What went wrong with one attempt, in the terms the retry rules need (no transport types). */
export type Failure =
  | { kind: 'status'; status: number; headers: Headers }
  | { kind: 'network'; code: string | undefined }
  | { kind: 'timeout' }
  | { kind: 'other'; name: string };

/** Longest server-requested wait we sleep through; a longer one is thrown as RateLimitError instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Statuses worth another attempt: a timeout, a rate limit, any server error. */
export const RETRY_STATUSES: readonly number[] = [
  408,
  429,
  ...Array.from({ length: 100 }, (_, i) => 500 + i),
];

// Codes that prove the request never left this machine: retrying cannot duplicate anything.
const NOTHING_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The system error code behind a failed fetch (`ECONNREFUSED`, `ECONNRESET`…), if there is one. */
export function connectionCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** First backoff step; each retry doubles it, up to BACKOFF_CAP_MS. */
export const BACKOFF_BASE_MS = 300;
/** Longest backoff between two attempts, before jitter. */
export const BACKOFF_CAP_MS = 8_000;

/**
 * How long to wait before retry number `retry` (1 for the first), or `undefined` not to retry.
 *
 * An idempotent call is retried after a connection error, a timeout or a status in RETRY_STATUSES. A 429 or
 * 503 that says how long to wait (Retry-After, X-RateLimit-Reset) is retried after exactly that wait, unless
 * it is beyond MAX_RETRY_AFTER_MS; otherwise the wait is exponential backoff with full jitter. Any other call
 * (a create) is retried only when the connection was refused before anything was sent. `random` is
 * `Math.random` unless a test pins it.
 */
export function retryDelay(
  failure: Failure,
  retry: number,
  idempotent: boolean,
  random: () => number = Math.random,
): number | undefined {
  const backoff = random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (retry - 1));
  if (!idempotent)
    return failure.kind === 'network' && NOTHING_SENT.has(failure.code ?? '') ? backoff : undefined;
  if (failure.kind === 'other') return undefined;
  if (failure.kind !== 'status') return backoff;
  if (!RETRY_STATUSES.includes(failure.status)) return undefined;
  const wait =
    failure.status === 429 || failure.status === 503 ? retryAfterSeconds(failure.headers) : undefined;
  if (wait === undefined) return backoff;
  return wait * 1000 > MAX_RETRY_AFTER_MS ? undefined : wait * 1000;
}

/** A short reason for a retry log line: the status, the connection code, or "a timeout". */
export function retryReason(failure: Failure): string {
  if (failure.kind === 'status') return `HTTP ${failure.status}`;
  if (failure.kind === 'timeout') return 'a timeout';
  return `a connection error (${failure.kind === 'network' ? (failure.code ?? 'NetworkError') : failure.name})`;
}
