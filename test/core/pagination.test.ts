import { describe, expect, it } from 'vitest';
import {
  ContentPlatformError,
  InvalidParamsError,
  ResponseValidationError,
} from '../../src/core/errors/classes.js';
import {
  checkPage,
  type Identified,
  Page,
  type PageFetcher,
  PagePromise,
  type RawPage,
} from '../../src/core/pages/index.js';
import { APIPromise } from '../../src/core/transport/api-promise.js';

type Row = Identified & { name: string };
const row = (id: number): Row => ({ id, name: `row ${id}` });
const rows = (...ids: number[]) => ids.map(row);
const ids = (items: readonly Identified[]) => items.map((r) => r.id);

/** A fetcher over `pages` (page N is pages[N-1]), recording each page number asked for. */
function fetcher(pages: RawPage<Row>[]) {
  const asked: number[] = [];
  const fetch: PageFetcher<Row> = (n) => {
    asked.push(n);
    const raw = pages[n - 1] ?? { data: [] };
    return new APIPromise(Promise.resolve({ data: raw, response: new Response(null, { status: 200 }) }));
  };
  return { fetch, asked };
}

const meta = (current_page: number, last_page: number, per_page = 2) => ({
  current_page,
  last_page,
  per_page,
});

describe('Page', () => {
  it('keeps a full meta as sent', () => {
    const full = { current_page: 2, last_page: 4, per_page: 10, total: 35, from: 11, to: 20 };
    expect(new Page({ data: rows(1), meta: full }, 2, fetcher([]).fetch).meta).toEqual(full);
  });

  it('derives from, to and total from a partial meta', () => {
    const page = new Page({ data: rows(1, 2), meta: meta(3, 5) }, 3, fetcher([]).fetch);
    expect(page.meta).toEqual({ current_page: 3, last_page: 5, per_page: 2, total: 6, from: 5, to: 6 });
  });

  it('derives last_page from total and per_page', () => {
    const page = new Page(
      { data: rows(1, 2), meta: { current_page: 1, per_page: 2, total: 7 } },
      1,
      fetcher([]).fetch,
    );
    expect(page.meta.last_page).toBe(4);
    expect(page.hasNextPage()).toBe(true);
  });

  it('treats a list without meta as one page', () => {
    const page = new Page({ data: rows(1, 2, 3) }, 1, fetcher([]).fetch);
    expect(page.meta).toEqual({ current_page: 1, last_page: 1, per_page: 3, total: 3, from: 1, to: 3 });
    expect(page.hasNextPage()).toBe(false);
  });

  it('has null from/to and no next page when empty', () => {
    const page = new Page({ data: [], meta: meta(1, 3) }, 1, fetcher([]).fetch);
    expect(page.meta).toMatchObject({ from: null, to: null });
    expect(page.hasNextPage()).toBe(false);
    expect(() => page.getNextPage()).toThrow(ContentPlatformError);
  });
});

describe('checkPage', () => {
  const label = 'GET https://links.example.com/api/v1/pixels?page=3';

  it('accepts the page asked for, a page past the end, and an answer without meta (nothing to wait for)', () => {
    expect(checkPage({ data: rows(5), meta: meta(3, 3) }, 3, label)).toBeUndefined();
    expect(checkPage({ data: [], meta: meta(7, 3) }, 7, label)).toBeUndefined();
    expect(checkPage({ data: [], meta: meta(1, 1) }, 1, label)).toBeUndefined();
    expect(checkPage({ data: rows(1, 2) }, 3, label)).toBeUndefined();
  });

  it('rejects an answer for another page than the one asked for', async () => {
    await expect(checkPage({ data: rows(1), meta: meta(1, 5) }, 3, label)).rejects.toThrow(
      new ContentPlatformError(
        `${label}: asked for page 3, the answer is page 1 (meta.current_page). A proxy or cache may be answering ` +
          'with one page again; the list walk stops here rather than loop.',
      ),
    );
  });

  it('rejects an empty page whose meta says more pages follow', async () => {
    await expect(checkPage({ data: [], meta: { ...meta(3, 9, 10), total: 90 } }, 3, label)).rejects.toThrow(
      `${label}: page 3 is empty, yet its meta says the list has 9 pages (90 items); the list walk stops here ` +
        'rather than skip the rest.',
    );
  });
});

