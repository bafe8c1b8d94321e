import {
  APIConnectionError,
  APIUserAbortError,
  ContentPlatformError,
  checkKeys,
  InternalServerError,
  InvalidParamsError,
  isContentPlatformError,
  RateLimitError,
  shown,
} from '../core/errors/index.js';
import type { RequestOptions } from '../core/transport/index.js';
import type { BulkOptions, OnProgress, Progress } from './types.js';

/** The bulk options checked, with their defaults. */
export interface Settings {
  concurrency: number;
  attempts: number;
  signal: AbortSignal | undefined;
  onProgress: OnProgress | undefined;
  request: BulkOptions['request'];
  /** The job stopped itself (its `onProgress` threw): no row starts after, those under way finish. */
  stopped: boolean;
  /** A value of `request` the first calls refused (see `refusal`): the job stopped, and rejects with it. */
  refused: InvalidParamsError | undefined;
  /** The job's name in its messages (`pixels.createMany`, `pixels.sync: apply`). */
  where: string;
}

/**
 * Checks a job's options (`null` or `undefined`: none, as on every other method).
 * @throws {InvalidParamsError} naming the option, or saying what the options are when they are not an object.
 */
export function settings(options: BulkOptions | null | undefined, where: string): Settings {
  checkKeys(options, OPTIONS, where);
  const { concurrency = 4, attempts = 5, signal, onProgress, request } = options ?? {};
  const whole = (value: number, name: string, most: number) => {
    if (!Number.isInteger(value) || value < 1 || value > most)
      throw new InvalidParamsError(
        `${where}: ${name} must be a whole number from 1 to ${most}; got ${shown(value)}.`,
        name,
      );
    return value;
  };
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw new InvalidParamsError(`${where}: signal must be an AbortSignal.`, 'signal');
  if (onProgress !== undefined && typeof onProgress !== 'function')
    throw new InvalidParamsError(`${where}: onProgress must be a function.`, 'onProgress');
  checkRequest(request, where);
  return {
    concurrency: whole(concurrency, 'concurrency', 64),
    attempts: whole(attempts, 'attempts', 20),
    signal,
    onProgress,
    request: request ?? undefined,
    stopped: false,
    refused: undefined,
    where,
  };
}

const OPTIONS = ['concurrency', 'attempts', 'signal', 'onProgress', 'request'];

/**
 * The names of `RequestOptions`, as the transport's `REQUEST_OPTIONS` (a type test keeps both equal to the type): a
 * value imported from the transport room would move it into a chunk shared with this one, growing the main entry.
 */
export const REQUEST_OPTIONS = [
  'signal',
  'timeout',
  'totalTimeout',
  'maxRetries',
  'maxRetryAfter',
  'maxResponseBytes',
  'headers',
  'hooks',
  'rateLimit',
] as const;

/**
 * Checks a job's `request`: the options each of its calls takes (`null` or `undefined`: none), every key one of
 * `REQUEST_OPTIONS` but `signal` (the job's own ends every call). Their values are the calls' to check.
 * @throws {InvalidParamsError} `request` is not an object, holds a `signal`, or an unknown key.
 */
export function checkRequest(request: unknown, where: string): void {
  if (request != null && (typeof request !== 'object' || 'signal' in request))
    throw new InvalidParamsError(
      `${where}: request must be an object of request options, without signal (give the job's own).`,
      'request',
    );
  checkKeys(request, REQUEST_OPTIONS, `${where}: request`);
}

/**
 * Whether a call of the job refused a value of its `request` (a `timeout` of `'5'`, a header that cannot be sent):
 * every call of the job would, before sending anything. The job notes it (its first such error, naming the job), stops
 * starting rows and rejects with it, instead of failing each row. The values are checked by the calls themselves, so
 * that no second copy of the transport's checks lives here. A row's own bad field names another parameter.
 */
export function refusal(error: unknown, settings: Settings): boolean {
  const refused = requestRefused(error, settings.where);
  if (refused === undefined) return false;
  settings.refused ??= refused;
  settings.stopped = true;
  return true;
}

/** For a listing's `catch`: a value of `request` it refused (nothing sent) rethrown as the job's own error. */
export function rethrowRefused(where: string): (error: unknown) => never {
  return (error) => {
    throw requestRefused(error, where) ?? error;
  };
}

/** The job's own error for a value of its `request` that a call refused (see `refusal`); `undefined` otherwise. */
export function requestRefused(error: unknown, where: string): InvalidParamsError | undefined {
  const param = (error as InvalidParamsError | undefined)?.param;
  return error instanceof InvalidParamsError && (REQUEST_OPTIONS as readonly unknown[]).includes(param)
    ? new InvalidParamsError(`${where}: request: ${error.message}`, param)
    : undefined;
}

