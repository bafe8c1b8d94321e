import { describe, expect, it } from 'vitest';
import { APIPromise } from '../../src/core/api-promise.js';
import { ContentPlatformError } from '../../src/core/errors.js';
import { Page, type PageFetcher, PagePromise, type RawPage } from '../../src/core/pagination.js';

/** A fetcher over `pages` (page N is pages[N-1]), recording each page number asked for. */
function fetcher<T>(pages: RawPage<T>[]) {
  const asked: number[] = [];
  const fetch: PageFetcher<T> = (n) => {
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
    expect(new Page({ data: [1], meta: full }, 2, fetcher([]).fetch).meta).toEqual(full);
  });

  it('derives from, to and total from a partial meta', () => {
    const page = new Page({ data: ['a', 'b'], meta: meta(3, 5) }, 3, fetcher([]).fetch);
    expect(page.meta).toEqual({ current_page: 3, last_page: 5, per_page: 2, total: 6, from: 5, to: 6 });
  });

  it('derives last_page from total and per_page', () => {
    const page = new Page(
      { data: [1, 2], meta: { current_page: 1, per_page: 2, total: 7 } },
      1,
      fetcher([]).fetch,
    );
    expect(page.meta.last_page).toBe(4);
    expect(page.hasNextPage()).toBe(true);
  });

  it('treats a list without meta as one page', () => {
    const page = new Page({ data: ['a', 'b', 'c'] }, 1, fetcher([]).fetch);
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

describe('PagePromise', () => {
  const pages: RawPage<string>[] = [
    { data: ['a', 'b'], meta: meta(1, 3) },
    { data: ['c', 'd'], meta: meta(2, 3) },
    { data: ['e'], meta: meta(3, 3) },
  ];

  it('resolves to the first page asked for', async () => {
    const { fetch, asked } = fetcher(pages);
    const page = await new PagePromise(fetch, 2);
    expect(page.data).toEqual(['c', 'd']);
    expect(asked).toEqual([2]);
  });

  it('iterates every item of every page, asking page by page', async () => {
    const { fetch, asked } = fetcher(pages);
    const items: string[] = [];
    for await (const item of new PagePromise(fetch)) items.push(item);
    expect(items).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('getNextPage asks for the following page number', async () => {
    const { fetch, asked } = fetcher(pages);
    const first = await new PagePromise(fetch);
    const second = await first.getNextPage();
    expect(second.data).toEqual(['c', 'd']);
    expect(asked).toEqual([1, 2]);
  });

  it('is bounded by last_page even when the server repeats current_page 1', async () => {
    const { fetch, asked } = fetcher([
      { data: ['a'], meta: meta(1, 2) },
      { data: ['a'], meta: meta(1, 2) },
      { data: ['a'], meta: meta(1, 2) },
    ]);
    const items: string[] = [];
    for await (const item of new PagePromise(fetch)) items.push(item);
    expect(items).toEqual(['a', 'a']);
    expect(asked).toEqual([1, 2]);
  });

  it('rejects with the fetch error', async () => {
    const failing: PageFetcher<string> = () =>
      new APIPromise(Promise.reject(new ContentPlatformError('boom')));
    await expect(new PagePromise(failing)).rejects.toThrow('boom');
  });
});