describe('PagePromise', () => {
  const pages: RawPage<Row>[] = [
    { data: rows(1, 2), meta: meta(1, 3) },
    { data: rows(3, 4), meta: meta(2, 3) },
    { data: rows(5), meta: meta(3, 3) },
  ];

  it('resolves to the first page asked for', async () => {
    const { fetch, asked } = fetcher(pages);
    const page = await new PagePromise(fetch, 2);
    expect(ids(page.data)).toEqual([3, 4]);
    expect(asked).toEqual([2]);
  });

  it('iterates every item of every page, asking page by page', async () => {
    const { fetch, asked } = fetcher(pages);
    const items: Row[] = [];
    for await (const item of new PagePromise(fetch)) items.push(item);
    expect(items).toEqual(rows(1, 2, 3, 4, 5));
    expect(asked).toEqual([1, 2, 3]);
  });

  it('gives each id once in a walk: an item pushed onto the next page by an insert is skipped', async () => {
    // Newest first: a record made after page 1 was read pushes 2 onto page 2.
    const { fetch } = fetcher([
      { data: rows(3, 2), meta: meta(1, 2) },
      { data: rows(2, 1), meta: meta(2, 2) },
    ]);
    const items: Row[] = [];
    for await (const item of new PagePromise(fetch)) items.push(item);
    expect(ids(items)).toEqual([3, 2, 1]);
  });

  it('stops a walk at a page of ids all seen before that says more follow: ResponseValidationError naming it', async () => {
    // The server claims one more page forever, and sends page 1's items again each time.
    const stuck: PageFetcher<Row> = (n) =>
      new APIPromise(
        Promise.resolve({
          data: { data: rows(1, 2), meta: meta(n, n + 1) },
          response: new Response(null, { status: 200 }),
        }),
      );
    const items: number[] = [];
    const error = await (async () => {
      for await (const item of new PagePromise(stuck)) items.push(item.id);
    })().catch((e: unknown) => e);
    expect(items).toEqual([1, 2]);
    expect(error).toBeInstanceOf(ResponseValidationError);
    const invalid = error as ResponseValidationError;
    expect(invalid.message).toBe(
      'List page 2 repeats only ids already seen on earlier pages, yet says page 3 follows: the pages do not ' +
        'advance, so the list walk stops here rather than loop.',
    );
    expect(invalid.issues).toEqual([
      { path: ['data'], message: 'every id was already seen on an earlier page' },
    ]);
    expect(invalid.status).toBe(200);
    expect(invalid.body).toMatchObject({ data: rows(1, 2), meta: { current_page: 2, last_page: 3 } });
    const pagesSeen: number[] = [];
    const again = await (async () => {
      for await (const page of new PagePromise(stuck).pages()) pagesSeen.push(page.meta.current_page);
    })().catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ResponseValidationError);
    expect(pagesSeen).toEqual([1]);
  });

  it('stops a walk that cycles back to earlier pages, at the first page made only of ids seen before', async () => {
    const { fetch, asked } = fetcher([
      { data: rows(1, 2), meta: meta(1, 9) },
      { data: rows(3, 4), meta: meta(2, 9) },
      { data: rows(2, 1), meta: meta(3, 9) },
    ]);
    const items: number[] = [];
    const error = await (async () => {
      for await (const item of new PagePromise(fetch)) items.push(item.id);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toMatch(
      /^List page 3 repeats only ids already seen on earlier pages, yet says page 4 follows/,
    );
    expect(items).toEqual([1, 2, 3, 4]);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('goes on past a page that repeats only some ids, and ends on a last page of ids all seen before', async () => {
    // Records created during the walk push seen items onto later pages; the last page holds nothing new.
    const { fetch, asked } = fetcher([
      { data: rows(6, 5), meta: meta(1, 3) },
      { data: rows(5, 4), meta: meta(2, 3) },
      { data: rows(4), meta: meta(3, 3) },
    ]);
    const items: Row[] = [];
    for await (const item of new PagePromise(fetch)) items.push(item);
    expect(ids(items)).toEqual([6, 5, 4]);
    const pageIds: number[][] = [];
    for await (const page of new PagePromise(fetch).pages()) pageIds.push(ids(page.data));
    expect(pageIds).toEqual([[6, 5], [5, 4], [4]]);
    expect(asked).toEqual([1, 2, 3, 1, 2, 3]);
  });

  it('forgets the ids between walks: a second walk of the same promise gives every item again', async () => {
    const { fetch } = fetcher(pages);
    const list = new PagePromise(fetch);
    const walk = async () => {
      const items: number[] = [];
      for await (const item of list) items.push(item.id);
      return items;
    };
    expect(await walk()).toEqual([1, 2, 3, 4, 5]);
    expect(await walk()).toEqual([1, 2, 3, 4, 5]);
  });

  it('pages() gives each page as sent, with its meta, fetching each when the loop asks', async () => {
    const { fetch, asked } = fetcher(pages);
    const seen: [number, number[], number[]][] = [];
    for await (const page of new PagePromise(fetch).pages()) {
      seen.push([page.meta.current_page, ids(page.data), [...asked]]);
    }
    expect(seen).toEqual([
      [1, [1, 2], [1]],
      [2, [3, 4], [1, 2]],
      [3, [5], [1, 2, 3]],
    ]);
  });

  it('pages() from a page asked for resumes there', async () => {
    const { fetch, asked } = fetcher(pages);
    const numbers: number[] = [];
    for await (const page of new PagePromise(fetch, 2).pages()) numbers.push(page.meta.current_page);
    expect(numbers).toEqual([2, 3]);
    expect(asked).toEqual([2, 3]);
  });

  it('toArray takes the first `limit` items and fetches no page past the one that completes it', async () => {
    const { fetch, asked } = fetcher(pages);
    expect(ids(await new PagePromise(fetch).toArray({ limit: 3 }))).toEqual([1, 2, 3]);
    expect(asked).toEqual([1, 2]);
  });

  it('toArray stops at the end of the list when it holds fewer than `limit`', async () => {
    const { fetch, asked } = fetcher(pages);
    expect(ids(await new PagePromise(fetch).toArray({ limit: 1000 }))).toEqual([1, 2, 3, 4, 5]);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('toArray rejects a limit that is not a positive integer, fetching nothing more', async () => {
    for (const limit of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '3' as unknown as number]) {
      const { fetch, asked } = fetcher(pages);
      const error = await new PagePromise(fetch).toArray({ limit }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidParamsError);
      expect(error).toMatchObject({
        param: 'limit',
        message: `toArray: limit must be a positive integer, got ${typeof limit === 'string' ? `"${limit}"` : limit}.`,
      });
      expect(asked).toEqual([1]);
    }
    const missing = await new PagePromise(fetcher(pages).fetch)
      .toArray(undefined as never)
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({ name: 'InvalidParamsError', param: 'limit' });
  });

  it('getNextPage asks for the following page number', async () => {
    const { fetch, asked } = fetcher(pages);
    const first = await new PagePromise(fetch);
    const second = await first.getNextPage();
    expect(ids(second.data)).toEqual([3, 4]);
    expect(asked).toEqual([1, 2]);
  });

  it('is bounded by last_page even when the fetcher does not check current_page', async () => {
    const { fetch, asked } = fetcher([
      { data: rows(1), meta: meta(1, 2) },
      { data: rows(1), meta: meta(1, 2) },
      { data: rows(1), meta: meta(1, 2) },
    ]);
    const pagesSeen: number[] = [];
    for await (const page of new PagePromise(fetch).pages()) pagesSeen.push(page.data.length);
    expect(pagesSeen).toEqual([1, 1]);
    expect(asked).toEqual([1, 2]);
  });

  it('rejects with the fetch error', async () => {
    const failing: PageFetcher<Row> = () => new APIPromise(Promise.reject(new ContentPlatformError('boom')));
    await expect(new PagePromise(failing)).rejects.toThrow('boom');
  });
});
