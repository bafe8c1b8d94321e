// The errors of a list walk that cannot go on (see `checks.ts`): loaded on demand by the first, so a client whose
// pages are what they say carries none of their words.
import { ContentPlatformError, ResponseValidationError } from '../errors/index.js';
import type { Identified, PageMeta } from './meta.js';

/** A page other than the one asked for: `sent` is its `meta.current_page`. */
export function wrongPage(name: string, number: number, sent: number): ContentPlatformError {
  return new ContentPlatformError(
    `${name}: asked for page ${number}, the answer is page ${sent} (meta.current_page). A proxy or cache ` +
      'may be answering with one page again; the list walk stops here rather than loop.',
  );
}

/** An empty page whose `meta` says more pages follow. */
export function emptyPage(name: string, number: number, meta: PageMeta): ContentPlatformError {
  return new ContentPlatformError(
    `${name}: page ${number} is empty, yet its meta says the list has ${meta.last_page} pages ` +
      `(${meta.total} items); the list walk stops here rather than skip the rest.`,
  );
}

/** A page (`data`, `meta`, answered with `status`) made only of ids seen before, that says more follow. */
export function stalledPage(
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
