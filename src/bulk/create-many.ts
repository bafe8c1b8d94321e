import { pool, settings, Tally } from './pool.js';
import { checkRows, createOnce, type Named, type NamedRow, type RecordSet, rowsOf } from './records.js';
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
  const tally = new Tally(rows.length, config.onProgress);
  for (const error of refused) if (error) tally.finished(true);
  const todo = entries.filter((entry) => entry.status === 'skipped').map((entry) => entry.index);
  await pool(todo.length, config.concurrency, config.signal, async (n) => {
    const index = todo[n] as number;
    const row = rows[index] as Row;
    const done = await createOnce(set, row, config);
    entries[index] =
      done.status === 'failed'
        ? { status: 'failed', index, row, error: done.error }
        : { status: done.status, index, row, record: done.record };
    tally.finished(done.status === 'failed');
  });
  return report(entries, config.signal?.aborted === true);
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
