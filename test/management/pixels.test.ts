import { HttpResponse, http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  InvalidParamsError,
  ManagementClient,
  NotFoundError,
  type Pixel,
  type PixelType,
  ResponseValidationError,
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
  wirePixel,
} from './fixtures.js';

const msw = useMsw();
const client = () => new ManagementClient({ baseUrl: BASE_URL, apiKey: SECRET, maxRetries: 0 });

describe('Pixels.list', () => {
  it('sends every filter in the query and returns the unwrapped page', async () => {
    const pixels = [wirePixel({ id: 7, name: 'Alpha' }), wirePixel({ id: 3, name: 'Beta' })];
    msw.use(
      http.get(`${ROOT}/pixels`, () =>
        laravel(laravelPage(pixels, { resource: 'pixels', perPage: 25, query: 'type=facebook' })),
      ),
    );
    const page = await client().pixels.list({
      search: 'Al pha',
      search_by: 'name',
      type: 'facebook',
      sort_by: 'name',
      sort: 'asc',
      per_page: 25,
    });
    expect(msw.captured).toHaveLength(1);
    const [request] = msw.captured;
    expect(request?.method).toBe('GET');
    expect(request?.url).toBe(
      `${ROOT}/pixels?search=Al+pha&search_by=name&type=facebook&sort_by=name&sort=asc&per_page=25`,
    );
    expect(request?.headers).toMatchObject(COMMON_HEADERS);
    expect(request?.headers['content-type']).toBeUndefined();
    expect(request?.body).toBe('');
    expect(page.data).toEqual([
      {
        id: 7,
        name: 'Alpha',
        type: 'facebook',
        value: '123457',
        created_at: '2025-01-15T10:20:30.123456Z',
        updated_at: '2025-01-15T10:20:30.123456Z',
      },
      {
        id: 3,
        name: 'Beta',
        type: 'facebook',
        value: '123453',
        created_at: '2025-01-15T10:20:30.123456Z',
        updated_at: '2025-01-15T10:20:30.123456Z',
      },
    ]);
    expect(page.meta).toEqual({ current_page: 1, last_page: 1, per_page: 25, total: 2, from: 1, to: 2 });
    expect(page.hasNextPage()).toBe(false);
  });

  it('sends only page=1 when no filter is given', async () => {
    msw.use(http.get(`${ROOT}/pixels`, () => laravel(laravelPage([], { resource: 'pixels' }))));
    const page = await client().pixels.list();
    expect(msw.captured[0]?.url).toBe(`${ROOT}/pixels`);
    expect(page.data).toEqual([]);
    expect(page.meta).toEqual({
      current_page: 1,
      last_page: 1,
      per_page: 10,
      total: 0,
      from: null,
      to: null,
    });
  });

  it('starts at the page asked for', async () => {
    const all = Array.from({ length: 30 }, (_, i) => wirePixel({ id: i + 1 }));
    msw.use(
      http.get(`${ROOT}/pixels`, ({ request }) =>
        laravel(
          laravelPage(all, {
            resource: 'pixels',
            page: Number(new URL(request.url).searchParams.get('page')),
          }),
        ),
      ),
    );
    const page = await client().pixels.list({ page: 2 });
    expect(msw.captured[0]?.url).toBe(`${ROOT}/pixels?page=2`);
    expect(page.data.map((p) => p.id)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(page.meta).toMatchObject({ current_page: 2, last_page: 3, from: 11, to: 20, total: 30 });
    expect(page.hasNextPage()).toBe(true);
  });

  it.each([
    [{ per_page: 30 }, 'per_page', 'per_page must be one of 10, 25, 50, 100; got 30'],
    [{ per_page: '25' }, 'per_page', 'per_page must be one of 10, 25, 50, 100; got "25"'],
    [{ sort: 'up' }, 'sort', 'sort must be one of desc, asc; got "up"'],
    [{ sort_by: 'created' }, 'sort_by', 'sort_by must be one of id, name; got "created"'],
    [{ search_by: 'email' }, 'search_by', 'search_by must be one of name; got "email"'],
    [{ type: 'facebok' }, 'type', 'type must be one of adroll, bing, facebook, google-ads'],
    [{ page: 0 }, 'page', 'page must be a whole number of at least 1; got 0'],
    [{ page: -1 }, 'page', 'page must be a whole number of at least 1; got -1'],
    [{ page: 1.5 }, 'page', 'page must be a whole number of at least 1; got 1.5'],
    [{ search: 5 }, 'search', 'search must be a string; got 5'],
    [
      { pagesize: 25 },
      'pagesize',
      'unknown parameter "pagesize"; the parameters are search, search_by, type, sort_by, sort, per_page, page.',
    ],
    [{ perPage: 25 }, 'perPage', 'unknown parameter "perPage"; did you mean per_page?'],
  ])('rejects %j before any request', async (params, param, message) => {
    const error = await failure(() => client().pixels.list(params as never));
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as InvalidParamsError).param).toBe(param);
    expect(error.message).toContain(`pixels.list: ${message}`);
    expect(msw.captured).toHaveLength(0);
  });

  it('rejects parameters that are not an object', async () => {
    const error = await failure(() => client().pixels.list('facebook' as never));
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect(error.message).toBe('pixels.list: the parameters must be an object; got "facebook".');
    expect(msw.captured).toHaveLength(0);
  });

  it('types the filters as the spec enums', () => {
    type Params = NonNullable<Parameters<ManagementClient['pixels']['list']>[0]>;
    expectTypeOf<Params['per_page']>().toEqualTypeOf<10 | 25 | 50 | 100 | undefined>();
    expectTypeOf<Params['sort']>().toEqualTypeOf<'asc' | 'desc' | undefined>();
    expectTypeOf<Params['type']>().toEqualTypeOf<PixelType | undefined>();
  });
});

