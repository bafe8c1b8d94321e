import { HTTPError, NetworkError, type RetryOptions, TimeoutError } from 'ky';
import { retryAfterSeconds } from './error-map.js';

/** HTTP methods the APIs use. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Longest server-requested wait we sleep through; a longer one is thrown as RateLimitError instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

const RETRY_STATUSES = [408, 429, ...Array.from({ length: 100 }, (_, i) => 500 + i)];

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
 * ky retry options for one call. Idempotent methods retry on connection errors, timeouts, 408, 429 and
 * 5xx. Any other method (a create) retries only when the connection was refused before anything was sent.
 */
export function retryPolicy(
  method: Method,
  idempotent: readonly Lowercase<Method>[],
  limit: number,
): RetryOptions {
  const safe = idempotent.includes(method.toLowerCase() as Lowercase<Method>);
  return {
    limit,
    methods: [method.toLowerCase()],
    statusCodes: RETRY_STATUSES,
    afterStatusCodes: [429, 503],
    retryOnTimeout: true,
    jitter: true,
    backoffLimit: 8_000,
    maxRetryAfter: MAX_RETRY_AFTER_MS,
    shouldRetry: ({ error }) => {
      if (!safe) return error instanceof NetworkError && NOTHING_SENT.has(connectionCode(error) ?? '');
      if (!(error instanceof HTTPError)) return undefined;
      const wait = retryAfterSeconds(error.response.headers);
      return wait !== undefined && wait * 1000 > MAX_RETRY_AFTER_MS ? false : undefined;
    },
  };
}

/** `retryPolicy` for one API, each method and limit built once: ky normalizes the object on every call. */
export function retryPolicies(
  idempotent: readonly Lowercase<Method>[],
): (method: Method, limit: number) => RetryOptions {
  const built = new Map<string, RetryOptions>();
  return (method, limit) => {
    const key = `${method} ${limit}`;
    const policy = built.get(key) ?? retryPolicy(method, idempotent, limit);
    built.set(key, policy);
    return policy;
  };
}

/** A short reason for a retry log line: the status, the connection code, or "a timeout". */
export function retryReason(error: Error): string {
  if (error instanceof HTTPError) return `HTTP ${error.response.status}`;
  if (error instanceof TimeoutError) return 'a timeout';
  return `a connection error (${connectionCode(error) ?? error.name})`;
}
