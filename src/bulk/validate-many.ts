import { InvalidPurchaseCodeError } from '../core/errors/index.js';
import type { RequestOptions } from '../core/transport/index.js';
import { pool, settings, Tally, tried } from './pool.js';
import { rowsOf } from './records.js';
import type { BulkOptions, ValidateManyEntry, ValidateManyReport } from './types.js';

/** How the job validates one code: the client's `purchases.validate` (its cache included). */
export type ValidateOne<P> = (code: string, options: RequestOptions) => PromiseLike<P>;

/**
 * Validates every code, at most `concurrency` at once through the client's throttle (and its cache, when it has
 * one): each is `valid`, `invalid` (the server refused it) or `failed` (no answer said either, after `attempts`
 * tries through transient failures). Counts by error class in `errors`.
 */
export async function validateMany<P>(
  validate: ValidateOne<P>,
  given: readonly string[],
  options?: BulkOptions,
): Promise<ValidateManyReport<P>> {
  const where = 'purchases.validateMany';
  const codes = rowsOf(given, where, 'codes') as readonly string[];
  const config = settings(options, where);
  const entries: ValidateManyEntry<P>[] = codes.map((code, index) => ({ status: 'skipped', index, code }));
  const tally = new Tally(codes.length, config);
  await pool(codes.length, config, async (index) => {
    const code = codes[index] as string;
    const done = await tried(config, where, (request) => validate(code, request));
    if ('value' in done) entries[index] = { status: 'valid', index, code, purchase: done.value };
    else if (done.error instanceof InvalidPurchaseCodeError)
      entries[index] = { status: 'invalid', index, code, error: done.error };
    else entries[index] = { status: 'failed', index, code, error: done.error };
    tally.finished(entries[index]?.status === 'failed');
  });
  const count = (status: ValidateManyEntry<P>['status']) => entries.filter((e) => e.status === status).length;
  const errors: Record<string, number> = {};
  for (const entry of entries)
    if (entry.status === 'invalid' || entry.status === 'failed')
      errors[entry.error.name] = (errors[entry.error.name] ?? 0) + 1;
  return tally.result(where, {
    entries,
    valid: count('valid'),
    invalid: count('invalid'),
    failed: count('failed'),
    skipped: count('skipped'),
    errors,
    aborted: config.signal?.aborted === true,
  });
}