describe('Pixels.get', () => {
  it('GETs pixels/{id} and unwraps data, dropping unknown fields', async () => {
    msw.use(
      http.get(`${ROOT}/pixels/42`, () =>
        laravel(showBody(wirePixel({ id: 42, name: 'GA', type: 'google-analytics', user_id: 9 }))),
      ),
    );
    const pixel = await client().pixels.get(42);
    expect(msw.captured).toHaveLength(1);
    expect(msw.captured[0]).toMatchObject({ method: 'GET', url: `${ROOT}/pixels/42`, body: '' });
    expect(msw.captured[0]?.headers).toMatchObject(COMMON_HEADERS);
    expect(pixel).toEqual({
      id: 42,
      name: 'GA',
      type: 'google-analytics',
      value: '1234542',
      created_at: '2025-01-15T10:20:30.123456Z',
      updated_at: '2025-01-15T10:20:30.123456Z',
    });
  });

  it('keeps a pixel type newer than the SDK as sent', async () => {
    msw.use(http.get(`${ROOT}/pixels/5`, () => laravel(showBody(wirePixel({ id: 5, type: 'tiktok' })))));
    const pixel = await client().pixels.get('5');
    expect(pixel.type).toBe('tiktok');
    expectTypeOf(pixel).toEqualTypeOf<Pixel>();
    expectTypeOf<'facebook'>().toExtend<Pixel['type']>();
  });

  it('accepts a bare entity and a string id from a server that only follows the spec', async () => {
    msw.use(
      http.get(`${ROOT}/pixels/8`, () =>
        HttpResponse.json({ id: '8', name: 'Bing', type: 'bing', value: 'b-1' }),
      ),
    );
    await expect(client().pixels.get(8)).resolves.toEqual({
      id: 8,
      name: 'Bing',
      type: 'bing',
      value: 'b-1',
    });
  });

  it('gives the raw response with rate-limit headers', async () => {
    msw.use(http.get(`${ROOT}/pixels/1`, () => laravel(showBody(wirePixel()))));
    const { data, response } = await client().pixels.get(1).withResponse();
    expect(data.id).toBe(1);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(msw.captured).toHaveLength(1);
  });

  it.each(['../x', '', '1/2', -1, 1.5])('rejects the id %j before any request', async (id) => {
    const error = await failure(() => client().pixels.get(id));
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect(msw.captured).toHaveLength(0);
  });

  it('maps a 404 to NotFoundError with the server message', async () => {
    msw.use(
      http.get(`${ROOT}/pixels/99`, () => laravel({ message: 'Resource not found.', status: 404 }, 404)),
    );
    const error = await failure(() => client().pixels.get(99));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).status).toBe(404);
    expect(error.message).toContain('"Resource not found."');
  });

  it('rejects a body without the pixel fields with ResponseValidationError', async () => {
    msw.use(http.get(`${ROOT}/pixels/1`, () => laravel({ data: { id: 1, name: 'x' }, status: 200 })));
    const error = await failure(() => client().pixels.get(1));
    expect(error).toBeInstanceOf(ResponseValidationError);
  });
});

