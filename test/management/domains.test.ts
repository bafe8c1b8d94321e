import { HttpResponse, http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type Domain,
  InvalidParamsError,
  ManagementClient,
  NotFoundError,
  UnprocessableEntityError,
} from '../../src/index.js';
import { useMsw } from '../helpers/msw.js';
import {
  BASE_URL,
  COMMON_HEADERS,
  deleteBody,
  FORM,
  failure,
  laravel,
  laravelPage,
  ROOT,
  SECRET,
  showBody,
  wireDomain,
} from './fixtures.js';

const msw = useMsw();
const client = () => new ManagementClient({ baseUrl: BASE_URL, apiKey: SECRET, maxRetries: 0 });

describe('Domains.list', () => {
  it('sends every filter in the query and returns the unwrapped page', async () => {
    const domains = [
      wireDomain({ id: 2, name: 'a.example.com' }),
      wireDomain({ id: 1, name: 'b.example.com' }),
    ];
    msw.use(
      http.get(`${ROOT}/domains`, () => laravel(laravelPage(domains, { resource: 'domains', perPage: 50 }))),
    );
    const page = await client().domains.list({
      search: 'example',
      search_by: 'name',
      sort_by: 'id',
      sort: 'desc',
      per_page: 50,
    });
    expect(msw.captured).toHaveLength(1);
    expect(msw.captured[0]).toMatchObject({
      method: 'GET',
      url: `${ROOT}/domains?search=example&search_by=name&sort_by=id&sort=desc&per_page=50`,
      body: '',
    });
    expect(msw.captured[0]?.headers).toMatchObject(COMMON_HEADERS);
    expect(page.data).toEqual([
      {
        id: 2,
        name: 'a.example.com',
        url: 'https://a.example.com',
        index_page: 'https://www.example.com/home',
        not_found_page: null,
        created_at: '2025-01-15T10:20:30.123456Z',
        updated_at: '2025-01-15T10:20:30.123456Z',
      },
      expect.objectContaining({ id: 1, name: 'b.example.com' }),
    ]);
    expect(page.meta).toEqual({ current_page: 1, last_page: 1, per_page: 50, total: 2, from: 1, to: 2 });
  });

  it.each([
    [{ per_page: 5 }, 'per_page', 'per_page must be one of 10, 25, 50, 100; got 5.'],
    [{ sort: 'ascending' }, 'sort', 'sort must be one of desc, asc; got "ascending".'],
    [{ sort_by: 'created' }, 'sort_by', 'sort_by must be one of id, name; got "created".'],
    [{ search_by: 'url' }, 'search_by', 'search_by must be one of name; got "url".'],
    [{ page: 0 }, 'page', 'page must be a whole number of at least 1; got 0.'],
    [{ type: 'facebook' }, 'type', 'unknown parameter "type"'],
  ])('rejects %j before any request', async (params, param, message) => {
    const error = await failure(() => client().domains.list(params as never));
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as InvalidParamsError).param).toBe(param);
    expect(error.message).toContain(`domains.list: ${message}`);
    expect(msw.captured).toHaveLength(0);
  });
});

