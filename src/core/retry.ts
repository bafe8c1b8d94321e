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

/** The system error code behind a failed fetch (`ECONNREFUSED`, `ECONNRESET`…), if there is one. */
export function connectionCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Whether to try again, in ky's terms: `false` refuses, `true` retries with backoff, `undefined` lets ky's own
 * rules decide (statuses, timeouts, network errors, Retry-After). An idempotent call follows ky's rules except
 * for a server-requested wait beyond the cap. A create (not idempotent) is retried only when nothing reached the
 * server: the connection was refused, or a 429 came back from the throttle, which answers before doing anything.
 */
export function shouldRetry(failure: Failure, idempotent: boolean): boolean | undefined {
  if (failure.kind === 'other') return false;
  if (!idempotent) {
    if (failure.kind === 'network') return NOTHING_SENT.has(failure.code ?? '');
    return failure.kind === 'status' && failure.status === 429 && waitAllowed(failure) ? undefined : false;
  }
  // ky wraps only the network errors it recognises by message; any other TypeError from fetch is one too.
  if (failure.kind === 'network') return true;
  if (failure.kind === 'timeout') return undefined;
  if (!RETRY_STATUSES.includes(failure.status)) return false;
  // ky's list stays short (it is copied on every call); the rest of the 5xx range backs off the same way.
  if (!KY_STATUSES.includes(failure.status)) return true;
  return waitAllowed(failure) ? undefined : false;
}

// ky's default `statusCodes` (less 413, refused above): ky reads Retry-After on its 429 and 503.
const KY_STATUSES = [408, 429, 500, 502, 503, 504];

/** A 429 or 503 may ask for a wait; one beyond MAX_RETRY_AFTER_MS is not slept through. */
function waitAllowed(failure: Extract<Failure, { kind: 'status' }>): boolean {
  if (failure.status !== 429 && failure.status !== 503) return true;
  const wait = retryAfterSeconds(failure.headers);
  return wait === undefined || wait * 1000 <= MAX_RETRY_AFTER_MS;
}

/** A short reason for a retry log line: the status, the connection code, or "a timeout". */
export function retryReason(failure: Failure): string {
  if (failure.kind === 'status') return `HTTP ${failure.status}`;
  if (failure.kind === 'timeout') return 'a timeout';
  return `a connection error (${failure.kind === 'network' ? (failure.code ?? 'NetworkError') : failure.name})`;
}

/** The SDK's retry rules in ky's `retry` shape (structurally typed, so this module needs no ky import). */
export interface RetryPolicy {
  limit: number;
  methods: string[];
  retryOnTimeout: boolean;
  jitter: (delay: number) => number;
  shouldRetry: (state: { error: Error; retryCount: number }) => boolean | undefined;
}

/** Told of each retry as it is decided, before the wait: what failed, which retry, of how many, for what. */
export type OnRetry = (failure: Failure, retry: number, limit: number, request: Request | undefined) => void;

/**
 * Retry rules for up to `limit` retries: ky's own backoff (300 ms, doubling) with full jitter capped at 8 s,
 * ky's statuses and Retry-After / X-RateLimit-Reset reading (429, 503), and `shouldRetry` on top. Every
 * method is in `methods` because ky checks it before `shouldRetry`; `idempotent` says which methods may run
 * twice, and `classify` reads ky's error into a Failure. ky's defaults are left unset on purpose: ky
 * normalises the retry object on every call, so each key costs every request.
 */
export function retryPolicy(
  limit: number,
  idempotent: (method: string) => boolean,
  classify: (error: Error) => { failure: Failure; request: Request | undefined },
  onRetry: OnRetry,
): RetryPolicy {
  return {
    limit,
    methods: ['get', 'put', 'patch', 'delete', 'post'],
    retryOnTimeout: true,
    // ky's own `jitter: true` draws below the uncapped step, then caps it (piling waits at 8 s); this draws below
    // the capped step, so waits stay spread up to the cap.
    jitter: (delay) => Math.random() * Math.min(delay, BACKOFF_CAP_MS),
    // ky asks only once the limit and `methods` allow a retry, and every answer here is final (ky's own
    // rules agree with each `undefined`), so a retry is logged here: no hook needs merging into every call.
    shouldRetry: ({ error, retryCount }) => {
      const { failure, request } = classify(error);
      const verdict = shouldRetry(failure, idempotent(request?.method ?? ''));
      if (verdict !== false) onRetry(failure, retryCount, limit, request);
      return verdict;
    },
  };
}
