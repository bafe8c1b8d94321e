import { describe, expect, it } from 'vitest';
import { read, setup } from './helpers.js';

const NOW = new Date('2025-03-04T05:06:07.891Z');
const STAMP = '2025-03-04T05:06:07.891000Z';

describe('Pixels create', () => {
  it('stores a form-encoded pixel: 201 with { data, status: 200 }', async () => {
    const { mgmt, server, alpha } = setup({ now: () => NOW });
    const res = await mgmt('POST', 'pixels', { form: { name: 'New FB', type: 'facebook', value: '42' } });
    expect(res.status).toBe(201);
    const expected = {
      id: 15,
      name: 'New FB',
      type: 'facebook',
      value: '42',
      created_at: STAMP,
      updated_at: STAMP,
    };
    expect(await res.json()).toEqual({ data: expected, status: 200 });
    expect(server.store.pixels(alpha).at(-1)).toEqual(expected);
  });

  it('does not understand a JSON body: every required field is missing', async () => {
    const { mgmt, server, alpha } = setup();
    const res = await read(await mgmt('POST', 'pixels', { json: { name: 'X', type: 'x', value: '1' } }));
    expect(res).toEqual({
      status: 422,
      body: {
        message: {
          name: ['The name field is required.'],
          type: ['The type field is required.'],
          value: ['The value field is required.'],
        },
        status: 422,
      },
    });
    expect(server.store.pixels(alpha)).toHaveLength(12);
  });

  it('rejects an unknown type, a name over 32 characters and a blank value', async () => {
    const { mgmt } = setup();
    const res = await read(
      await mgmt('POST', 'pixels', { form: { name: 'a'.repeat(33), type: 'tiktok', value: '  ' } }),
    );
    expect(res.status).toBe(422);
    expect(res.body.message).toEqual({
      name: ['The name field must not be greater than 32 characters.'],
      type: ['The selected type is invalid.'],
      value: ['The value field is required.'],
    });
  });

  it('accepts exactly 32 characters (counted as characters, Arabic included)', async () => {
    const { mgmt } = setup();
    expect(
      (await mgmt('POST', 'pixels', { form: { name: 'ب'.repeat(32), type: 'x', value: '1' } })).status,
    ).toBe(201);
  });

  it('requires a unique name per workspace, case-insensitively', async () => {
    const { mgmt, beta } = setup();
    const taken = await read(
      await mgmt('POST', 'pixels', { form: { name: 'FACEBOOK MAIN', type: 'x', value: '1' } }),
    );
    expect(taken).toEqual({
      status: 422,
      body: { message: { name: ['The name has already been taken.'] }, status: 422 },
    });
    const other = await mgmt('POST', 'pixels', {
      key: beta,
      form: { name: 'Facebook Main', type: 'x', value: '1' },
    });
    expect(other.status).toBe(201);
  });
});

describe('Pixels show, update, delete', () => {
  it('shows a pixel with 200 { data, status: 200 }', async () => {
    const { mgmt } = setup();
    expect(await read(await mgmt('GET', 'pixels/2'))).toEqual({
      status: 200,
      body: {
        data: {
          id: 2,
          name: 'Google Ads Search',
          type: 'google-ads',
          value: 'AW-123456789',
          created_at: '2025-01-15T10:21:30.000000Z',
          updated_at: '2025-01-15T10:21:30.000000Z',
        },
        status: 200,
      },
    });
  });

  it.each(['PUT', 'PATCH'])('%s updates only the fields sent', async (method) => {
    const { mgmt, server, alpha } = setup({ now: () => NOW });
    const res = await read(await mgmt(method, 'pixels/1', { form: { value: '999' } }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        id: 1,
        name: 'Facebook Main',
        type: 'facebook',
        value: '999',
        created_at: '2025-01-15T10:20:30.000000Z',
        updated_at: STAMP,
      },
      status: 200,
    });
    expect(server.store.pixels(alpha)[0]?.value).toBe('999');
  });

  it('validates updates: a blank name is required, the same name is allowed, a taken one is not', async () => {
    const { mgmt } = setup();
    expect((await read(await mgmt('PATCH', 'pixels/1', { form: { name: '' } }))).body.message).toEqual({
      name: ['The name field is required.'],
    });
    expect((await mgmt('PATCH', 'pixels/1', { form: { name: 'Facebook Main' } })).status).toBe(200);
    expect(
      (await read(await mgmt('PUT', 'pixels/1', { form: { name: 'Tag Manager', type: 'nope' } }))).body,
    ).toEqual({
      message: { name: ['The name has already been taken.'], type: ['The selected type is invalid.'] },
      status: 422,
    });
  });

  it('deletes: { id, object, deleted, status } then 404', async () => {
    const { mgmt, server, alpha } = setup();
    expect(await read(await mgmt('DELETE', 'pixels/3'))).toEqual({
      status: 200,
      body: { id: 3, object: 'pixel', deleted: true, status: 200 },
    });
    expect((await mgmt('GET', 'pixels/3')).status).toBe(404);
    expect(server.store.pixels(alpha).map((p) => p.id)).not.toContain(3);
  });
});

