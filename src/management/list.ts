import { checkPage, type Identified, PagePromise, type RawPage } from '../core/pages/index.js';
import type { HttpClient, Query, RequestOptions, SchemaRef } from '../core/transport/index.js';
import { MAX_PER_PAGE } from './params.js';

/**
 * Lists `resource` page by page: every page is `GET resource` with the caller's checked filters and
 * `page=N`, built from our own path, never from a link in the body. An answer that is not the page asked for
 * fails the call (see `checkPage`), and one with more records than `per_page` (100 when not set) is refused
 * before it is read.
 */
export function listPages<T extends Identified>(
  http: HttpClient,
  resource: string,
  schema: SchemaRef<RawPage<T>>,
  { page, ...filters }: Query,
  options: RequestOptions | undefined,
): PagePromise<T> {
  // Without per_page, the spec's largest: a server may default to another size than the spec's 10.
  const perPage = filters.per_page;
  const records = {
    key: 'data',
    most: perPage === undefined ? MAX_PER_PAGE : Number(perPage),
    why: `a page holds (per_page${perPage === undefined ? " not set: the spec's largest" : `=${perPage}`})`,
  };
  // Each page is an operation, linked to the first page's.
  const walk = {};
  // Page 1 goes without `page` unless the caller gave it, like any first request to the API.
  const fetch = (n: number) =>
    http.request('GET', resource, schema, {
      op: `${resource}.list`,
      walk,
      options,
      query: { ...filters, page: n === 1 && page === undefined ? undefined : n },
      accept: (raw, call) => checkPage(raw, n, call),
      records,
    });
  return new PagePromise(fetch, page === undefined ? 1 : Number(page));
}
