import { describe, expect, it } from 'vitest';
import { ORIGIN, read, setup } from './helpers.js';

describe('Management auth', () => {
  it('answers 401 Unauthenticated. JSON without a key', async () => {
    const { mgmt } = setup();
    const res = await mgmt('GET', 'pixels', { key: null });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('answers 401 with a wrong key', async () => {
    const { mgmt } = setup();
    expect(await read(await mgmt('GET', 'pixels/1', { key: 'nope' }))).toEqual({
      status: 401,
      body: { message: 'Unauthenticated.' },
    });
  });

  it('redirects to /login without Accept: application/json (laravel flavor)', async () => {
    const { mgmt, server } = setup();
    const res = await mgmt('GET', 'pixels', { key: 'nope', accept: null });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${ORIGIN}/login`);
    const login = await server.fetch(new Request(`${ORIGIN}/login`));
    expect(login.status).toBe(200);
    expect(login.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(await login.text()).toContain('<form method="POST" action="/login">');
  });

  it('keeps its base path in the /login redirect', async () => {
    const { server } = setup({ basePath: '/links' });
    const res = await server.fetch(new Request(`${ORIGIN}/links/api/v1/pixels`));
    expect(res.headers.get('location')).toBe(`${ORIGIN}/links/login`);
    expect((await server.fetch(new Request(`${ORIGIN}/links/login`))).status).toBe(200);
  });

  it('answers JSON 401 without Accept in the spec flavor', async () => {
    const { mgmt } = setup({ flavor: 'spec' });
    expect(await read(await mgmt('GET', 'pixels', { key: 'nope', accept: null }))).toEqual({
      status: 401,
      body: { message: 'Unauthenticated.' },
    });
  });

  it('accepts a valid key without Accept (only failures redirect)', async () => {
    const { mgmt } = setup();
    expect((await mgmt('GET', 'pixels/1', { accept: null })).status).toBe(200);
  });

  it('isolates workspaces: another workspace id is 404 for show, update and delete', async () => {
    const { mgmt, beta, server } = setup();
    const notFound = { status: 404, body: { message: 'Resource not found.', status: 404 } };
    expect(await read(await mgmt('GET', 'pixels/1', { key: beta }))).toEqual(notFound);
    expect(await read(await mgmt('PATCH', 'pixels/1', { key: beta, form: { name: 'x' } }))).toEqual(notFound);
    expect(await read(await mgmt('DELETE', 'domains/1', { key: beta }))).toEqual(notFound);
    expect(server.store.pixels(server.keys.management[0] ?? '')[0]?.name).toBe('Facebook Main');
    expect(server.store.domains(server.keys.management[0] ?? '')).toHaveLength(3);
  });

  it('lists only the workspace own records', async () => {
    const { mgmt, beta, empty } = setup();
    const betaList = await read(await mgmt('GET', 'pixels', { key: beta }));
    expect(betaList.body.data.map((p: { name: string }) => p.name)).toEqual(['Beta Bing', 'Beta Facebook']);
    expect(betaList.body.meta.total).toBe(2);
    const emptyList = await read(await mgmt('GET', 'domains', { key: empty }));
    expect(emptyList.body.meta.total).toBe(0);
  });

  it('accepts custom keys', async () => {
    const { mgmt } = setup({ managementKeys: ['k1', 'k2'] });
    expect((await mgmt('GET', 'pixels', { key: 'k1' })).status).toBe(200);
    expect((await mgmt('GET', 'pixels', { key: 'test-mgmt-key-workspace-alpha' })).status).toBe(401);
  });
});

describe('Management routing', () => {
  it('answers 404 for unknown routes, before auth', async () => {
    const { mgmt } = setup();
    const notFound = { status: 404, body: { message: 'Resource not found.', status: 404 } };
    expect(await read(await mgmt('GET', 'links'))).toEqual(notFound);
    expect(await read(await mgmt('GET', 'pixels/1/extra', { key: null }))).toEqual(notFound);
    expect(await read(await mgmt('GET', 'pixels/abc'))).toEqual(notFound);
    expect(await read(await mgmt('GET', 'pixels/999'))).toEqual(notFound);
  });

  it('answers 405 JSON for unsupported methods', async () => {
    const { mgmt } = setup();
    const res = await mgmt('POST', 'pixels/1');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, PUT, PATCH, DELETE');
    expect(await res.json()).toEqual({
      message:
        'The POST method is not supported for route api/v1/pixels/1. Supported methods: GET, HEAD, PUT, PATCH, DELETE.',
      status: 405,
    });
    expect((await mgmt('DELETE', 'domains')).status).toBe(405);
  });

  it('answers HEAD like GET without a body', async () => {
    const { mgmt } = setup();
    const res = await mgmt('HEAD', 'pixels/1');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});
