// What the bulk jobs are to their callers: options, reports and plans (types only), shared by the resources' methods
// (in the main entry) and the jobs themselves (a chunk loaded on the first bulk call).
import type { ContentPlatformError } from '../core/errors/index.js';
import type { RequestOptions } from '../core/transport/index.js';

/** How far a long operation has come: what a progress line or bar shows. */
export interface Progress {
  /** Rows, codes or items finished so far (in any outcome). */
  done: number;
  /** How many there are in all (a list walk: the first page's `meta.total`). */
  total: number;
  /** How many of `done` failed. */
  failed: number;
}

/** Called after each row, code or item is finished, and once at the start (`done: 0`). Must not throw. */
export type OnProgress = (progress: Progress) => void;

/** Options shared by the bulk jobs. */
export interface BulkOptions {
  /** Most requests of the job in flight at once (the client's throttle still paces them). Default 4. */
  concurrency?: number | undefined;
  /**
   * Most tries for one row after a transient failure (a 5xx, no answer, a timeout, a 429 past `maxRetryAfter`),
   * the SDK's own retries inside each. Default 5.
   */
  attempts?: number | undefined;
  /** Stops the job: rows not started are reported `skipped`, and the report says `aborted: true`. */
  signal?: AbortSignal | undefined;
  /** Called as the job goes (see `Progress`). */
  onProgress?: OnProgress | undefined;
  /** Request options for every request the job sends (`timeout`, `headers`, `hooks`…; not `signal`). */
  request?: Omit<RequestOptions, 'signal'> | undefined;
}

/** One row of a `createMany` report, at its index in the rows given. */
export type CreateManyEntry<T, Row> =
  | {
      /** The create succeeded: `record` is what the server stored. */
      status: 'created';
      index: number;
      row: Row;
      record: T;
    }
  | {
      /**
       * A record of that name was there: created by an earlier try whose answer was lost (found again by its unique
       * name), or before the job (a run again, a resume). `record` is the server's.
       */
      status: 'existed';
      index: number;
      row: Row;
      record: T;
      /**
       * The row's fields that differ from the stored record (a row whose name was taken by another record, say);
       * `undefined` when the record is as the row asks. `sync` updates them.
       */
      changes?: Partial<Row> | undefined;
    }
  | {
      /** The row failed: a bad row (`InvalidParamsError`, before any request), a refusal, or tries spent. */
      status: 'failed';
      index: number;
      row: Row;
      error: ContentPlatformError;
    }
  | {
      /** Not tried: the job was aborted first. */
      status: 'skipped';
      index: number;
      row: Row;
    };

/** What `createMany` did: one entry per row, in the order given, and the counts. */
export interface CreateManyReport<T, Row> {
  /** One per row, in input order. */
  entries: CreateManyEntry<T, Row>[];
  created: number;
  existed: number;
  failed: number;
  skipped: number;
  /** The job's `signal` stopped it: run it again with the same rows to finish (nothing is created twice). */
  aborted: boolean;
}

/** Options of `sync`; `T` is the record (`Pixel`, `Domain`). */
export interface SyncOptions<T = { id: number; name: string }> {
  /**
   * Delete what exists and is not desired: `true` for every such record, or a function choosing which (e.g. only
   * this campaign's: `(pixel) => pixel.name.startsWith('Spring ')`). Default `false`: a plan never deletes without it.
   */
  prune?: boolean | ((record: T) => boolean) | undefined;
  /** Request options for the listing the plan is made from. */
  request?: Omit<RequestOptions, 'signal'> | undefined;
  /** Stops the listing. */
  signal?: AbortSignal | undefined;
}

/** One change of a plan: a record to update, with the fields that change. */
export interface PlannedUpdate<T, Row> {
  /** The record as the plan saw it (the base the change is made against). */
  before: T;
  /** The fields to change, with their desired values. */
  changes: Partial<Row>;
}

/** One row of an apply's report, in the plan's order: creates, then updates, then deletes. */
export interface ApplyEntry<T> {
  action: 'create' | 'update' | 'delete';
  /** The record's name (its key in the plan). */
  name: string;
  /**
   * `created`, `existed` (a create whose record was there: see `createMany`), `updated`, `deleted`; `conflict`: the
   * record changed (or went away) since the plan was made, so the row was refused rather than overwritten;
   * `failed`; `skipped` (aborted first).
   */
  status: 'created' | 'existed' | 'updated' | 'deleted' | 'conflict' | 'failed' | 'skipped';
  /** The record after the change (created, existed, updated), or as it is now (conflict), when known. */
  record?: T | undefined;
  /** Why it failed. */
  error?: ContentPlatformError | undefined;
}

/** What an apply did. */
export interface ApplyReport<T> {
  entries: ApplyEntry<T>[];
  created: number;
  existed: number;
  updated: number;
  deleted: number;
  conflicts: number;
  failed: number;
  skipped: number;
  aborted: boolean;
}

/**
 * What `sync` would change, keyed by name, computed from one listing: read it (`toString()`), then `apply()` it.
 * Nothing changes before `apply`.
 */
export interface SyncPlan<T, Row> {
  /** Desired rows no record has the name of. */
  creates: Row[];
  /** Records whose desired fields differ, with the fields that change. */
  updates: PlannedUpdate<T, Row>[];
  /** Records not desired (only with `prune: true`). */
  deletes: T[];
  /** Desired rows already as desired. */
  unchanged: number;
  /** The plan as a short table: one line per change, then the counts. */
  toString(): string;
  /**
   * Applies the plan: creates as `createMany` does (never twice), updates and deletes retried through transient
   * faults. A record changed or deleted since the plan was made is refused (`conflict`), never overwritten.
   */
  apply(options?: BulkOptions): Promise<ApplyReport<T>>;
}

/** One code of a `validateMany` report, at its index in the codes given. */
export type ValidateManyEntry<P> =
  | {
      /** The code is valid: `purchase` is the server's (or the cache's) answer. */
      status: 'valid';
      index: number;
      code: string;
      purchase: P;
    }
  | {
      /** The server refused the code (`InvalidPurchaseCodeError`). */
      status: 'invalid';
      index: number;
      code: string;
      error: ContentPlatformError;
    }
  | {
      /** No answer said either: a bad code (`InvalidParamsError`), an error past its tries. */
      status: 'failed';
      index: number;
      code: string;
      error: ContentPlatformError;
    }
  | {
      /** Not tried: the job was aborted first. */
      status: 'skipped';
      index: number;
      code: string;
    };

/** What `validateMany` found: one entry per code, in the order given, and the counts. */
export interface ValidateManyReport<P> {
  entries: ValidateManyEntry<P>[];
  valid: number;
  invalid: number;
  failed: number;
  skipped: number;
  /** Failures by error class name (`APIConnectionError: 2`), `invalid` ones included. */
  errors: Record<string, number>;
  aborted: boolean;
}
