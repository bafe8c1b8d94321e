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

/**
 * Whether to try again. An idempotent call follows the transport's rules (connection errors, timeouts and
 * RETRY_STATUSES, honouring Retry-After: `undefined`) except for a wait beyond the cap. Any other call (a
 * create) is retried only when the connection was refused before anything was sent.
 */
export function shouldRetry(failure: Failure, idempotent: boolean): boolean | undefined {
  if (!idempotent) return failure.kind === 'network' && NOTHING_SENT.has(failure.code ?? '');
  if (failure.kind !== 'status') return undefined;
  const wait = retryAfterSeconds(failure.headers);
  return wait !== undefined && wait * 1000 > MAX_RETRY_AFTER_MS ? false : undefined;
}

/** A short reason for a retry log line: the status, the connection code, or "a timeout". */
export function retryReason(failure: Failure): string {
  if (failure.kind === 'status') return `HTTP ${failure.status}`;
  if (failure.kind === 'timeout') return 'a timeout';
  return `a connection error (${failure.kind === 'network' ? (failure.code ?? 'NetworkError') : failure.name})`;
}

/** The transport's retry settings for one method and limit, in ky's shape (no ky import needed here). */
export interface RetrySettings {
  limit: number;
  methods: string[];
  statusCodes: number[];
  afterStatusCodes: number[];
  retryOnTimeout: boolean;
  jitter: boolean;
  backoffLimit: number;
  maxRetryAfter: number;
  shouldRetry: (state: { error: Error }) => boolean | undefined;
}

/**
 * Retry settings for `method`: exponential backoff with full jitter (capped at 8 s), Retry-After and
 * X-RateLimit-Reset honoured on 429 and 503, and `shouldRetry` on top. `classify` reads a transport error.
 */
export function retrySettings(
  method: Method,
  limit: number,
  idempotent: boolean,
  classify: (error: Error) => Failure,
): RetrySettings {
  return {
    limit,
    methods: [method.toLowerCase()],
    statusCodes: [...RETRY_STATUSES],
    afterStatusCodes: [429, 503],
    retryOnTimeout: true,
    jitter: true,
    backoffLimit: 8_000,
    maxRetryAfter: MAX_RETRY_AFTER_MS,
    shouldRetry: ({ error }) => shouldRetry(classify(error), idempotent),
  };
}
