import { pool, refusal, type Settings, settings, Tally } from './pool.js';
import {
  checkRows,
  createOnce,
  differences,
  type Named,
  type NamedRow,
  nameKey,
  type RecordSet,
  rowsOf,
} from './records.js';
import type { BulkOptions, CreateManyEntry, CreateManyReport } from './types.js';

/**
 * Creates every row, each once: see `createOnce`. Rows are checked first (a bad row fails alone, before any request);
 * at most `concurrency` creates are in flight, each through the client's throttle. An abort stops starting rows (the
 * rest are `skipped`); running the job again with the same rows finishes it, since a row already created is found by
 * its name (`existed`).
 */
export async function createMany<T extends Named, Row extends NamedRow>(
  set: RecordSet<T, Row>,
  given: readonly Row[],
  options?: BulkOptions,
): Promise<CreateManyReport<T, Row>> {
  const where = `${set.kind}.createMany`;
  const rows = rowsOf(given, where, 'rows') as readonly Row[];
  const config = settings(options, where);
  const refused = checkRows(set, rows, where);
  const entries: CreateManyEntry<T, Row>[] = rows.map((row, index) => {
    const error = refused[index];
    return error ? { status: 'failed', index, row, error } : { status: 'skipped', index, row };
  });
  const tally = new Tally(rows.length, config);
  for (const error of refused) if (error) tally.finished(true);
  let todo = entries.filter((entry) => entry.status === 'skipped').map((entry) => entry.index);
  // A run again (a resume) finds the rows done before in one listing instead of one refused create each.
  const there = todo.length > 0 ? await index(set, todo.length, config) : undefined;
  if (there) {
    todo = todo.filter((index) => {
      const row = rows[index] as Row;
      const record = there.get(nameKey(row.name));
      if (record === undefined) return true;
      entries[index] = { status: 'existed', index, row, record, changes: differences(set, row, record) };
      tally.finished(false);
      return false;
    });
  }
  await pool(todo.length, config, async (n) => {
    const index = todo[n] as number;
    const row = rows[index] as Row;
    const done = await createOnce(set, row, config);
    entries[index] =
      done.status === 'failed'
        ? { status: 'failed', index, row, error: done.error }
        : done.status === 'created'
          ? { status: 'created', index, row, record: done.record }
          : {
              status: 'existed',
              index,
              row,
              record: done.record,
              changes: differences(set, row, done.record),
            };
    tally.finished(done.status === 'failed');
  });
  return tally.result(where, report(entries, config.signal?.aborted === true));
}

function report<T, Row>(entries: CreateManyEntry<T, Row>[], aborted: boolean): CreateManyReport<T, Row> {
  const count = (status: CreateManyEntry<T, Row>['status']) =>
    entries.filter((entry) => entry.status === status).length;
  return {
    entries,
    created: count('created'),
    existed: count('existed'),
    failed: count('failed'),
    skipped: count('skipped'),
    aborted,
  };
}

/**
 * Every record by name, when listing them costs at most a quarter of the requests the rows would (a page of 100 holds
 * 100 names; the first page says how many there are): `undefined` otherwise, or when the listing fails (each row is
 * then found by its own create and look-up, as without it).
 */
async function index<T extends Named, Row extends NamedRow>(
  set: RecordSet<T, Row>,
  rows: number,
  config: Settings,
): Promise<Map<string, T> | undefined> {
  const byName = new Map<string, T>();
  const most = Math.max(1, Math.floor(rows / 4));
  try {
    const walk = set.resource.list({ per_page: 100 }, { ...config.request, signal: config.signal });
    let first = true;
    for await (const page of pagesOf(walk)) {
      if (first && Math.ceil(page.meta.total / 100) > most) return undefined;
      first = false;
      for (const record of page.data) byName.set(nameKey(record.name), record);
    }
    return byName;
  } catch (error) {
    // A value of `request` the listing refused (nothing sent) is the job's: it rejects before any create.
    if (refusal(error, config)) throw config.refused;
    return undefined;
  }
}

/** The pages of a list walk (a `PagePromise`), or its items as one page when it has no `pages()`. */
async function* pagesOf<T>(
  walk: AsyncIterable<T>,
): AsyncGenerator<{ data: T[]; meta: { total: number } }, void, undefined> {
  const paged = walk as AsyncIterable<T> & {
    pages?: () => AsyncIterable<{ data: T[]; meta: { total: number } }>;
  };
  if (typeof paged.pages === 'function') {
    yield* paged.pages();
    return;
  }
  const data: T[] = [];
  for await (const item of walk) data.push(item);
  yield { data, meta: { total: data.length } };
}
