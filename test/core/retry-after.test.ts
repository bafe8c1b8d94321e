import { describe, expect, it } from 'vitest';
import { RESET_EPOCH_FROM, retryAfterSeconds } from '../../src/core/errors/wait.js';

const now = Date.parse('2026-01-01T00:00:00Z');
const seconds = (headers: Record<string, string>) => retryAfterSeconds(new Headers(headers), now);

describe('retryAfterSeconds', () => {
  it('reads seconds', () => {
    expect(seconds({ 'retry-after': '5' })).toBe(5);
    expect(seconds({ 'retry-after': '1.5' })).toBe(1.5);
  });

  it('reads an HTTP date', () => {
    expect(seconds({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' })).toBe(30);
  });

  it('falls back to X-RateLimit-Reset epoch seconds', () => {
    expect(seconds({ 'x-ratelimit-reset': String(now / 1000 + 42) })).toBe(42);
  });

  it('reads a reset below 10^9 as seconds from now, and from 10^9 on as a Unix time', () => {
    expect(RESET_EPOCH_FROM).toBe(1_000_000_000);
    expect(seconds({ 'x-ratelimit-reset': '1' })).toBe(1);
    expect(seconds({ 'x-ratelimit-reset': '999999999' })).toBe(999_999_999);
    // 2001 and 2023: long past, so no wait (ky 2 alone would sleep these as seconds; the SDK states the wait).
    expect(seconds({ 'x-ratelimit-reset': '1000000000' })).toBe(0);
    expect(seconds({ 'x-ratelimit-reset': '1700000000' })).toBe(0);
    expect(seconds({ 'x-ratelimit-reset': String(now / 1000 + 600) })).toBe(600);
  });

  it('reads the headers ky reads, in its order: Retry-After first, even when it cannot be read', () => {
    expect(seconds({ 'ratelimit-reset': '7' })).toBe(7);
    expect(seconds({ 'x-ratelimit-retry-after': '8' })).toBe(8);
    expect(seconds({ 'x-rate-limit-reset': String(now / 1000 + 9) })).toBe(9);
    expect(
      seconds({ 'ratelimit-reset': '7', 'x-ratelimit-retry-after': '8', 'x-ratelimit-reset': '9' }),
    ).toBe(7);
    expect(seconds({ 'retry-after': '3', 'x-ratelimit-reset': '9' })).toBe(3);
    expect(seconds({ 'retry-after': 'soon', 'x-ratelimit-reset': '9' })).toBeUndefined();
  });

  it('reads decimals only in Retry-After, as ky does', () => {
    expect(seconds({ 'x-ratelimit-reset': '1.5' })).toBeUndefined();
    expect(seconds({ 'x-ratelimit-retry-after': '2.5' })).toBeUndefined();
  });

  it('reads a date only in the HTTP forms, which name the month, as ky does: not ISO 8601', () => {
    expect(seconds({ 'x-ratelimit-reset': 'Thu, 01 Jan 2026 00:01:00 GMT' })).toBe(60);
    expect(seconds({ 'retry-after': '2026-01-01T00:01:00Z' })).toBeUndefined();
  });

  it('never goes negative and ignores garbage', () => {
    expect(seconds({ 'retry-after': 'Wed, 31 Dec 2025 00:00:00 GMT' })).toBe(0);
    expect(seconds({ 'retry-after': 'soon' })).toBeUndefined();
    expect(seconds({ 'x-ratelimit-reset': '-5' })).toBeUndefined();
    expect(seconds({})).toBeUndefined();
  });
});

describe('retryAfterSeconds: RFC 850 dates, with a two-digit year', () => {
  const at = (date: string) => (Date.parse(date) - now) / 1000;

  it('reads the year as RFC 9110 does: the latest one ending so, at most 50 years ahead', () => {
    // Date.parse alone reads 1960 (no wait); ky's own reader, 2060.
    expect(seconds({ 'retry-after': 'Sunday, 01-Jan-60 00:00:00 GMT' })).toBe(at('2060-01-01T00:00:00Z'));
    expect(seconds({ 'x-ratelimit-reset': 'Friday, 01-Jan-76 00:00:00 GMT' })).toBe(
      at('2076-01-01T00:00:00Z'),
    );
    expect(seconds({ 'retry-after': 'Thursday, 01-Jan-26 00:00:30 GMT' })).toBe(30);
  });

  it('reads a year more than 50 years ahead as last century: long past, no wait', () => {
    expect(seconds({ 'retry-after': 'Sunday, 01-Jan-77 00:00:00 GMT' })).toBe(0);
    expect(seconds({ 'retry-after': 'Friday, 31-Dec-99 23:59:59 GMT' })).toBe(0);
  });
});
