// The SDK reads a server's wait, and tells ky to sleep exactly that (the retry's `jitter`, see policy.ts): ky never
// reads these headers itself, so `maxRetryAfter`, the retry line, `retryAfter` and the throttle's pause all see the
// wait ky sleeps.

// ky 2.1's order, kept: Retry-After is authoritative when present, even when it cannot be read; else the first of these.
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

/** The header the wait is read from, and its value, if any. */
function waitHeader(headers: Headers): [name: string, value: string | undefined] {
  for (const name of WAIT_HEADERS) {
    const value = headers.get(name);
    if (value !== null) return [name, value.trim()];
  }
  return ['', undefined];
}

/**
 * Seconds the server asked us to wait: `Retry-After` (seconds or an HTTP date), else the
 * first of `RateLimit-Reset`, `X-RateLimit-Retry-After`, `X-RateLimit-Reset`, `X-Rate-Limit-Reset`, where a reset
 * from 10^9 up is a Unix time. `undefined` when none says, or the first present cannot be read (a backoff then).
 */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | undefined {
  const [name, value] = waitHeader(headers);
  if (value === undefined) return undefined;
  // Only Retry-After may have decimals.
  if ((name === 'retry-after' ? /^\d+(\.\d+)?$/ : /^\d+$/).test(value)) {
    const seconds = Number(value);
    if (!name.endsWith('reset') || seconds < RESET_EPOCH_FROM) return seconds;
    return Math.max(0, seconds - Math.floor(now / 1000));
  }
  // Only HTTP dates, which name the month: no ISO date, nor what Date.parse makes of `1.5`.
  const date = /[A-Za-z]{3}/.test(value) ? Date.parse(fullYear(value, now)) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

// RFC 850's obsolete date form, with a two-digit year: `Sunday, 01-Jan-60 00:00:00 GMT`.
const RFC_850 = /^([A-Za-z]+, \d{1,2}-[A-Za-z]{3}-)(\d{2})( .*)$/;

/**
 * An RFC 850 date with its year written out as RFC 9110 §5.6.7 reads it: the latest year ending in those two digits
 * that is at most 50 years ahead (`60` is 2060 in 2026), where `Date.parse` alone would read 1960 (no wait).
 */
function fullYear(value: string, now: number): string {
  const match = RFC_850.exec(value);
  if (match === null) return value;
  const [, head, yy, tail] = match as unknown as [string, string, string, string];
  const current = new Date(now).getUTCFullYear();
  let year = current - (current % 100) + Number(yy);
  if (year > current + 50) year -= 100;
  return `${head}${year}${tail}`;
}
