import { describe, expect, it } from 'vitest';
import {
  connectionCode,
  type Failure,
  RETRY_STATUSES,
  retryReason,
  shouldRetry,
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

describe('shouldRetry', () => {
  it('leaves an idempotent call to the transport’s rules, except a Retry-After beyond the 60 s cap', () => {
    expect(shouldRetry(status(503), true)).toBeUndefined();
    expect(shouldRetry(status(429, { 'retry-after': '60' }), true)).toBeUndefined();
    expect(shouldRetry(status(429, { 'retry-after': '61' }), true)).toBe(false);
    expect(shouldRetry(network('ECONNRESET'), true)).toBeUndefined();
    expect(shouldRetry({ kind: 'timeout' }, true)).toBeUndefined();
  });

  it.each([
    'ECONNREFUSED',
    'ENOTFOUND',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'UND_ERR_CONNECT_TIMEOUT',
  ])('retries a create when %s proves nothing was sent', (code) => {
    expect(shouldRetry(network(code), false)).toBe(true);
  });

  it.each<[string, Failure]>([
    ['a reset connection', network('ECONNRESET')],
    ['a closed socket', network('UND_ERR_SOCKET')],
    ['an unknown network failure', network()],
    ['a 503', status(503)],
    ['a 429', status(429, { 'retry-after': '1' })],
    ['a timeout', { kind: 'timeout' }],
    ['any other error', { kind: 'other', name: 'TypeError' }],
  ])('never retries a create after %s', (_label, failure) => {
    expect(shouldRetry(failure, false)).toBe(false);
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
