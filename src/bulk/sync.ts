import { checkKeys, escapeControls, InvalidParamsError, NotFoundError } from '../core/errors/index.js';
import type { RequestOptions } from '../core/transport/index.js';
import { checkRequest, pool, rethrowRefused, type Settings, settings, Tally, tried } from './pool.js';
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
import type { ApplyEntry, ApplyReport, BulkOptions, PlannedUpdate, SyncOptions, SyncPlan } from './types.js';

/** Most changes a plan's `toString()` lists before it sums up the rest. */
const SHOWN = 50;

/**
 * The plan that makes the records match `desired`, keyed by name, from one listing of every record: creates for
 * names no record has, updates with the fields that differ (a field left out of a row is not compared), and, with
 * `prune`, deletes for records no row names. Nothing changes before `apply`.
 * @throws {InvalidParamsError} before any request: a row `create` would refuse, or two rows with one name.
 */
export async function sync<T extends Named, Row extends NamedRow>(
  set: RecordSet<T, Row>,
  given: readonly Row[],
  givenOptions?: SyncOptions<T> | null,
): Promise<SyncPlan<T, Row>> {
  const where = `${set.kind}.sync`;
  const desired = rowsOf(given, where, 'desired') as readonly Row[];
  checkKeys(givenOptions, ['prune', 'request', 'signal'], where);
  const options = givenOptions ?? {};
  checkRequest(options.request, where);
  const { prune } = options;
  if (prune !== undefined && typeof prune !== 'boolean' && typeof prune !== 'function')
    throw new InvalidParamsError(`${where}: prune must be true, false or a function of a record.`, 'prune');
  const refused = checkRows(set, desired, where).find((error) => error !== undefined);
  if (refused) throw refused;
  // A value of `request` the listing refused (nothing sent) is the plan's own error.
  const current = await listing(set, { ...options.request, signal: options.signal }).catch(
    rethrowRefused(where),
  );
  const creates: Row[] = [];
  const updates: PlannedUpdate<T, Row>[] = [];
  const wanted = new Set<string>();
  let unchanged = 0;
  for (const row of desired) {
    const key = nameKey(row.name);
    wanted.add(key);
    const record = current.get(key);
    if (record === undefined) {
      creates.push(row);
      continue;
    }
    const changes = differences(set, row, record);
    if (changes === undefined) unchanged += 1;
    else updates.push({ before: record, changes });
  }
  const pruned = (record: T) => prune === true || (typeof prune === 'function' && prune(record));
  const deletes = prune ? [...current.values()].filter((r) => !wanted.has(nameKey(r.name)) && pruned(r)) : [];
  return new Plan(set, creates, updates, deletes, unchanged);
}

/** Every record, by name. */
async function listing<T extends Named, Row extends NamedRow>(
  set: RecordSet<T, Row>,
  request: RequestOptions,
): Promise<Map<string, T>> {
  const byName = new Map<string, T>();
  for await (const record of set.resource.list({ per_page: 100 }, request))
    byName.set(nameKey(record.name), record);
  return byName;
}

/** Every record, by id and by name: what `apply` checks each planned change against. */
async function current<T extends Named, Row extends NamedRow>(
  set: RecordSet<T, Row>,
  request: RequestOptions,
): Promise<{ byId: Map<number, T>; byName: Map<string, T> }> {
  const byId = new Map<number, T>();
  const byName = new Map<string, T>();
  for await (const record of set.resource.list({ per_page: 100 }, request)) {
    byId.set(record.id, record);
    byName.set(nameKey(record.name), record);
  }
  return { byId, byName };
}

