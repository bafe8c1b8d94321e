import type { Context } from '../context.js';
import { type LaravelPage, pageNumber, paginate } from './laravel-page.js';

const PER_PAGE = [10, 25, 50, 100];

/** A record that lists can search and sort. */
interface Listable {
  id: number;
  name: string;
  type?: string;
}

/**
 * Lists records the way phpShort does: `search` is a case-insensitive substring of the name, `type` an
 * exact filter (pixels only, unknown types match nothing), and invalid `search_by`, `sort_by`, `sort`,
 * `per_page` or `page` values silently fall back to their defaults.
 */
export function listRecords<T extends Listable>(
  ctx: Context,
  resource: 'pixels' | 'domains',
  records: readonly T[],
): LaravelPage<T> {
  const q = ctx.url.searchParams;
  const text = (name: string) => {
    const v = q.get(name)?.trim();
    return v ? v : null;
  };
  const search = text('search');
  const type = resource === 'pixels' ? text('type') : null;
  const sortBy = q.get('sort_by') === 'name' ? 'name' : 'id';
  const sort = q.get('sort') === 'asc' ? 'asc' : 'desc';
  const rawPerPage = Number(q.get('per_page'));
  const perPage = PER_PAGE.includes(rawPerPage) ? rawPerPage : 10;

  const needle = search?.toLowerCase();
  const matching =
    needle === undefined && type === null
      ? [...records]
      : records.filter(
          (r) =>
            (needle === undefined || r.name.toLowerCase().includes(needle)) &&
            (type === null || r.type === type),
        );
  const direction = sort === 'asc' ? 1 : -1;
  // The store keeps records in id order, so an id sort is a reverse at most: O(n), not a comparison sort per page.
  if (sortBy === 'id' && ascendingIds(matching)) {
    if (direction < 0) matching.reverse();
  } else {
    matching.sort((a, b) => {
      const byName = sortBy === 'name' ? a.name.toLowerCase().localeCompare(b.name.toLowerCase(), 'en') : 0;
      return direction * (byName !== 0 ? byName : a.id - b.id);
    });
  }

  const query: [string, string][] = [];
  if (search !== null) query.push(['search', search]);
  query.push(['search_by', 'name']);
  if (type !== null) query.push(['type', type]);
  query.push(['sort_by', sortBy], ['sort', sort], ['per_page', String(perPage)]);
  return paginate(matching, {
    page: pageNumber(q.get('page')),
    perPage,
    path: `${ctx.url.origin}${ctx.prefix}/api/v1/${resource}`,
    query,
  });
}

function ascendingIds(records: readonly Listable[]): boolean {
  for (let i = 1; i < records.length; i += 1) {
    if ((records[i - 1] as Listable).id >= (records[i] as Listable).id) return false;
  }
  return true;
}