describe('Pixels.create', () => {
  it('POSTs the form body and reads the 201 answer', async () => {
    msw.use(
      http.post(`${ROOT}/pixels`, () =>
        laravel(showBody(wirePixel({ id: 12, name: 'FB', type: 'facebook', value: '123' })), 201),
      ),
    );
    const pixel = await client().pixels.create({ name: 'FB', type: 'facebook', value: '123' });
    expect(msw.captured).toHaveLength(1);
    const [request] = msw.captured;
    expect(request).toMatchObject({
      method: 'POST',
      url: `${ROOT}/pixels`,
      body: 'name=FB&type=facebook&value=123',
    });
    expect(request?.headers).toMatchObject({ ...COMMON_HEADERS, 'content-type': FORM });
    expect(pixel).toMatchObject({ id: 12, name: 'FB', type: 'facebook', value: '123' });
  });

  it('form-encodes spaces, ampersands and non-ASCII', async () => {
    msw.use(http.post(`${ROOT}/pixels`, () => laravel(showBody(wirePixel({ name: 'بكسل & co' })), 201)));
    const pixel = await client().pixels.create({ name: 'بكسل & co', type: 'x', value: 'a=b' });
    expect(msw.captured[0]?.body).toBe(
      `name=${encodeURIComponent('بكسل').replace(/%20/g, '+')}+%26+co&type=x&value=a%3Db`,
    );
    expect(pixel.name).toBe('بكسل & co');
  });

  it.each([
    [
      { type: 'facebook', value: '1' },
      'name',
      'pixels.create: name is required: a non-empty string of at most 32 characters.',
    ],
    [
      { name: '', type: 'facebook', value: '1' },
      'name',
      'pixels.create: name must be a non-empty string of at most 32 characters; got "".',
    ],
    [{ name: 'FB', value: '1' }, 'type', 'pixels.create: type is required: one of adroll, bing, facebook,'],
    [
      { name: 'FB', type: 'tiktok', value: '1' },
      'type',
      'type must be one of adroll, bing, facebook, google-ads, google-analytics, google-tag-manager, linkedin, pinterest, quora, x; got "tiktok".',
    ],
    [
      { name: 'x'.repeat(33), type: 'facebook', value: '1' },
      'name',
      // Past 16 characters a value shows its last four only: it may be a key or a purchase code pasted there.
      'pixels.create: name must be a non-empty string of at most 32 characters; got "***xxxx".',
    ],
    [{ name: 'FB', type: 'facebook' }, 'value', 'pixels.create: value is required'],
    [{ name: 'FB', type: 'facebook', value: 123 }, 'value', 'value must be a non-empty string; got 123.'],
    [
      { name: 'FB', type: 'facebook', value: '1', id: 3 },
      'id',
      'pixels.create: unknown parameter "id"; the parameters are name, type, value.',
    ],
  ])('rejects %j before any request', async (params, param, message) => {
    const error = await failure(() => client().pixels.create(params as never));
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as InvalidParamsError).param).toBe(param);
    expect(error.message).toContain(message);
    expect(msw.captured).toHaveLength(0);
  });

  it('maps a 422 field map under message to fieldErrors', async () => {
    msw.use(
      http.post(`${ROOT}/pixels`, () =>
        laravel(
          {
            message: { name: ['The name has already been taken.'], value: ['Too long.', 'Bad.'] },
            status: 422,
          },
          422,
        ),
      ),
    );
    const error = await failure(() => client().pixels.create({ name: 'FB', type: 'facebook', value: '1' }));
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as UnprocessableEntityError).fieldErrors).toEqual({
      name: ['The name has already been taken.'],
      value: ['Too long.', 'Bad.'],
    });
    expect(error.message).toContain('The name has already been taken.');
  });

  it('is not retried after a 5xx, so a pixel is never created twice', async () => {
    msw.use(http.post(`${ROOT}/pixels`, () => laravel({ message: 'Server Error' }, 503)));
    const mgmt = new ManagementClient({ baseUrl: BASE_URL, apiKey: SECRET, maxRetries: 2 });
    await failure(() => mgmt.pixels.create({ name: 'FB', type: 'facebook', value: '1' }));
    expect(msw.captured).toHaveLength(1);
  });
});