/** Whether a record is as the plan saw it: every field the same (`updated_at` included, where the server sends it). */
function unchangedSince(before: object, now: object): boolean {
  const stable = (record: object) =>
    JSON.stringify(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return stable(before) === stable(now);
}

class Plan<T extends Named, Row extends NamedRow> implements SyncPlan<T, Row> {
  readonly #set: RecordSet<T, Row>;
  #applying = false;

  constructor(
    set: RecordSet<T, Row>,
    readonly creates: Row[],
    readonly updates: PlannedUpdate<T, Row>[],
    readonly deletes: T[],
    readonly unchanged: number,
  ) {
    this.#set = set;
  }

  toString(): string {
    const { creates, updates, deletes } = this;
    const lines = [
      ...creates.map((row) => `  + create  ${escapeControls(row.name)}${fieldsOf(this.#set, row)}`),
      ...updates.map(
        ({ before, changes }) =>
          `  ~ update  ${escapeControls(before.name)} (#${before.id})  ${Object.entries(changes)
            .map(
              ([field, value]) =>
                `${field}: ${show((before as Record<string, unknown>)[field])} → ${show(value)}`,
            )
            .join(', ')}`,
      ),
      ...deletes.map((record) => `  - delete  ${escapeControls(record.name)} (#${record.id})`),
    ];
    const listed = lines.slice(0, SHOWN);
    if (lines.length > SHOWN) listed.push(`  … and ${lines.length - SHOWN} more`);
    const head =
      `Plan for ${this.#set.kind}: ${creates.length} to create, ${updates.length} to update, ` +
      `${deletes.length} to delete, ${this.unchanged} unchanged.`;
    return [head, ...listed].join('\n');
  }

  async apply(options?: BulkOptions): Promise<ApplyReport<T>> {
    const set = this.#set;
    const where = `${set.kind}.sync: apply`;
    const config = settings(options, where);
    if (this.#applying) throw new InvalidParamsError(`${where}: this plan is already being applied.`);
    this.#applying = true;
    try {
      const tally = new Tally(this.creates.length + this.updates.length + this.deletes.length, config);
      const entries: ApplyEntry<T>[] = [
        ...this.creates.map((row) => ({
          action: 'create' as const,
          name: row.name,
          status: 'skipped' as const,
        })),
        ...this.updates.map(({ before }) => ({
          action: 'update' as const,
          name: before.name,
          status: 'skipped' as const,
        })),
        ...this.deletes.map((record) => ({
          action: 'delete' as const,
          name: record.name,
          status: 'skipped' as const,
        })),
      ];
      const settle = (index: number, entry: ApplyEntry<T>) => {
        entries[index] = entry;
        tally.finished(entry.status === 'failed' || entry.status === 'conflict');
      };
      // What each record is now, by id (a record renamed since the plan is the same record, changed), to refuse a
      // change whose record changed since the plan was made.
      const now =
        this.updates.length + this.deletes.length > 0
          ? await current(set, requestOf(config)).catch(rethrowRefused(where))
          : { byId: new Map<number, T>(), byName: new Map<string, T>() };
      const { creates, updates, deletes } = this;
      await pool(creates.length, config, async (i) => {
        const row = creates[i] as Row;
        const done = await createOnce(set, row, config);
        settle(
          i,
          done.status === 'failed'
            ? { action: 'create', name: row.name, status: 'failed', error: done.error }
            : { action: 'create', name: row.name, status: done.status, record: done.record },
        );
      });
      const base = creates.length;
      await pool(updates.length, config, async (i) => {
        const { before, changes } = updates[i] as PlannedUpdate<T, Row>;
        // Gone since: the record now under its name, if any, is another one's.
        const record = now.byId.get(before.id) ?? now.byName.get(nameKey(before.name));
        const entry: ApplyEntry<T> = { action: 'update', name: before.name, status: 'conflict', record };
        if (record === undefined || record.id !== before.id || !unchangedSince(before, record))
          return settle(base + i, entry);
        const done = await tried(config, `${set.kind}.update`, (request) =>
          set.resource.update(before.id, changes, request),
        );
        settle(
          base + i,
          'error' in done
            ? { ...entry, status: 'failed', error: done.error, record: undefined }
            : { ...entry, status: 'updated', record: done.value },
        );
      });
      const after = base + updates.length;
      await pool(deletes.length, config, async (i) => {
        const record = deletes[i] as T;
        // By id: a record renamed since the plan is still there, changed (a conflict, not deleted); gone, another
        // record may have taken its name since.
        const found = now.byId.get(record.id) ?? now.byName.get(nameKey(record.name));
        const entry: ApplyEntry<T> = { action: 'delete', name: record.name, status: 'deleted' };
        // Already gone, and its name with it: the desired state holds.
        if (found === undefined) return settle(after + i, entry);
        if (found.id !== record.id || !unchangedSince(record, found))
          return settle(after + i, { ...entry, status: 'conflict', record: found });
        const done = await tried(config, `${set.kind}.delete`, (request) =>
          set.resource.delete(record.id, request),
        );
        // Gone (a try whose answer was lost deleted it, or someone else did): the desired state holds.
        const gone = 'error' in done && done.error instanceof NotFoundError;
        settle(
          after + i,
          'error' in done && !gone ? { ...entry, status: 'failed', error: done.error } : entry,
        );
      });
      return tally.result(where, applied(entries, config.signal?.aborted === true));
    } finally {
      this.#applying = false;
    }
  }
}

function requestOf(config: Settings): RequestOptions {
  return { ...config.request, signal: config.signal };
}

function applied<T>(entries: ApplyEntry<T>[], aborted: boolean): ApplyReport<T> {
  const count = (status: ApplyEntry<T>['status']) =>
    entries.filter((entry) => entry.status === status).length;
  return {
    entries,
    created: count('created'),
    existed: count('existed'),
    updated: count('updated'),
    deleted: count('deleted'),
    conflicts: count('conflict'),
    failed: count('failed'),
    skipped: count('skipped'),
    aborted,
  };
}

function fieldsOf<T extends Named, Row extends NamedRow>(set: RecordSet<T, Row>, row: Row): string {
  const given = set.fields
    .filter((field) => row[field] !== undefined)
    .map((field) => `${field}: ${show(row[field])}`);
  return given.length === 0 ? '' : `  (${given.join(', ')})`;
}

function show(value: unknown): string {
  return value === null ? 'null' : JSON.stringify(value);
}
