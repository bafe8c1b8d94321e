import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer } from '../../src/testing/index.js';
import { createMswHandlers, MSW_DEFAULT_URLS } from '../../src/testing/msw.js';

const server = createReferenceServer({ flavor: 'spec' });
const mock = setupServer(...createMswHandlers(server, { siteUrl: 'https://shop.example.test' }));
beforeAll(() => mock.listen({ onUnhandledFrame: 'error' }));
afterAll(() => mock.close());

describe('createMswHandlers', () => {
  it('forwards the Management base URL to the server', async () => {
    const res = await fetch(`${MSW_DEFAULT_URLS.baseUrl}/api/v1/pixels/1`, {
      headers: { authorization: `Bearer ${server.keys.management[0]}`, accept: 'application/json' },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data.name).toBe('Facebook Main');
  });

  it('forwards the Catalog site URL, POST bodies included', async () => {
    const res = await fetch('https://shop.example.test/api/purchases/validation', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        api_key: server.keys.catalog[0],
        purchase_code: server.fixtures.purchaseCodes.invalid,
      }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ status: 'خطأ', msg: 'كود الشراء غير صحيح' });
  });

  it('turns a dropped connection into a network error', async () => {
    server.faults.script(['reset']);
    await expect(fetch(`${MSW_DEFAULT_URLS.baseUrl}/api/v1/pixels`)).rejects.toThrow(TypeError);
    expect(server.requests.at(-1)).toEqual({
      method: 'GET',
      url: `${MSW_DEFAULT_URLS.baseUrl}/api/v1/pixels`,
      headers: expect.objectContaining({ host: new URL(MSW_DEFAULT_URLS.baseUrl).host }),
      fault: 'reset',
    });
  });
});
