import type { ContentPlatformError, ResponseValidationError } from '../errors/index.js';
import { type Identified, normalise, type PageMeta, type RawPage } from './meta.js';

/**
 * Fails a list call whose answer cannot be the page asked for, so that no walk loops or stops early in silence:
 * a `meta.current_page` other than `number` (a proxy or cache serving one page again), or an empty page whose
 * `meta` says more pages follow. `call.label` names the call in the message (read only to fail). Returns nothing
 * for a page that is the one asked for, else a promise that rejects with the error (its words load on demand).
 * @throws {ContentPlatformError} (the promise's rejection)
 */
export function checkPage<T>(
  raw: RawPage<T>,
  number: number,
  call: string | { readonly label: string },
): Promise<never> | undefined {
  const name = () => (typeof call === 'string' ? call : call.label);
  const sent = raw.meta?.current_page;
  if (sent !== undefined && sent !== number)
    return failWith((words) => words.wrongPage(name(), number, sent));
  const meta = normalise(raw, number);
  if (raw.data.length === 0 && number < meta.last_page)
    return failWith((words) => words.emptyPage(name(), number, meta));
  return undefined;
}

/**
 * The error of a walk whose pages do not advance: a page (`data`, `meta`, answered with `status`) repeats only ids
 * seen on the pages before it, yet says more follow. Each page number is new, so `checkPage` passes it; without this
 * the walk would never end.
 */
export async function stalled(
  data: readonly Identified[],
  meta: PageMeta,
  status: number,
): Promise<ResponseValidationError> {
  return (await import('./page-errors.js')).stalledPage(data, meta, status);
}

/** Rejects with the error `make` words from the lazily loaded messages. */
async function failWith(
  make: (words: typeof import('./page-errors.js')) => ContentPlatformError,
): Promise<never> {
  throw make(await import('./page-errors.js'));
}
