import { APIPromise, rejected } from './api-promise.js';
import { ContentPlatformError } from './errors.js';

/** Where a page sits in the whole list, with the field names of Laravel's `meta`. */
export interface PageMeta {
  /** This page's number, from 1. */
  current_page: number;
  /** The number of the last page (1 when the list fits on one page or is empty). */
  last_page: number;
  /** Items per page. */
  per_page: number;
  /** Items in the whole list. */
  total: number;
  /** Position of this page's first item in the list, from 1; `null` on an empty page. */
  from: number | null;
  /** Position of this page's last item; `null` on an empty page. */
  to: number | null;
}

/** One page as a list schema gives it: the items, and whatever pagination data the server sent. */
export interface RawPage<T> {
  data: T[];
  /** Missing when the server sent none (a bare array, or `{ data }` alone): the list is then one page. */
  meta?: Partial<PageMeta> | undefined;
}

/** Fetches page `page` (from 1) of one list, with the caller's filters already bound. */
export type PageFetcher<T> = (page: number) => APIPromise<RawPage<T>>;

/**
 * One page of a list: its items, where it sits (`meta`), and the way to the next page.
 * The next page is always built from our own path and query, never from a URL in the body.
 */
export class Page<T> {
  /** The items of this page. */
  readonly data: T[];
  /** Where this page sits in the list; derived from the items when the server sent no `meta`. */
  readonly meta: PageMeta;
  readonly #number: number;
  readonly #fetch: PageFetcher<T>;

  /** Builds page `number` from what the list schema gave; `fetch` gets any other page. */
  constructor(raw: RawPage<T>, number: number, fetch: PageFetcher<T>) {
    this.data = raw.data;
    this.meta = normalise(raw, number);
    this.#number = number;
    this.#fetch = fetch;
  }

  /** `true` when a page follows this one: this page has items and is not the last. */
  hasNextPage(): boolean {
    // Compare with the page we asked for, not the server's current_page: a server that ignores `page`
    // and always answers "page 1 of 5" must not make the walk endless.
    return this.data.length > 0 && this.#number < this.meta.last_page;
  }

  /**
   * Fetches the page after this one, with the same filters.
   * @throws {ContentPlatformError} when there is no next page (check `hasNextPage()` first).
   */
  getNextPage(): PagePromise<T> {
    if (!this.hasNextPage()) {
      throw new ContentPlatformError(
        `There is no page after page ${this.#number} (check hasNextPage() first).`,
      );
    }
    return new PagePromise(this.#fetch, this.#number + 1);
  }
}

function normalise<T>(raw: RawPage<T>, number: number): PageMeta {
  const meta = raw.meta ?? {};
  const count = raw.data.length;
  // Without meta the whole list came in this one answer.
  const current = meta.current_page ?? (raw.meta ? number : 1);
  const perPage = meta.per_page ?? count;
  const from = meta.from !== undefined ? meta.from : count > 0 ? (current - 1) * perPage + 1 : null;
  const to = meta.to !== undefined ? meta.to : from !== null ? from + count - 1 : null;
  const total = meta.total ?? to ?? (current - 1) * perPage;
  const lastPage =
    meta.last_page ?? (raw.meta && perPage > 0 ? Math.max(1, Math.ceil(total / perPage)) : current);
  return { current_page: current, last_page: lastPage, per_page: perPage, total, from, to };
}

/**
 * A promise of the first page asked for, which is also an async iterable over every item of every page
 * from there on: pages are fetched one at a time, so memory holds one page.
 *
 * @example
 * const page = await mgmt.pixels.list({ per_page: 25 }); // Page<Pixel>
 * for await (const pixel of mgmt.pixels.list({ per_page: 100 })) console.log(pixel.name);
 */
export class PagePromise<T> extends APIPromise<Page<T>> implements AsyncIterable<T> {
  /** Starts fetching page `number` (default 1) at once; `fetch` gets each later page. */
  constructor(fetch: PageFetcher<T>, number = 1) {
    super(
      fetch(number)
        .withResponse()
        .then(({ data, response }) => ({ data: new Page(data, number, fetch), response })),
    );
  }

  /** Walks every item of this page and the ones after it, stopping after the last or at an empty page. */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let page: Page<T> = await this;
    for (;;) {
      yield* page.data;
      if (!page.hasNextPage()) return;
      page = await page.getNextPage();
    }
  }
}

/** Like `deferred` for lists: bad input thrown by `start` becomes a rejected `PagePromise`. */
export function deferredPage<T>(start: () => PagePromise<T>): PagePromise<T> {
  try {
    return start();
  } catch (error) {
    return new PagePromise<T>(() => new APIPromise<RawPage<T>>(rejected(error)));
  }
}
