import { HttpResponse } from 'msw';
import { SECRET } from '../helpers/core.js';

export { failure } from '../helpers/failure.js';

/** The site root the tests use, and the API root the SDK must derive from it. */
export const BASE_URL = 'https://links.example.com';
export const ROOT = `${BASE_URL}/api/v1`;
export { SECRET };

/** The headers every Management request carries. */
export const COMMON_HEADERS = {
  accept: 'application/json',
  authorization: `Bearer ${SECRET}`,
  'user-agent': 'content-platform-sdk/0.2.0',
};
export const FORM = 'application/x-www-form-urlencoded;charset=UTF-8';

/** A pixel as phpShort stores it (wire shape: snake_case, microsecond timestamps). */
export interface WirePixel {
  id: number;
  name: string;
  type: string;
  value: string;
  created_at: string;
  updated_at: string;
  [extra: string]: unknown;
}

/** A domain as phpShort stores it. */
export interface WireDomain {
  id: number;
  name: string;
  url: string;
  index_page: string | null;
  not_found_page: string | null;
  created_at: string;
  updated_at: string;
  [extra: string]: unknown;
}

const STAMP = '2025-01-15T10:20:30.123456Z';

export function wirePixel(overrides: Partial<WirePixel> = {}): WirePixel {
  const id = overrides.id ?? 1;
  return {
    id,
    name: `Pixel ${id}`,
    type: 'facebook',
    value: `12345${id}`,
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

export function wireDomain(overrides: Partial<WireDomain> = {}): WireDomain {
  const id = overrides.id ?? 1;
  const name = overrides.name ?? `go${id}.example.com`;
  return {
    id,
    name,
    url: `https://${name}`,
    index_page: `https://www.example.com/home`,
    not_found_page: null,
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

/**
 * JSON as PHP's json_encode writes it: `\/` in URLs, `\uXXXX` for non-ASCII. The SDK must read it like any JSON.
 */
export function phpJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A Laravel JSON answer (PHP-escaped body), with the rate-limit headers every answer carries. */
export function laravel(
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): HttpResponse<string> {
  return new HttpResponse(phpJson(body), {
    status,
    headers: {
      'content-type': 'application/json',
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '59',
      ...headers,
    },
  });
}

/** `{ data, status: 200 }`: the show / store / update body. */
export function showBody<T>(entity: T) {
  return { data: entity, status: 200 };
}

/** The delete body. */
export function deleteBody(id: number, object: 'pixel' | 'domain') {
  return { id, object, deleted: true, status: 200 };
}

/**
 * A Laravel paginator body for page `page` of `all`, with `links` carrying `query` plus `&page=N`
 * (`linkBase` lets a test point them at another origin).
 */
export function laravelPage<T>(
  all: T[],
  opts: { page?: number; perPage?: number; resource: string; query?: string; linkBase?: string },
) {
  const page = opts.page ?? 1;
  const perPage = opts.perPage ?? 10;
  const lastPage = Math.max(1, Math.ceil(all.length / perPage));
  const data = all.slice((page - 1) * perPage, page * perPage);
  const base = `${opts.linkBase ?? ROOT}/${opts.resource}`;
  const link = (n: number) => `${base}?${opts.query ? `${opts.query}&` : ''}page=${n}`;
  return {
    data,
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page > 1 ? link(page - 1) : null,
      next: page < lastPage ? link(page + 1) : null,
    },
    meta: {
      current_page: page,
      from: data.length > 0 ? (page - 1) * perPage + 1 : null,
      last_page: lastPage,
      links: [{ url: null, label: '&laquo; Previous', active: false }],
      path: base,
      per_page: perPage,
      to: data.length > 0 ? (page - 1) * perPage + data.length : null,
      total: all.length,
    },
    status: 200,
  };
}
