import { describe, expect, it } from 'vitest';
import { RESET_EPOCH_FROM, resetAsSdkReads, retryAfterSeconds } from '../../src/core/errors/wait.js';

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
    // 2001 and 2023: long past, so no wait (ky 2 alone would sleep these as seconds: see resetAsSdkReads).
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

describe('resetAsSdkReads', () => {
  const rewrite = (headers: Record<string, string>) =>
    Object.fromEntries(resetAsSdkReads(new Headers(headers), now).entries());

  it('turns a reset from 10^9 to 2024, which ky would sleep as seconds, into the seconds left: 0', () => {
    expect(rewrite({ 'x-ratelimit-reset': '1000000000', 'x-ratelimit-limit': '60' })).toEqual({
      'x-ratelimit-reset': '0',
      'x-ratelimit-limit': '60',
    });
    expect(rewrite({ 'ratelimit-reset': '1704067199' })).toEqual({ 'ratelimit-reset': '0' });
    expect(rewrite({ 'x-rate-limit-reset': '1500000000' })).toEqual({ 'x-rate-limit-reset': '0' });
  });

  it('leaves alone what ky and the SDK already read alike', () => {
    for (const headers of [
      { 'x-ratelimit-reset': '999999999' },
      { 'x-ratelimit-reset': '1704067200' },
      { 'x-ratelimit-reset': String(now / 1000 + 30) },
      { 'x-ratelimit-retry-after': '1500000000' },
      { 'retry-after': '2', 'x-ratelimit-reset': '1500000000' },
      { 'x-ratelimit-reset': 'soon' },
      {},
    ]) {
      const given = new Headers(headers);
      expect(resetAsSdkReads(given, now)).toBe(given);
    }
  });
});