describe('Pixels.update', () => {
  it('PUTs only the fields given', async () => {
    msw.use(http.put(`${ROOT}/pixels/12`, () => laravel(showBody(wirePixel({ id: 12, name: 'FB 2' })))));
    const pixel = await client().pixels.update(12, { name: 'FB 2', value: undefined });
    expect(msw.captured).toHaveLength(1);
    const [request] = msw.captured;
    expect(request).toMatchObject({ method: 'PUT', url: `${ROOT}/pixels/12`, body: 'name=FB+2' });
    expect(request?.headers).toMatchObject({ ...COMMON_HEADERS, 'content-type': FORM });
    expect(pixel).toMatchObject({ id: 12, name: 'FB 2' });
  });

  it('sends every field given', async () => {
    msw.use(http.put(`${ROOT}/pixels/3`, () => laravel(showBody(wirePixel({ id: 3 })))));
    await client().pixels.update('3', { name: 'LI', type: 'linkedin', value: '99' });
    expect(msw.captured[0]?.body).toBe('name=LI&type=linkedin&value=99');
  });

  it.each([
    [{ type: 'linked-in' }, 'type'],
    [{ name: '' }, 'name'],
    [{ colour: 'red' }, 'colour'],
  ])('rejects %j before any request', async (params, param) => {
    const error = await failure(() => client().pixels.update(1, params as never));
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as InvalidParamsError).param).toBe(param);
    expect(error.message).toMatch(/^pixels\.update: /);
    expect(msw.captured).toHaveLength(0);
  });

  it('maps a 404 to NotFoundError', async () => {
    msw.use(
      http.put(`${ROOT}/pixels/77`, () => laravel({ message: 'Resource not found.', status: 404 }, 404)),
    );
    await expect(client().pixels.update(77, { name: 'x' })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('Pixels.delete', () => {
  it('DELETEs pixels/{id} and returns the receipt', async () => {
    msw.use(http.delete(`${ROOT}/pixels/12`, () => laravel(deleteBody(12, 'pixel'))));
    const receipt = await client().pixels.delete(12);
    expect(msw.captured).toHaveLength(1);
    expect(msw.captured[0]).toMatchObject({ method: 'DELETE', url: `${ROOT}/pixels/12`, body: '' });
    expect(msw.captured[0]?.headers).toMatchObject(COMMON_HEADERS);
    expect(receipt).toEqual({ id: 12, object: 'pixel', deleted: true });
  });

  it('resolves a 204 No Content to the receipt it would have sent, from one request', async () => {
    msw.use(http.delete(`${ROOT}/pixels/12`, () => new HttpResponse(null, { status: 204 })));
    const { data, response } = await client().pixels.delete('12').withResponse();
    expect(data).toEqual({ id: 12, object: 'pixel', deleted: true });
    expect(response.status).toBe(204);
    expect(msw.captured).toHaveLength(1);
  });

  it('still refuses an empty 200 (a cut answer) and a 204 to a GET: ResponseValidationError', async () => {
    msw.use(
      http.delete(`${ROOT}/pixels/12`, () => new HttpResponse('', { status: 200 })),
      http.get(`${ROOT}/pixels/12`, () => new HttpResponse(null, { status: 204 })),
    );
    const deleted = await client()
      .pixels.delete(12)
      .catch((e: unknown) => e);
    expect(deleted).toBeInstanceOf(ResponseValidationError);
    expect((deleted as Error).message).toBe(
      `DELETE ${ROOT}/pixels/12 answered 200 but not with JSON: the body was empty`,
    );
    const got = await client()
      .pixels.get(12)
      .catch((e: unknown) => e);
    expect(got).toBeInstanceOf(ResponseValidationError);
    expect((got as Error).message).toBe(
      `GET ${ROOT}/pixels/12 answered 204 but not with JSON: the body was empty`,
    );
  });

  it('maps a 404 to NotFoundError', async () => {
    msw.use(
      http.delete(`${ROOT}/pixels/12`, () => laravel({ message: 'Resource not found.', status: 404 }, 404)),
    );
    await expect(client().pixels.delete(12)).rejects.toBeInstanceOf(NotFoundError);
  });
});
