import {
  type ContentPlatformError,
  InvalidParamsError,
  UnprocessableEntityError,
} from '../core/errors/index.js';
import type { RequestOptions } from '../core/transport/index.js';
import { asSdkError, backoff, mayHaveCreated, pause, refusal, type Settings, transient } from './pool.js';

/** A record with a unique name: a pixel or a domain. */
export interface Named {
  id: number;
  name: string;
}

/** A row to create: its name, and its other fields. */
export interface NamedRow {
  name: string;
}

/**
 * A resource's records as the bulk jobs use them, through its public methods (so every request goes through the
 * client's throttle, retries and telemetry): built by the resource (`pixels`, `domains`).
 */
export interface RecordSet<T extends Named, Row extends NamedRow> {
  /** `pixels` or `domains`, for messages and the plan's heading. */
  kind: string;
  /** The resource itself (`client.pixels`): its public methods send every request. */
  resource: {
    /** A walk of records (`search` by name narrows it). */
    list(
      params: { search?: string; search_by?: 'name'; per_page?: 100 },
      options?: RequestOptions,
    ): AsyncIterable<T>;
    create(row: Row, options?: RequestOptions): PromiseLike<T>;
    update(id: number, changes: Partial<Row>, options?: RequestOptions): PromiseLike<T>;
    delete(id: number, options?: RequestOptions): PromiseLike<unknown>;
  };
  /** Checks a row as `create` would (throws `InvalidParamsError`), before anything is sent. */
  check(row: unknown, where: string): void;
  /** The fields besides the name that `sync` compares and updates. */
  fields: readonly (keyof Row & string)[];
}

/** How one create ended. */
export type Created<T> =
  | { status: 'created' | 'existed'; record: T }
  | { status: 'failed'; error: ContentPlatformError };

/** Names compare as the servers compare them: trimmed (they store a name trimmed) and case aside. */
export const nameKey = (name: string): string => name.trim().toLowerCase();

/** The record named `name`, looked up with the list's name search: `undefined` when there is none. */
export async function findByName<T extends Named, Row extends NamedRow>(
  set: RecordSet<T, Row>,
  name: string,
  request: RequestOptions | undefined,
): Promise<T | undefined> {
  const key = nameKey(name);
  for await (const record of set.resource.list(
    { search: name.trim(), search_by: 'name', per_page: 100 },
    request,
  ))
    if (nameKey(record.name) === key) return record;
  return undefined;
}

/** Whether the server refused a create because the name is taken. */
function nameTaken(error: unknown): boolean {
  return error instanceof UnprocessableEntityError && (error.fieldErrors.name?.length ?? 0) > 0;
}

/**
 * Creates one row, never twice: a create that may have reached the server (a 5xx, no answer, a timeout) is followed
 * by a look-up of its name before it is sent again, and a name the server says is taken is found and reported
 * `existed`. Transient failures are tried again (`attempts`, with a backoff); anything else fails the row.
 */
export async function createOnce<T extends Named, Row extends NamedRow>(
  set: RecordSet<T, Row>,
  row: Row,
  settings: Settings,
): Promise<Created<T>> {
  const { attempts, signal } = settings;
  const request = { ...settings.request, signal };
  const where = `${set.kind}.createMany`;
  // An earlier try may have created the record.
  let uncertain = false;
  let last: ContentPlatformError | undefined;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    if (attempt > 1) await pause(backoff(attempt), signal);
    try {
      if (uncertain) {
        const found = await findByName(set, row.name, request);
        if (found) return { status: 'existed', record: found };
      }
      return { status: 'created', record: await set.resource.create(row, request) };
    } catch (error) {
      last = asSdkError(error, where);
      if (refusal(error, settings)) return { status: 'failed', error: last };
      if (nameTaken(error)) {
        const taken = last;
        const found = await findByName(set, row.name, request).then(
          (record) => ({ record }),
          (failure: unknown) => ({ failure }),
        );
        if ('record' in found) {
          if (found.record) return { status: 'existed', record: found.record };
          // Taken by a record the search cannot see: nothing to adopt.
          return { status: 'failed', error: taken };
        }
        // The look-up failed: the next try looks again before it sends anything.
        last = asSdkError(found.failure, where);
        if (!transient(found.failure) || signal?.aborted) return { status: 'failed', error: last };
        uncertain = true;
        continue;
      }
      if (!transient(error) || signal?.aborted) return { status: 'failed', error: last };
      if (mayHaveCreated(error)) uncertain = true;
    }
  }
  // `attempts` is at least 1 (see `settings`): the loop ran, and ended on a failure.
  return { status: 'failed', error: last as ContentPlatformError };
}

/**
 * The rows checked before anything is sent: a row that `create` would refuse, or whose name an earlier row already
 * has (names are unique), gets its error; the others get `undefined`.
 */
export function checkRows<T extends Named, Row extends NamedRow>(
  set: RecordSet<T, Row>,
  rows: readonly unknown[],
  where: string,
): (InvalidParamsError | undefined)[] {
  const seen = new Map<string, number>();
  return rows.map((row, index) => {
    try {
      set.check(row, `${where}: row ${index}`);
    } catch (error) {
      if (error instanceof InvalidParamsError) return error;
      throw error;
    }
    const key = nameKey((row as NamedRow).name);
    const first = seen.get(key);
    if (first !== undefined)
      return new InvalidParamsError(
        `${where}: row ${index} has the name of row ${first} (${JSON.stringify((row as NamedRow).name)}); names are unique.`,
        'name',
      );
    seen.set(key, index);
    return undefined;
  });
}

/** `rows` as an array, or a clear error. */
export function rowsOf(rows: unknown, where: string, what: string): readonly unknown[] {
  // A hole in a sparse array is a row like any other (`undefined`, refused as one).
  if (Array.isArray(rows)) return Array.from(rows);
  throw new InvalidParamsError(
    `${where}: ${what} must be an array; got ${rows === null ? 'null' : typeof rows}.`,
    what,
  );
}

/** The fields of `row` that differ from `record` (only those the row gives), or `undefined` when none does. */
export function differences<T extends Named, Row extends NamedRow>(
  set: RecordSet<T, Row>,
  row: Row,
  record: T,
): Partial<Row> | undefined {
  const changes: Partial<Row> = {};
  let any = false;
  for (const field of set.fields) {
    const want = row[field];
    if (want === undefined) continue;
    if (want !== (record as unknown as Row)[field]) {
      changes[field] = want;
      any = true;
    }
  }
  return any ? changes : undefined;
}
