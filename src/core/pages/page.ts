import { ContentPlatformError, checkKeys, InvalidParamsError, shown } from '../errors/index.js';
import { APIPromise, rejected } from '../transport/index.js';
import { stalled } from './checks.js';
import { type Identified, normalise, type PageMeta, type RawPage } from './meta.js';

/** Fetches page `page` (from 1) of one list, with the caller's filters already bound. */
export type PageFetcher<T> = (page: number) => APIPromise<RawPage<T>>;

/**
 * One page of a list: its items, where it sits (`meta`), and the way to the next page.
 * The next page is always built from our own path and query, never from a URL in the body.
 */
export class Page<T extends Identified> {
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
    // Compare with the page we asked for, not the server's current_page: a walk must end at last_page.
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

/**
 * How far a walk has come: the items up to the page it is on (those of the pages before the page it started at
 * count as done) of `total` (the starting page's `meta.total`); `failed` is 0.
 */
export interface WalkProgress {
  done: number;
  total: number;
  failed: number;
}

/** The options of `PagePromise.pages`. */
export interface WalkOptions {
  /**
   * Called after each page with the items walked so far and the list's `total` (from the first page's `meta`, no
   * extra request), so a script prints a progress line or a bar.
   */
  onProgress?: ((progress: WalkProgress) => void) | undefined;
}

/** The options of `PagePromise.toArray`. */
export interface ToArrayOptions extends WalkOptions {
  /** The most items to collect (a positive integer): required, so that no call loads a whole account by accident. */
  limit: number;
}

/**
 * A promise of the first page asked for, which is also an async iterable over every item of every page
 * from there on: pages are fetched one at a time, so memory holds one page.
 *
 * A walk sees the list as it is when each page is fetched. The default order is newest first, so a record created
 * during a walk pushes older ones onto the next page: the item walk skips ids it has already given (it keeps one
 * id per item given). A record deleted during a walk pulls later ones back onto earlier pages, and those are
 * missed: to delete what you list, collect the ids first (`toArray`), then delete. A page made only of ids seen
 * before that says more follow fails the walk (`ResponseValidationError`): a server whose pages do not advance.
 *
 * @example
 * const page = await mgmt.pixels.list({ per_page: 25 }); // Page<Pixel>
 * for await (const pixel of mgmt.pixels.list({ per_page: 100 })) console.log(pixel.name);
 * const first50 = await mgmt.pixels.list({ per_page: 50 }).toArray({ limit: 50 });
 */
export class PagePromise<T extends Identified> extends APIPromise<Page<T>> implements AsyncIterable<T> {
  /** Starts fetching page `number` (default 1) at once; `fetch` gets each later page. */
  constructor(fetch: PageFetcher<T>, number = 1) {
    super(
      fetch(number)
        .withResponse()
        .then(({ data, response }) => ({ data: new Page(data, number, fetch), response })),
    );
  }

  /**
   * Every item of this page and the ones after it, each id once (see the class notes), stopping after the last
   * page.
   * @throws {ContentPlatformError} a page that is not the one asked for, or empty while more are said to follow.
   * @throws {ResponseValidationError} a page that repeats only ids already seen, yet says more pages follow.
   */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    const given = new Set<number>();
    for await (const page of this.#walk(given)) {
      for (const item of page.data) {
        if (given.has(item.id)) continue;
        given.add(item.id);
        yield item;
      }
    }
  }

  /**
   * The pages themselves, from this one to the last, each fetched when the loop asks for it: for a script that
   * records `page.meta.current_page` as it goes and resumes later with `list({ ...params, page: n + 1 })`.
   * Items come as each page has them (an item pushed on by a new record can come twice; see the class notes).
   * @throws {InvalidParamsError} `options` has a key other than `onProgress`, or an `onProgress` that is not a
   * function (before any further request).
   * @throws {ResponseValidationError} a page that repeats only ids already seen, yet says more pages follow.
   */
  async *pages(options?: WalkOptions): AsyncGenerator<Page<T>, void, undefined> {
    this.#check(() => checkWalk(options, ['onProgress'], 'pages'));
    const seen = new Set<number>();
    for await (const page of this.#walk(seen, options?.onProgress)) {
      for (const item of page.data) seen.add(item.id);
      yield page;
    }
  }

  /**
   * The pages from this one on; `seen` holds the ids of the pages before (the caller adds them). Only a page made of
   * those alone that says more follow stops the walk (see `stalled`): one that repeats some (a record created
   * during the walk) or a last page goes on as usual.
   */
  async *#walk(
    seen: ReadonlySet<number>,
    onProgress?: WalkOptions['onProgress'],
  ): AsyncGenerator<Page<T>, void, undefined> {
    let page: Page<T> = await this;
    const { total, current_page, per_page } = page.meta;
    // A walk that starts past page 1 has the pages before it behind it: it ends at the total too.
    let done = (current_page - 1) * per_page;
    const walked = () => {
      done += page.data.length;
      onProgress?.({ done: Math.min(done, total), total, failed: 0 });
    };
    walked();
    yield page;
    while (page.hasNextPage()) {
      const { data: next, response } = await page.getNextPage().withResponse();
      if (next.hasNextPage() && next.data.every((item) => seen.has(item.id)))
        throw await stalled(next.data, next.meta, response.status);
      page = next;
      walked();
      yield page;
    }
  }

  /**
   * The first `limit` items from this page on, as an array, fetching no page past the one that completes it.
   * @throws {InvalidParamsError} `limit` is not a positive integer, `onProgress` is not a function, or `options`
   * has a key other than `limit` and `onProgress` (before any further request).
   */
  async toArray(options: ToArrayOptions): Promise<T[]> {
    const limit = options?.limit;
    this.#check(() => {
      checkWalk(options, ['limit', 'onProgress'], 'toArray');
      if (!Number.isSafeInteger(limit) || limit < 1)
        throw new InvalidParamsError(
          `toArray: limit must be a positive integer, got ${shown(limit)}.`,
          'limit',
        );
    });
    const items: T[] = [];
    const given = new Set<number>();
    walk: for await (const page of this.#walk(given, options.onProgress)) {
      for (const item of page.data) {
        if (given.has(item.id)) continue;
        given.add(item.id);
        items.push(item);
        if (items.length >= limit) break walk;
      }
    }
    return items;
  }

  /** Runs `check` of the caller's options; when it throws, the first page (already under way) is not their concern. */
  #check(check: () => void): void {
    try {
      check();
    } catch (error) {
      this.catch(() => {});
      throw error;
    }
  }
}

/**
 * A walk's options: only `known` keys, and an `onProgress` that is a function (or none). Anything else would be
 * called after the first page and fail the walk there with a TypeError.
 */
function checkWalk(options: WalkOptions | undefined, known: string[], where: string): void {
  checkKeys(options, known, where);
  const onProgress = options?.onProgress;
  if (onProgress != null && typeof onProgress !== 'function')
    throw new InvalidParamsError(
      `${where}: onProgress must be a function, got ${shown(onProgress)}.`,
      'onProgress',
    );
}

/** Like `deferred` for lists: bad input thrown by `start` becomes a rejected `PagePromise`. */
export function deferredPage<T extends Identified>(start: () => PagePromise<T>): PagePromise<T> {
  try {
    return start();
  } catch (error) {
    return new PagePromise<T>(() => new APIPromise<RawPage<T>>(rejected(error)));
  }
}
