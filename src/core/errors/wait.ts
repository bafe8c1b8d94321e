// ky does the waiting before a retry, so the SDK reads a server's wait as ky reads it: the same headers in the same
// order. Otherwise `maxRetryAfter`, the retry line, `retryAfter` and the throttle's pause would each see a different
// wait from the one ky sleeps.

// ky 2.1's order: Retry-After is authoritative when present, even when it cannot be read; else the first of these.
// A `…reset` may also be a Unix time; the others are seconds from now.
const WAIT_HEADERS = [
  'retry-after',
  'ratelimit-reset',
  'x-ratelimit-retry-after',
  'x-ratelimit-reset',
  'x-rate-limit-reset',
];

/**
 * A reset of 10^9 or more (2001-09-09 on) is a Unix time in seconds; a smaller one is seconds from now. No server
 * asks for a 31-year wait, and no reset names a time before 2001.
 */
export const RESET_EPOCH_FROM = 1_000_000_000;

// ky reads a reset as a Unix time only from 2024-01-01: a smaller one it would sleep as seconds.
const KY_EPOCH_FROM = Date.parse('2024-01-01') / 1000;

/** The header ky takes its wait from, and its value, if any. */
function waitHeader(headers: Headers): [name: string, value: string | undefined] {
  for (const name of WAIT_HEADERS) {
    const value = headers.get(name);
    if (value !== null) return [name, value.trim()];
  }
  return ['', undefined];
}

/**
 * Seconds the server asked us to wait, read as ky reads them: `Retry-After` (seconds or an HTTP date), else the
 * first of `RateLimit-Reset`, `X-RateLimit-Retry-After`, `X-RateLimit-Reset`, `X-Rate-Limit-Reset`, where a reset
 * from 10^9 up is a Unix time. `undefined` when none says, or the one ky reads cannot be read (ky backs off).
 */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | undefined {
  const [name, value] = waitHeader(headers);
  if (value === undefined) return undefined;
  // Only Retry-After may have decimals: the answer's copy ky sees has them rounded up (read-fetch).
  if ((name === 'retry-after' ? /^\d+(\.\d+)?$/ : /^\d+$/).test(value)) {
    const seconds = Number(value);
    if (!name.endsWith('reset') || seconds < RESET_EPOCH_FROM) return seconds;
    return Math.max(0, seconds - Math.floor(now / 1000));
  }
  // ky reads only HTTP dates, which name the month: no ISO date, nor what Date.parse makes of `1.5`.
  const date = /[A-Za-z]{3}/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * The headers ky will read its wait from, made to say what the SDK reads: a reset from 10^9 to 2024 is a Unix time
 * long past (no wait), which ky would sleep as that many seconds (capped at 24.8 days). It becomes the seconds left.
 */
export function resetAsSdkReads(headers: Headers, now = Date.now()): Headers {
  const [name, value] = waitHeader(headers);
  const seconds = Number(value);
  if (!name.endsWith('reset') || !/^\d+$/.test(value ?? '') || seconds >= KY_EPOCH_FROM) return headers;
  const left = retryAfterSeconds(headers, now) as number;
  if (left === seconds) return headers;
  const rewritten = new Headers(headers);
  rewritten.set(name, String(left));
  return rewritten;
}
