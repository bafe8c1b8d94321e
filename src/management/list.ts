import type { $ZodType as ZodType } from 'zod/v4/core';
import { checkPage, type Identified, PagePromise, type RawPage } from '../core/pages/index.js';
import type { HttpClient, Query, RequestOptions } from '../core/transport/index.js';

/**
 * Lists `resource` page by page: every page is `GET resource` with the caller's checked filters and
 * `page=N`, built from our own path, never from a link in the body. An answer that is not the page asked for
 * fails the call (see `checkPage`).
 */
export function listPages<T extends Identified>(
  http: HttpClient,
  resource: string,
  schema: ZodType<RawPage<T>>,
  { page, ...filters }: Query,
  options: RequestOptions | undefined,
): PagePromise<T> {
  // Page 1 goes without `page` unless the caller gave it, like any first request to the API.
  const fetch = (n: number) =>
    http.request('GET', resource, schema, {
      options,
      query: { ...filters, page: n === 1 && page === undefined ? undefined : n },
      accept: (raw, call) => checkPage(raw, n, call),
    });
  return new PagePromise(fetch, page === undefined ? 1 : Number(page));
}