describe('Domains.get', () => {
  it('GETs domains/{id} and reads null pages and extra fields', async () => {
    msw.use(
      http.get(`${ROOT}/domains/4`, () =>
        laravel(showBody(wireDomain({ id: 4, index_page: null, not_found_page: null, user_id: 1 }))),
      ),
    );
    const domain = await client().domains.get(4);
    expect(msw.captured[0]).toMatchObject({ method: 'GET', url: `${ROOT}/domains/4` });
    expect(msw.captured[0]?.headers).toMatchObject(COMMON_HEADERS);
    expect(domain).toEqual({
      id: 4,
      name: 'go4.example.com',
      url: 'https://go4.example.com',
      index_page: null,
      not_found_page: null,
      created_at: '2025-01-15T10:20:30.123456Z',
      updated_at: '2025-01-15T10:20:30.123456Z',
    });
    expectTypeOf(domain.index_page).toEqualTypeOf<string | null>();
  });

  it('gives null pages when a spec-only server leaves them out', async () => {
    msw.use(http.get(`${ROOT}/domains/4`, () => laravel({ data: { id: 4, name: 'go.example.com' } })));
    await expect(client().domains.get(4)).resolves.toEqual({
      id: 4,
      name: 'go.example.com',
      index_page: null,
      not_found_page: null,
    } satisfies Domain);
  });

  it('maps a 404 to NotFoundError', async () => {
    msw.use(
      http.get(`${ROOT}/domains/9`, () => laravel({ message: 'Resource not found.', status: 404 }, 404)),
    );
    await expect(client().domains.get(9)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('Domains.create', () => {
  it('POSTs name and the pages given, and reads the 201 answer', async () => {
    const created = wireDomain({ id: 6, name: 'go.example.com', index_page: 'https://example.com/' });
    msw.use(http.post(`${ROOT}/domains`, () => laravel(showBody(created), 201)));
    const domain = await client().domains.create({
      name: 'go.example.com',
      index_page: 'https://example.com/',
    });
    expect(msw.captured).toHaveLength(1);
    expect(msw.captured[0]).toMatchObject({
      method: 'POST',
      url: `${ROOT}/domains`,
      body: 'name=go.example.com&index_page=https%3A%2F%2Fexample.com%2F',
    });
    expect(msw.captured[0]?.headers).toMatchObject({ ...COMMON_HEADERS, 'content-type': FORM });
    expect(domain).toMatchObject({
      id: 6,
      url: 'https://go.example.com',
      index_page: 'https://example.com/',
    });
  });

  it('sends the name alone when no page is given', async () => {
    msw.use(http.post(`${ROOT}/domains`, () => laravel(showBody(wireDomain()), 201)));
    await client().domains.create({ name: 'go.example.com', not_found_page: undefined });
    expect(msw.captured[0]?.body).toBe('name=go.example.com');
  });

  it.each([
    [{}, 'name', 'domains.create: name is required: a non-empty string.'],
    [{ name: '' }, 'name', 'domains.create: name must be a non-empty string; got "".'],
    [{ name: 'a.com', index_page: '' }, 'index_page', 'index_page must be a non-empty string; got "".'],
    [{ name: 'a.com', url: 'https://a.com' }, 'url', 'unknown parameter "url"'],
  ])('rejects %j before any request', async (params, param, message) => {
    const error = await failure(() => client().domains.create(params as never));
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as InvalidParamsError).param).toBe(param);
    expect(error.message).toContain(message);
    expect(msw.captured).toHaveLength(0);
  });

  it('maps a plan quota (422 under message) to fieldErrors', async () => {
    msw.use(
      http.post(`${ROOT}/domains`, () =>
        laravel({ message: { name: ['You created too many domains.'] }, status: 422 }, 422),
      ),
    );
    const error = await failure(() => client().domains.create({ name: 'a.example.com' }));
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as UnprocessableEntityError).fieldErrors).toEqual({
      name: ['You created too many domains.'],
    });
  });
});

describe('Domains.update', () => {
  it('PUTs only the pages given', async () => {
    msw.use(
      http.put(`${ROOT}/domains/6`, () =>
        laravel(showBody(wireDomain({ id: 6, not_found_page: 'https://example.com/404' }))),
      ),
    );
    const domain = await client().domains.update(6, { not_found_page: 'https://example.com/404' });
    expect(msw.captured).toHaveLength(1);
    expect(msw.captured[0]).toMatchObject({
      method: 'PUT',
      url: `${ROOT}/domains/6`,
      body: 'not_found_page=https%3A%2F%2Fexample.com%2F404',
    });
    expect(msw.captured[0]?.headers).toMatchObject({ ...COMMON_HEADERS, 'content-type': FORM });
    expect(domain.not_found_page).toBe('https://example.com/404');
  });

  it('clears a page given as null by sending it empty', async () => {
    msw.use(http.put(`${ROOT}/domains/6`, () => laravel(showBody(wireDomain({ id: 6, index_page: null })))));
    const domain = await client().domains.update(6, { index_page: null });
    expect(msw.captured[0]?.body).toBe('index_page=');
    expect(domain.index_page).toBeNull();
  });

  it('refuses a name: a domain name cannot change', async () => {
    const error = await failure(() => client().domains.update(6, { name: 'other.com' } as never));
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as InvalidParamsError).param).toBe('name');
    expect(error.message).toContain(
      'domains.update: unknown parameter "name"; the parameters are index_page, not_found_page.',
    );
    expect(msw.captured).toHaveLength(0);
  });
});

describe('Domains.delete', () => {
  it('DELETEs domains/{id} and returns the receipt', async () => {
    msw.use(http.delete(`${ROOT}/domains/6`, () => laravel(deleteBody(6, 'domain'))));
    const receipt = await client().domains.delete(6);
    expect(msw.captured).toHaveLength(1);
    expect(msw.captured[0]).toMatchObject({ method: 'DELETE', url: `${ROOT}/domains/6`, body: '' });
    expect(msw.captured[0]?.headers).toMatchObject(COMMON_HEADERS);
    expect(receipt).toEqual({ id: 6, object: 'domain', deleted: true });
  });

  it('resolves a 204 No Content to the receipt it would have sent', async () => {
    msw.use(http.delete(`${ROOT}/domains/6`, () => new HttpResponse(null, { status: 204 })));
    await expect(client().domains.delete(6)).resolves.toEqual({ id: 6, object: 'domain', deleted: true });
    expect(msw.captured).toHaveLength(1);
  });

  it('rejects a bad id before any request', async () => {
    const error = await failure(() => client().domains.delete('6; DROP'));
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect(msw.captured).toHaveLength(0);
  });
});
