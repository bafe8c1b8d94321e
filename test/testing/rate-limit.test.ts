import { describe, expect, it } from 'vitest';
import { ORIGIN, read, setup } from './helpers.js';

describe('rate limit headers', () => {
  it('sends no rate-limit headers and never refuses without a rateLimit option', async () => {
    const { mgmt, catalog, catalogKey } = setup();
    for (let i = 0; i < 70; i++) await mgmt('GET', 'pixels/1');
    const late = await mgmt('GET', 'pixels/1');
    const cat = await catalog('GET', 'items/all', { query: { api_key: catalogKey } });
    for (const res of [late, cat]) {
      expect(res.status).toBe(200);
      expect(
        [...res.headers.keys()].filter((k) => k.startsWith('x-ratelimit') || k === 'retry-after'),
      ).toEqual([]);
    }
  });

  it('with a rateLimit, every answer carries X-RateLimit-Limit and a falling Remaining, per key', async () => {
    const { mgmt, catalog, catalogKey } = setup({ rateLimit: { limit: 60 } });
    const first = await mgmt('GET', 'pixels/1');
    expect([first.headers.get('x-ratelimit-limit'), first.headers.get('x-ratelimit-remaining')]).toEqual([
      '60',
      '59',
    ]);
    expect((await mgmt('GET', 'pixels/999')).headers.get('x-ratelimit-remaining')).toBe('58');
    const cat = await catalog('GET', 'items/all', { query: { api_key: catalogKey } });
    expect(cat.headers.get('x-ratelimit-remaining')).toBe('59');
  });
});

describe('rate limit enforced', () => {
  const start = Date.parse('2025-05-05T00:00:00Z');

  it('answers 429 Too Many Attempts. with Retry-After and X-RateLimit-Reset, per key, until the window ends', async () => {
    let now = start;
    const { mgmt, beta } = setup({ rateLimit: { limit: 3 }, now: () => new Date(now) });
    for (const remaining of ['2', '1', '0']) {
      expect((await mgmt('GET', 'pixels/1')).headers.get('x-ratelimit-remaining')).toBe(remaining);
    }
    now += 20_000;
    const limited = await mgmt('GET', 'pixels/1');
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ message: 'Too Many Attempts.' });
    expect(
      Object.fromEntries([...limited.headers].filter(([k]) => k.startsWith('x-') || k === 'retry-after')),
    ).toEqual({
      'retry-after': '40',
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String((start + 60_000) / 1000),
    });
    expect((await mgmt('GET', 'pixels/13', { key: beta })).status).toBe(200);
    now = start + 60_000;
    expect((await mgmt('GET', 'pixels/1')).status).toBe(200);
  });

  it('redirects a 429 to /login without Accept: application/json (laravel flavor)', async () => {
    const { mgmt } = setup({ rateLimit: { limit: 1 } });
    await mgmt('GET', 'pixels', { accept: null });
    const res = await mgmt('GET', 'pixels', { accept: null });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${ORIGIN}/login`);
    expect(res.headers.get('retry-after')).not.toBeNull();
  });

  it('limits the Catalog by api_key with a JSON 429', async () => {
    const { catalog, catalogKey } = setup({ rateLimit: { limit: 1, windowMs: 1000 } });
    await catalog('GET', 'items/all', { query: { api_key: catalogKey } });
    const res = await catalog('GET', 'items/all', { query: { api_key: catalogKey } });
    expect(await read(res)).toEqual({ status: 429, body: { message: 'Too Many Attempts.' } });
    expect(res.headers.get('retry-after')).toBe('1');
  });

  it('reset() clears the windows', async () => {
    const { mgmt, server } = setup({ rateLimit: { limit: 1 } });
    await mgmt('GET', 'pixels/1');
    expect((await mgmt('GET', 'pixels/1')).status).toBe(429);
    server.reset();
    expect((await mgmt('GET', 'pixels/1')).status).toBe(200);
  });
});
