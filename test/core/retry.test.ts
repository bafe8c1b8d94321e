import { describe, expect, it } from 'vitest';
import {
  connectionCode,
  type Failure,
  MAX_RETRY_AFTER_MS,
  RETRY_STATUSES,
  retryDelay,
  retryReason,
} from '../../src/core/retry.js';

const status = (code: number, headers: Record<string, string> = {}): Failure => ({
  kind: 'status',
  status: code,
  headers: new Headers(headers),
});
const network = (code?: string): Failure => ({ kind: 'network', code });

describe('RETRY_STATUSES', () => {
  it('holds 408, 429 and every 5xx, and no other client error', () => {
    expect(RETRY_STATUSES).toEqual(expect.arrayContaining([408, 429, 500, 502, 503, 504, 599]));
    for (const code of [400, 401, 403, 404, 409, 422]) expect(RETRY_STATUSES).not.toContain(code);
  });
});

// Full jitter at its top: the backoff itself. `retryDelay(failure, retry, idempotent, random)`.
const top = () => 1;

describe('retryDelay for an idempotent call', () => {
  it.each<[string, Failure]>([
    ['a 503', status(503)],
    ['a 500', status(500)],
    ['a 599', status(599)],
    ['a 408', status(408)],
    ['a 429 without Retry-After', status(429)],
    ['a reset connection', network('ECONNRESET')],
    ['an unknown network failure', network()],
    ['a timeout', { kind: 'timeout' }],
  ])('retries %s with exponential backoff: 300, 600, 1200 ms… capped at 8 s', (_label, failure) => {
    expect([1, 2, 3, 5, 6, 10].map((retry) => retryDelay(failure, retry, true, top))).toEqual([
      300, 600, 1200, 4800, 8000, 8000,
    ]);
  });

  it('draws the wait anywhere below the backoff (full jitter)', () => {
    expect(retryDelay(status(502), 2, true, () => 0.25)).toBe(150);
    expect(retryDelay(status(502), 2, true, () => 0)).toBe(0);
    for (let i = 0; i < 200; i += 1) {
      const wait = retryDelay(status(502), 3, true) as number;
      expect(wait).toBeGreaterThanOrEqual(0);
      expect(wait).toBeLessThan(1200);
    }
  });

  it('waits exactly what a 429 or 503 asks for, without jitter, up to the 60 s cap', () => {
    expect(retryDelay(status(429, { 'retry-after': '2' }), 1, true, top)).toBe(2000);
    expect(retryDelay(status(503, { 'retry-after': '0.5' }), 3, true, top)).toBe(500);
    expect(retryDelay(status(429, { 'retry-after': '60' }), 1, true, top)).toBe(MAX_RETRY_AFTER_MS);
    const reset = String(Math.floor(Date.now() / 1000) + 5);
    const wait = retryDelay(status(429, { 'x-ratelimit-reset': reset }), 1, true, top) as number;
    expect(wait).toBeGreaterThan(3000);
    expect(wait).toBeLessThanOrEqual(6000);
  });

  it('does not retry a 429 that asks for more than 60 s: the caller gets a RateLimitError at once', () => {
    expect(retryDelay(status(429, { 'retry-after': '61' }), 1, true, top)).toBeUndefined();
    expect(retryDelay(status(503, { 'retry-after': '3600' }), 1, true, top)).toBeUndefined();
  });

  it('ignores Retry-After on other statuses and backs off as usual', () => {
    expect(retryDelay(status(500, { 'retry-after': '30' }), 1, true, top)).toBe(300);
  });

  it.each([400, 401, 403, 404, 409, 413, 422, 301, 307])('never retries a %i', (code) => {
    expect(retryDelay(status(code), 1, true, top)).toBeUndefined();
  });

  it('never retries a fault that is not a connection error', () => {
    expect(retryDelay({ kind: 'other', name: 'RangeError' }, 1, true, top)).toBeUndefined();
  });
});

describe('retryDelay for a create', () => {
  it.each([
    'ECONNREFUSED',
    'ENOTFOUND',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'UND_ERR_CONNECT_TIMEOUT',
  ])('retries when %s proves nothing was sent', (code) => {
    expect(retryDelay(network(code), 1, false, top)).toBe(300);
    expect(retryDelay(network(code), 2, false, top)).toBe(600);
  });

  it.each<[string, Failure]>([
    ['a reset connection', network('ECONNRESET')],
    ['a closed socket', network('UND_ERR_SOCKET')],
    ['an unknown network failure', network()],
    ['a 503', status(503)],
    ['a 429', status(429, { 'retry-after': '1' })],
    ['a timeout', { kind: 'timeout' }],
    ['any other error', { kind: 'other', name: 'TypeError' }],
  ])('never retries after %s', (_label, failure) => {
    expect(retryDelay(failure, 1, false, top)).toBeUndefined();
  });
});

describe('connectionCode', () => {
  it('finds the code down the cause chain', () => {
    const wrapped = new Error('network', {
      cause: new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }),
    });
    expect(connectionCode(wrapped)).toBe('ECONNREFUSED');
    expect(connectionCode({ code: 'EPIPE' })).toBe('EPIPE');
    expect(connectionCode(new Error('no code'))).toBeUndefined();
    expect(connectionCode(undefined)).toBeUndefined();
  });
});

describe('retryReason', () => {
  it('says what failed, briefly', () => {
    expect(retryReason(status(502))).toBe('HTTP 502');
    expect(retryReason({ kind: 'timeout' })).toBe('a timeout');
    expect(retryReason(network('ECONNRESET'))).toBe('a connection error (ECONNRESET)');
    expect(retryReason(network())).toBe('a connection error (NetworkError)');
    expect(retryReason({ kind: 'other', name: 'TypeError' })).toBe('a connection error (TypeError)');
  });
});
