import { ContentPlatformError, ResponseValidationError } from '../errors/index.js';
import { type Identified, normalise, type PageMeta, type RawPage } from './meta.js';

/**
 * Fails a list call whose answer cannot be the page asked for, so that no walk loops or stops early in silence:
 * a `meta.current_page` other than `number` (a proxy or cache serving one page again), or an empty page whose
 * `meta` says more pages follow. `call.label` names the call in the message (read only to fail).
 * @throws {ContentPlatformError}
 */
export function checkPage<T>(
  raw: RawPage<T>,
  number: number,
  call: string | { readonly label: string },
): void {
  const name = () => (typeof call === 'string' ? call : call.label);
  const sent = raw.meta?.current_page;
  if (sent !== undefined && sent !== number) {
    throw new ContentPlatformError(
      `${name()}: asked for page ${number}, the answer is page ${sent} (meta.current_page). A proxy or cache ` +
        'may be answering with one page again; the list walk stops here rather than loop.',
    );
  }
  const meta = normalise(raw, number);
  if (raw.data.length === 0 && number < meta.last_page) {
    throw new ContentPlatformError(
      `${name()}: page ${number} is empty, yet its meta says the list has ${meta.last_page} pages ` +
        `(${meta.total} items); the list walk stops here rather than skip the rest.`,
    );
  }
}

/**
 * The error of a walk whose pages do not advance: a page (`data`, `meta`, answered with `status`) repeats only ids
 * seen on the pages before it, yet says more follow. Each page number is new, so `checkPage` passes it; without this
 * the walk would never end.
 */
export function stalled(
  data: readonly Identified[],
  meta: PageMeta,
  status: number,
): ResponseValidationError {
  const number = meta.current_page;
  return new ResponseValidationError({
    message:
      `List page ${number} repeats only ids already seen on earlier pages, yet says page ${number + 1} follows: ` +
      'the pages do not advance, so the list walk stops here rather than loop.',
    issues: [{ path: ['data'], message: 'every id was already seen on an earlier page' }],
    body: { data, meta },
    status,
  });
}
