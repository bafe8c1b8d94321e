import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManagementClient } from '../../src/index.js';
import { isWildcardHost } from '../../src/testing/adapters/node.js';
import { createReferenceServer, type ListeningServer, listen } from '../../src/testing/index.js';

const server = createReferenceServer();
const [alpha = ''] = server.keys.management;
const [catalogKey = ''] = server.keys.catalog;
let live: ListeningServer;

beforeAll(async () => {
  live = await listen(server);
});
afterAll(() => live.close());
beforeEach(() => server.reset());

const auth = { authorization: `Bearer ${alpha}`, accept: 'application/json' };

describe('listen', () => {
  it('binds 127.0.0.1 on a free port by default', () => {
    expect(live.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(live.url).not.toBe('http://127.0.0.1:0');
  });

  it('bound to every interface (0.0.0.0), gives the loopback URL, which the SDK calls over http://', async () => {
    const wide = await listen(server, { host: '0.0.0.0' });
    try {
      expect(wide).toMatchObject({ url: `http://127.0.0.1:${wide.port}`, host: '0.0.0.0' });
      expect(wide.port).toBeGreaterThan(0);
      const mgmt = new ManagementClient({ baseUrl: wide.url, apiKey: alpha });
      expect((await mgmt.pixels.get(1)).name).toBe('Facebook Main');
    } finally {
      await wide.close();
    }
  });

  it('knows the wildcard hosts: 0.0.0.0 and ::, in any spelling', () => {
    for (const host of ['0.0.0.0', '::', '::0', '0:0:0:0:0:0:0:0', '0000:0:0:0:0:0:0:0'])
      expect(isWildcardHost(host), host).toBe(true);
    for (const host of ['127.0.0.1', '::1', 'localhost', '0.0.0.1', '10.0.0.0', ''])
      expect(isWildcardHost(host), host).toBe(false);
  });

  it('serves a list with links built from the real origin', async () => {
    const res = await fetch(`${live.url}/api/v1/pixels?per_page=25`, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = await res.json();
    expect(body.meta.total).toBe(12);
    expect(body.meta.path).toBe(`${live.url}/api/v1/pixels`);
  });

  it('streams a form body into the store and answers 201', async () => {
    const res = await fetch(`${live.url}/api/v1/pixels`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: 'Over HTTP', type: 'bing', value: 'v' }),
    });
    expect(res.status).toBe(201);
    expect((await res.json()).data).toMatchObject({ id: 15, name: 'Over HTTP' });
    expect(server.store.pixels(alpha).at(-1)?.name).toBe('Over HTTP');
  });

  it('takes the Catalog key from a JSON body', async () => {
    const res = await fetch(`${live.url}/api/purchases/validation`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'content-platform-sdk/0.2.0' },
      body: JSON.stringify({ api_key: catalogKey, purchase_code: server.fixtures.purchaseCodes.supported }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).item.item.id).toBe(101);
  });

  it('lets fetch follow the 302 to the HTML login page when Accept is missing', async () => {
    const res = await fetch(`${live.url}/api/v1/pixels`);
    expect(res.status).toBe(200);
    expect(res.redirected).toBe(true);
    expect(res.url).toBe(`${live.url}/login`);
    expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
  });

  it('drops the connection for a reset fault (socket destroyed)', async () => {
    server.faults.script(['reset']);
    const error = await fetch(`${live.url}/api/v1/pixels`, { headers: auth }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('fetch failed');
    const raw = await new Promise<string>((resolve) => {
      server.faults.script(['reset']);
      const req = httpRequest(`${live.url}/api/v1/pixels`, { headers: auth });
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      req.end();
    });
    expect(raw).toBe('ECONNRESET');
  });

  it('creates the record when the response is lost', async () => {
    server.faults.script(['lose-response']);
    await expect(
      fetch(`${live.url}/api/v1/domains`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'name=lost.example.com',
      }),
    ).rejects.toThrow('fetch failed');
    expect(server.store.domains(alpha).at(-1)?.name).toBe('lost.example.com');
  });

  it('hangs until the client aborts, then frees the handler', async () => {
    server.faults.script(['hang']);
    const started = performance.now();
    const error = await fetch(`${live.url}/api/v1/pixels`, {
      headers: auth,
      signal: AbortSignal.timeout(100),
    }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('TimeoutError');
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
    expect((await fetch(`${live.url}/api/v1/pixels/1`, { headers: auth })).status).toBe(200);
  });

  it('close() ends even with a hung request open', async () => {
    const other = createReferenceServer();
    const extra = await listen(other, { port: 0, host: '127.0.0.1' });
    other.faults.script(['hang']);
    const pending = fetch(`${extra.url}/api/v1/pixels`).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 30));
    await extra.close();
    expect(await pending).toBeInstanceOf(TypeError);
  });
});
