import { describe, expect, it } from 'vitest';
import { APIError, CatalogClient, ManagementClient, NotFoundError } from '../../src/index.js';
import { createReferenceServer } from '../../src/testing/index.js';
import { ORIGIN, setup } from './helpers.js';

describe('reference server routing', () => {
  it('answers only the real paths: an API under a wrong prefix is a 404, JSON when asked for', async () => {
    const { server, mgmt } = setup();
    const key = server.keys.management[0];
    const wrong = await server.fetch(
      new Request(`${ORIGIN}/wrong/api/v1/pixels`, {
        headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
      }),
    );
    expect(wrong.status).toBe(404);
    expect(await wrong.json()).toEqual({ message: 'The route wrong/api/v1/pixels could not be found.' });
    const html = await server.fetch(new Request(`${ORIGIN}/wrong/api/items/all?api_key=k`));
    expect(html.status).toBe(404);
    expect(html.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect((await server.fetch(new Request(`${ORIGIN}/wrong/login`))).status).toBe(404);
    expect((await mgmt('GET', 'pixels')).status).toBe(200);
  });

  it('fails an SDK client whose base URL has a wrong path, as the real site would', async () => {
    const server = createReferenceServer();
    const mgmt = new ManagementClient({
      baseUrl: `${ORIGIN}/wrong`,
      apiKey: server.keys.management[0],
      fetch: server.fetch,
      maxRetries: 0,
    });
    const error = await mgmt.pixels.get(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toBe(
      `GET ${ORIGIN}/wrong/api/v1/pixels/1 failed with 404: "The route wrong/api/v1/pixels/1 could not be found."`,
    );
    const catalog = new CatalogClient({
      siteUrl: `${ORIGIN}/shop`,
      apiKey: server.keys.catalog[0],
      fetch: server.fetch,
      maxRetries: 0,
    });
    await expect(catalog.items.list()).rejects.toBeInstanceOf(APIError);
  });

  it('serves under a basePath, and nowhere else', async () => {
    const server = createReferenceServer({ basePath: '/market/' });
    const client = (siteUrl: string) =>
      new CatalogClient({ siteUrl, apiKey: server.keys.catalog[0], fetch: server.fetch, maxRetries: 0 });
    expect((await client(`${ORIGIN}/market`).items.list()).length).toBeGreaterThan(0);
    await expect(client(ORIGIN).items.list()).rejects.toBeInstanceOf(APIError);
    expect(server.basePath).toBe('/market');
    expect(() => createReferenceServer({ basePath: 'market' })).toThrow(
      `createReferenceServer: basePath must look like '/market' (segments of letters, digits and . _ ~ -); got "market".`,
    );
  });

  it('logs each request with its headers, the keys masked', async () => {
    const server = createReferenceServer();
    const mgmt = new ManagementClient({
      baseUrl: ORIGIN,
      apiKey: server.keys.management[0],
      fetch: server.fetch,
    });
    const catalog = new CatalogClient({
      siteUrl: ORIGIN,
      apiKey: server.keys.catalog[0],
      fetch: server.fetch,
    });
    await mgmt.pixels.get(1, { headers: { 'x-trace': 't-1' } });
    await catalog.items.list();
    const [first, second] = server.requests;
    expect(first).toMatchObject({
      method: 'GET',
      url: `${ORIGIN}/api/v1/pixels/1`,
      headers: { authorization: 'Bearer ***', accept: 'application/json', 'x-trace': 't-1' },
      fault: 'pass',
    });
    expect(first?.headers['user-agent']).toMatch(/^content-platform-sdk\//);
    expect(second?.url).toBe(`${ORIGIN}/api/items/all?api_key=***`);
    await server.fetch(
      new Request(`${ORIGIN}/api/v1/pixels`, { headers: { authorization: 'bare-secret-key' } }),
    );
    expect(server.requests.at(-1)?.headers.authorization).toBe('***');
    expect(JSON.stringify(server.requests)).not.toContain(server.keys.management[0]);
    expect(JSON.stringify(server.requests)).not.toContain(server.keys.catalog[0]);
  });
});
