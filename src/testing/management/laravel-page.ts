/** One entry of `meta.links`, as Laravel's paginator builds it. */
export interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

/** The Laravel page wrapper of a list (an API resource collection of a length-aware paginator). */
export interface LaravelPage<T> {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    last_page: number;
    links: PageLink[];
    path: string;
    per_page: number;
    to: number | null;
    total: number;
  };
  status: 200;
}

/** Where a page is cut and how its links are written. */
export interface PageRequest {
  page: number;
  perPage: number;
  /** Absolute URL of the list, without a query. */
  path: string;
  /** The normalised filters appended to every link, before `page`. */
  query: [string, string][];
}

/** Reads Laravel's `page` parameter: an integer ≥ 1, anything else is page 1. */
export function pageNumber(raw: string | null): number {
  const n = raw !== null && /^\s*\d+\s*$/.test(raw) ? Number(raw) : 1;
  return Math.max(n, 1);
}

/** Cuts a page out of all records and wraps it with absolute `links` and `meta`. */
export function paginate<T>(all: readonly T[], req: PageRequest): LaravelPage<T> {
  const { page, perPage, path } = req;
  const total = all.length;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const data = all.slice((page - 1) * perPage, page * perPage);
  const url = (n: number) => `${path}?${encodeQuery([...req.query, ['page', String(n)]])}`;
  const prev = page > 1 ? url(page - 1) : null;
  const next = page < lastPage ? url(page + 1) : null;
  const from = data.length > 0 ? (page - 1) * perPage + 1 : null;
  return {
    data,
    links: { first: url(1), last: url(lastPage), prev, next },
    meta: {
      current_page: page,
      from,
      last_page: lastPage,
      links: [
        { url: prev, label: '&laquo; Previous', active: false },
        ...window(page, lastPage).map((n) =>
          n === null
            ? { url: null, label: '...', active: false }
            : { url: url(n), label: String(n), active: n === page },
        ),
        { url: next, label: 'Next &raquo;', active: false },
      ],
      path,
      per_page: perPage,
      to: from === null ? null : from + data.length - 1,
      total,
    },
    status: 200,
  };
}

/** PHP's `http_build_query` with RFC 3986 encoding, as Laravel's `Arr::query` writes it. */
export function encodeQuery(pairs: readonly [string, string][]): string {
  return pairs.map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`).join('&');
}

function rfc3986(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

// Laravel's UrlWindow with onEachSide = 3: every page up to 13, else a slider with '...' gaps (null).
function window(page: number, last: number): (number | null)[] {
  const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
  if (last < 14) return range(1, last);
  if (page <= 7) return [...range(1, 10), null, last - 1, last];
  if (page > last - 7) return [1, 2, null, ...range(last - 9, last)];
  return [1, 2, null, ...range(page - 3, page + 3), null, last - 1, last];
}