describe('Domains', () => {
  it('creates a domain with url and null pages', async () => {
    const { mgmt } = setup({ now: () => NOW });
    const res = await mgmt('POST', 'domains', { form: { name: 'new.example.com' } });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({
      data: {
        id: 5,
        name: 'new.example.com',
        url: 'https://new.example.com',
        index_page: null,
        not_found_page: null,
        created_at: STAMP,
        updated_at: STAMP,
      },
      status: 200,
    });
  });

  it('requires a name, unique across all workspaces', async () => {
    const { mgmt, empty } = setup();
    expect(
      (await read(await mgmt('POST', 'domains', { form: { index_page: 'https://x.test' } }))).body,
    ).toEqual({
      message: { name: ['The name field is required.'] },
      status: 422,
    });
    expect(
      (await read(await mgmt('POST', 'domains', { key: empty, form: { name: 'Beta.Example.io' } }))).body,
    ).toEqual({ message: { name: ['The name has already been taken.'] }, status: 422 });
  });

  it('ignores a name on update and clears a page sent empty', async () => {
    const { mgmt } = setup({ now: () => NOW });
    const res = await read(
      await mgmt('PUT', 'domains/1', {
        form: { name: 'renamed.example.com', not_found_page: '', index_page: 'https://n.test' },
      }),
    );
    expect(res).toEqual({
      status: 200,
      body: {
        data: {
          id: 1,
          name: 'links.example.com',
          url: 'https://links.example.com',
          index_page: 'https://n.test',
          not_found_page: null,
          created_at: '2025-01-15T10:32:30.000000Z',
          updated_at: STAMP,
        },
        status: 200,
      },
    });
  });

  it('deletes with object: domain', async () => {
    const { mgmt } = setup();
    expect((await read(await mgmt('DELETE', 'domains/2'))).body).toEqual({
      id: 2,
      object: 'domain',
      deleted: true,
      status: 200,
    });
  });

  it('reset() restores the seed', async () => {
    const { mgmt, server, alpha } = setup();
    await mgmt('DELETE', 'domains/2');
    await mgmt('POST', 'pixels', { form: { name: 'n', type: 'x', value: '1' } });
    server.reset();
    expect(server.store.domains(alpha).map((d) => d.id)).toEqual([1, 2, 3]);
    expect(server.store.pixels(alpha)).toHaveLength(12);
    expect(
      (await read(await mgmt('POST', 'pixels', { form: { name: 'n', type: 'x', value: '1' } }))).body.data.id,
    ).toBe(15);
  });

  it('seed: false starts empty with the keys still valid', async () => {
    const { mgmt, server, alpha } = setup({ seed: false });
    expect((await read(await mgmt('GET', 'pixels'))).body.meta.total).toBe(0);
    expect(
      (await read(await mgmt('POST', 'pixels', { form: { name: 'n', type: 'x', value: '1' } }))).body.data.id,
    ).toBe(1);
    expect(server.store.pixels(alpha)).toHaveLength(1);
  });
});
