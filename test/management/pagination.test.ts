import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  ContentPlatformError,
  InvalidParamsError,
  ManagementClient,
  NotFoundError,
  Page,
  type Pixel,
  ResponseValidationError,
} from '../../src/index.js';
import { useMsw } from '../helpers/msw.js';
import { BASE_URL, failure, laravel, laravelPage, ROOT, SECRET, wireDomain, wirePixel } from './fixtures.js';

const msw = useMsw();
const client = () => new ManagementClient({ baseUrl: BASE_URL, apiKey: SECRET, maxRetries: 0 });
const pageOf = (url: string) => Number(new URL(url).searchParams.get('page') ?? '1');

describe('Pixels.list pages', () => {
  const all = Array.from({ length: 23 }, (_, i) => wirePixel({ id: i + 1, type: 'bing' }));
  const serve = (linkBase?: string) =>
    msw.use(
      http.get(`${ROOT}/pixels`, ({ request }) =>
        laravel(
          laravelPage(all, {
            resource: 'pixels',
            page: pageOf(request.url),
            perPage: 10,
            query: 'type=bing&sort=asc&per_page=10',
            ...(linkBase ? { linkBase } : {}),
          }),
        ),
      ),
    );

  it('walks every item across three pages with for await, carrying the filters to each page', async () => {
    serve();
    const ids: number[] = [];
    for await (const pixel of client().pixels.list({ type: 'bing', sort: 'asc', per_page: 10 })) {
      ids.push(pixel.id);
    }
    expect(ids).toEqual(all.map((p) => p.id));
    expect(msw.captured.map((r) => r.url)).toEqual([
      `${ROOT}/pixels?type=bing&sort=asc&per_page=10`,
      `${ROOT}/pixels?type=bing&sort=asc&per_page=10&page=2`,
      `${ROOT}/pixels?type=bing&sort=asc&per_page=10&page=3`,
    ]);
  });

  it('fetches one page at a time, only when the loop needs it', async () => {
    serve();
    const seen: number[] = [];
    for await (const pixel of client().pixels.list({ per_page: 10 })) {
      seen.push(msw.captured.length);
      if (pixel.id === 12) break;
    }
    // Items 1-10 came with one request, 11-12 with the second; breaking stops the walk.
    expect(seen).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2]);
    expect(msw.captured).toHaveLength(2);
  });

  it('walks from the page asked for', async () => {
    serve();
    const ids: number[] = [];
    for await (const pixel of client().pixels.list({ page: 2, per_page: 10 })) ids.push(pixel.id);
    expect(ids).toEqual(all.slice(10).map((p) => p.id));
    expect(msw.captured.map((r) => pageOf(r.url))).toEqual([2, 3]);
  });

  it('getNextPage fetches the next page with the same filters; hasNextPage is false on the last', async () => {
    serve();
    const first = await client().pixels.list({ type: 'bing', per_page: 10 });
    expect(first).toBeInstanceOf(Page);
    expect(first.hasNextPage()).toBe(true);
    const second = await first.getNextPage();
    const third = await second.getNextPage();
    expect(second.meta).toEqual({ current_page: 2, last_page: 3, per_page: 10, total: 23, from: 11, to: 20 });
    expect(third.data.map((p) => p.id)).toEqual([21, 22, 23]);
    expect(third.hasNextPage()).toBe(false);
    expect(() => third.getNextPage()).toThrow('There is no page after page 3');
    expect(msw.captured[2]?.url).toBe(`${ROOT}/pixels?type=bing&per_page=10&page=3`);
  });

  it('never follows links.next to another origin: the next request goes to our own host', async () => {
    serve('https://evil.example.net/api/v1');
    msw.use(
      http.get('https://evil.example.net/*', () => {
        throw new Error('the key was sent to another origin');
      }),
    );
    const items: Pixel[] = [];
    for await (const pixel of client().pixels.list({ per_page: 10 })) items.push(pixel);
    expect(items).toHaveLength(23);
    expect(msw.captured.every((r) => r.url.startsWith(`${ROOT}/pixels`))).toBe(true);
    expect(msw.captured).toHaveLength(3);
  });

  it('fails the walk on an empty page whose meta claims more, after the items before it', async () => {
    msw.use(
      http.get(`${ROOT}/pixels`, ({ request }) => {
        const page = pageOf(request.url);
        const data = page === 1 ? [wirePixel({ id: 1 }), wirePixel({ id: 2 })] : [];
        return laravel({ data, meta: { current_page: page, last_page: 9, per_page: 10, total: 90 } }, 200, {
          'x-request-id': `req-${page}`,
        });
      }),
    );
    const ids: number[] = [];
    const error = await failure(async () => {
      for await (const pixel of client().pixels.list()) ids.push(pixel.id);
    });
    expect(ids).toEqual([1, 2]);
    expect(error).toBeInstanceOf(ContentPlatformError);
    expect(error).toMatchObject({
      name: 'ContentPlatformError',
      message:
        `GET ${ROOT}/pixels?page=2: page 2 is empty, yet its meta says the list has 9 pages (90 items); ` +
        'the list walk stops here rather than skip the rest.',
      attempts: 1,
      requestId: 'req-2',
    });
    expect(msw.captured.map((r) => r.url)).toEqual([`${ROOT}/pixels`, `${ROOT}/pixels?page=2`]);
  });

  it('fails the walk when a proxy answers page 1 again instead of page 2, rather than loop', async () => {
    msw.use(
      http.get(`${ROOT}/pixels`, () =>
        laravel({
          data: [wirePixel({ id: 1 })],
          meta: { current_page: 1, last_page: 3, per_page: 10, total: 3 },
        }),
      ),
    );
    const ids: number[] = [];
    const error = await failure(async () => {
      for await (const pixel of client().pixels.list({ per_page: 10 })) ids.push(pixel.id);
    });
    expect(ids).toEqual([1]);
    expect(error).toBeInstanceOf(ContentPlatformError);
    expect((error as Error).message).toBe(
      `GET ${ROOT}/pixels?per_page=10&page=2: asked for page 2, the answer is page 1 (meta.current_page). ` +
        'A proxy or cache may be answering with one page again; the list walk stops here rather than loop.',
    );
    expect(msw.captured).toHaveLength(2);
  });

  it('rejects a page asked for directly when the answer is another page', async () => {
    msw.use(
      http.get(`${ROOT}/pixels`, () =>
        laravel({ data: [wirePixel({ id: 1 })], meta: { current_page: 1, last_page: 3 } }),
      ),
    );
    await expect(client().pixels.list({ page: 3 })).rejects.toThrow(
      `GET ${ROOT}/pixels?page=3: asked for page 3, the answer is page 1`,
    );
  });

  it('reads a meta sent as numeric strings as numbers, and walks on from it', async () => {
    msw.use(
      http.get(`${ROOT}/pixels`, ({ request }) => {
        const page = pageOf(request.url);
        const meta = { current_page: String(page), last_page: '2', per_page: '10', total: '11' };
        const range = page === 1 ? { from: '1', to: '10' } : { from: '11', to: '11' };
        const ids = page === 1 ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] : [11];
        return laravel({ data: ids.map((id) => wirePixel({ id })), meta: { ...meta, ...range } });
      }),
    );
    const first = await client().pixels.list({ per_page: 10 });
    expect(first.meta).toEqual({ current_page: 1, last_page: 2, per_page: 10, total: 11, from: 1, to: 10 });
    const ids: number[] = [];
    for await (const pixel of client().pixels.list({ per_page: 10 })) ids.push(pixel.id);
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it.each(['1.5', '-1', 'one', ''])(
    'refuses a meta number sent as %j: ResponseValidationError',
    async (sent) => {
      msw.use(
        http.get(`${ROOT}/pixels`, () =>
          laravel({ data: [wirePixel({ id: 1 })], meta: { current_page: 1, last_page: sent } }),
        ),
      );
      const error = await failure(() => client().pixels.list());
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).issues.map((issue) => issue.path.join('.'))).toContain(
        'meta.last_page',
      );
    },
  );

  it('reads { data } without meta as a single page', async () => {
    msw.use(
      http.get(`${ROOT}/pixels`, () => laravel({ data: [wirePixel({ id: 1 }), wirePixel({ id: 2 })] })),
    );
    const page = await client().pixels.list();
    expect(page.meta).toEqual({ current_page: 1, last_page: 1, per_page: 2, total: 2, from: 1, to: 2 });
    expect(page.hasNextPage()).toBe(false);
    const ids: number[] = [];
    for await (const pixel of client().pixels.list()) ids.push(pixel.id);
    expect(ids).toEqual([1, 2]);
    expect(msw.captured).toHaveLength(2);
  });

  it('reads a bare array as a single page', async () => {
    msw.use(
      http.get(`${ROOT}/domains`, () => HttpResponse.json([wireDomain({ id: 5 }), wireDomain({ id: 6 })])),
    );
    const page = await client().domains.list({ per_page: 100 });
    expect(page.data.map((d) => d.id)).toEqual([5, 6]);
    expect(page.meta).toEqual({ current_page: 1, last_page: 1, per_page: 2, total: 2, from: 1, to: 2 });
    const ids: number[] = [];
    for await (const domain of client().domains.list({ per_page: 100 })) ids.push(domain.id);
    expect(ids).toEqual([5, 6]);
    expect(msw.captured).toHaveLength(2);
  });

  it('walks domains across pages too', async () => {
    const domains = Array.from({ length: 25 }, (_, i) => wireDomain({ id: i + 1 }));
    msw.use(
      http.get(`${ROOT}/domains`, ({ request }) =>
        laravel(laravelPage(domains, { resource: 'domains', page: pageOf(request.url), perPage: 10 })),
      ),
    );
    let count = 0;
    for await (const _ of client().domains.list({ search: 'go', sort_by: 'name' })) count++;
    expect(count).toBe(25);
    expect(msw.captured.map((r) => r.url)).toEqual([
      `${ROOT}/domains?search=go&sort_by=name`,
      `${ROOT}/domains?search=go&sort_by=name&page=2`,
      `${ROOT}/domains?search=go&sort_by=name&page=3`,
    ]);
  });

  it('rejects the walk with the error of a failing page, after the items before it', async () => {
    msw.use(
      http.get(`${ROOT}/pixels`, ({ request }) =>
        pageOf(request.url) === 1
          ? laravel(laravelPage(all, { resource: 'pixels' }))
          : laravel({ message: 'Resource not found.', status: 404 }, 404),
      ),
    );
    const ids: number[] = [];
    const error = await failure(async () => {
      for await (const pixel of client().pixels.list()) ids.push(pixel.id);
    });
    expect(error).toBeInstanceOf(NotFoundError);
    expect(ids).toHaveLength(10);
  });

  it('toArray({ limit }) gives the first items across pages and asks for no page past the limit', async () => {
    serve();
    const pixels = await client()
      .pixels.list({ type: 'bing', sort: 'asc', per_page: 10 })
      .toArray({ limit: 15 });
    expect(pixels.map((p) => p.id)).toEqual(all.slice(0, 15).map((p) => p.id));
    expect(msw.captured.map((r) => r.url)).toEqual([
      `${ROOT}/pixels?type=bing&sort=asc&per_page=10`,
      `${ROOT}/pixels?type=bing&sort=asc&per_page=10&page=2`,
    ]);
  });

  it('toArray without a valid limit rejects with InvalidParamsError', async () => {
    serve();
    const list = client().pixels.list();
    const error = await failure(() => list.toArray({ limit: 0 }));
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect(error).toMatchObject({ param: 'limit' });
    // The first page was already asked for when list() was called; toArray asked for nothing more.
    await list;
    expect(msw.captured).toHaveLength(1);
  });

  it('pages() walks page objects a script can checkpoint, and list({ page }) resumes after one', async () => {
    serve();
    const params = { type: 'bing', sort: 'asc', per_page: 10 } as const;
    let checkpoint = 0;
    for await (const page of client().pixels.list(params).pages()) {
      expect(page).toBeInstanceOf(Page);
      checkpoint = page.meta.current_page;
      if (checkpoint === 2) break; // the script stops here (a crash, a deploy)
    }
    const rest: number[] = [];
    for await (const pixel of client().pixels.list({ ...params, page: checkpoint + 1 })) rest.push(pixel.id);
    expect(rest).toEqual([21, 22, 23]);
    expect(msw.captured.map((r) => pageOf(r.url))).toEqual([1, 2, 3]);
    expect(msw.captured[2]?.url).toBe(`${ROOT}/pixels?type=bing&sort=asc&per_page=10&page=3`);
  });

  it('gives the raw response of the first page', async () => {
    serve();
    const { data, response } = await client().pixels.list().withResponse();
    expect(data.data).toHaveLength(10);
    expect(response.status).toBe(200);
    expect(msw.captured).toHaveLength(1);
  });
});