/** Counts a job's progress and reports it. */
export class Tally {
  readonly #progress: Progress;
  readonly #settings: Settings;
  /** What the `onProgress` callback threw: the job stopped starting rows, and rejects with it once they settle. */
  thrown: { error: unknown } | undefined;

  constructor(total: number, settings: Settings) {
    this.#progress = { done: 0, total, failed: 0 };
    this.#settings = settings;
    this.#tell();
  }

  /**
   * The job's result, unless its `onProgress` threw: then the job (which stopped starting rows, and let those under
   * way settle) rejects with a `ContentPlatformError` whose `cause` is what it threw and whose `report` is the result.
   */
  result<R>(where: string, report: R): R {
    if (this.#settings.refused) throw this.#settings.refused;
    const thrown = this.thrown;
    if (thrown === undefined) return report;
    const reason = (thrown.error as Error)?.message ?? String(thrown.error);
    throw Object.assign(
      new ContentPlatformError(
        `${where}: onProgress threw (${reason}), so the job stopped; error.report says what it did.`,
        {
          cause: thrown.error,
        },
      ),
      { report },
    );
  }

  /** One more finished, failed or not. */
  finished(failed: boolean): void {
    this.#progress.done += 1;
    if (failed) this.#progress.failed += 1;
    this.#tell();
  }

  #tell(): void {
    const report = this.#settings.onProgress;
    if (report === undefined || this.thrown) return;
    try {
      report({ ...this.#progress });
    } catch (error) {
      this.thrown = { error };
      this.#settings.stopped = true;
    }
  }
}

/**
 * Runs `work` for each index from 0 to `count - 1`, at most `concurrency` at once, in order of start; stops
 * starting new ones once the job's `signal` aborts or the job stops itself. Resolves when every started one has settled (`work` must not reject).
 */
export async function pool(
  count: number,
  settings: Settings,
  work: (index: number) => Promise<void>,
): Promise<void> {
  const { concurrency, signal } = settings;
  let next = 0;
  const worker = async () => {
    while (next < count && !signal?.aborted && !settings.stopped) {
      const index = next;
      next += 1;
      await work(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/**
 * Whether a failure may pass if tried again: a 5xx, a 408, a 429 (past the client's own waits), no answer or a
 * timeout. A caller's abort is not.
 */
export function transient(error: unknown): boolean {
  if (error instanceof APIUserAbortError) return false;
  if (error instanceof APIConnectionError || error instanceof RateLimitError) return true;
  if (error instanceof InternalServerError) return true;
  return isContentPlatformError(error) && (error as { status?: number }).status === 408;
}

/** Whether a failed create may have reached the server (its record may exist): see `createMany`. */
export function mayHaveCreated(error: unknown): boolean {
  if (error instanceof APIConnectionError) return !(error instanceof APIUserAbortError);
  return (
    error instanceof InternalServerError ||
    (error as { mayHaveSucceeded?: boolean })?.mayHaveSucceeded === true
  );
}

/** Waits `ms` (a backoff between tries), or less when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The backoff before try `n` (from 2): 250 ms doubling, capped at 4 s, with full jitter. */
export function backoff(n: number): number {
  return Math.random() * Math.min(4_000, 250 * 2 ** (n - 2));
}

/** Anything a job's own code meets as an SDK error (a bug in a hook, say), wrapped. */
export function asSdkError(error: unknown, where: string): ContentPlatformError {
  if (isContentPlatformError(error)) return error as ContentPlatformError;
  return new ContentPlatformError(`${where}: ${(error as Error)?.message ?? String(error)}`, {
    cause: error,
  });
}

/**
 * `send` tried through transient failures (`attempts`, with a backoff), for a request that may be sent again (an
 * update, a delete, a validation): its value, or the error it ended with.
 */
export async function tried<V>(
  config: Settings,
  where: string,
  send: (request: RequestOptions) => PromiseLike<V>,
): Promise<{ value: V } | { error: ContentPlatformError }> {
  let last: ContentPlatformError | undefined;
  for (let attempt = 1; attempt <= config.attempts; attempt += 1) {
    if (attempt > 1) await pause(backoff(attempt), config.signal);
    try {
      return { value: await send({ ...config.request, signal: config.signal }) };
    } catch (error) {
      last = asSdkError(error, where);
      if (refusal(error, config) || !transient(error) || config.signal?.aborted) break;
    }
  }
  return { error: last as ContentPlatformError };
}
