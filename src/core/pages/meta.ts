/** A list item: every Management record has an integer `id`, which tells the items of a walk apart. */
export interface Identified {
  /** The record's id. */
  readonly id: number;
}

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

/** A full `PageMeta` for page `number`, derived from the items where the server left fields out. */
export function normalise<T>(raw: RawPage<T>, number: number): PageMeta {
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
