import { HTTPError, NetworkError, type Options, TimeoutError } from 'ky';
import { describe, expect, it } from 'vitest';
import { connectionCode, retryPolicy, retryReason } from '../../src/core/retry.js';

const request = new Request('https://links.example.com/api/v1/pixels');
const httpError = (status: number, headers: Record<string, string> = {}) =>
  new HTTPError(new Response(null, { status, headers }), request, {} as Options as never);
const networkError = (code?: string) =>
  new NetworkError(request, { cause: new TypeError('fetch failed', { cause: code ? { code } : undefined }) });

function shouldRetry(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', error: Error) {
  const policy = retryPolicy(method, ['get', 'put', 'patch', 'delete'], 2);
  return policy.shouldRetry?.({ error, retryCount: 1 });
}

describe('retryPolicy', () => {
  it('limits retries to the call’s method and the documented statuses', () => {
    const policy = retryPolicy('GET', ['get'], 3);
    expect(policy).toMatchObject({
      limit: 3,
      methods: ['get'],
      afterStatusCodes: [429, 503],
      retryOnTimeout: true,
      jitter: true,
    });
    expect(policy.statusCodes).toEqual(expect.arrayContaining([408, 429, 500, 502, 503, 504, 599]));
    expect(policy.statusCodes).not.toContain(400);
    expect(policy.statusCodes).not.toContain(404);
    expect(policy.statusCodes).not.toContain(422);
  });

  it('leaves an idempotent call to the default rules, except a Retry-After beyond the cap', () => {
    expect(shouldRetry('GET', httpError(503))).toBeUndefined();
    expect(shouldRetry('PUT', httpError(429, { 'retry-after': '60' }))).toBeUndefined();
    expect(shouldRetry('DELETE', httpError(429, { 'retry-after': '61' }))).toBe(false);
    expect(shouldRetry('PATCH', networkError('ECONNRESET'))).toBeUndefined();
  });

  it.each([
    'ECONNREFUSED',
    'ENOTFOUND',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'UND_ERR_CONNECT_TIMEOUT',
  ])('retries a create when %s proves nothing was sent', (code) => {
    expect(shouldRetry('POST', networkError(code))).toBe(true);
  });

  it.each([
    ['a reset connection', networkError('ECONNRESET')],
    ['a closed socket', networkError('UND_ERR_SOCKET')],
    ['an unknown network failure', networkError()],
    ['a 503', httpError(503)],
    ['a 429', httpError(429, { 'retry-after': '1' })],
    ['a timeout', new TimeoutError(request)],
  ])('never retries a create after %s', (_label, error) => {
    expect(shouldRetry('POST', error)).toBe(false);
  });
});

describe('connectionCode', () => {
  it('finds the code down the cause chain', () => {
    expect(connectionCode(networkError('ECONNREFUSED'))).toBe('ECONNREFUSED');
    expect(connectionCode({ code: 'EPIPE' })).toBe('EPIPE');
    expect(connectionCode(new Error('no code'))).toBeUndefined();
    expect(connectionCode(undefined)).toBeUndefined();
  });
});

describe('retryReason', () => {
  it('says what failed, briefly', () => {
    expect(retryReason(httpError(502))).toBe('HTTP 502');
    expect(retryReason(new TimeoutError(request))).toBe('a timeout');
    expect(retryReason(networkError('ECONNRESET'))).toBe('a connection error (ECONNRESET)');
    expect(retryReason(networkError())).toBe('a connection error (NetworkError)');
  });
});
