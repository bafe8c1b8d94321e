import type { Flavor, Locale } from './core/types.js';
import type { ReferenceStore } from './store.js';

/** What a route needs to answer one request. */
export interface Context {
  request: Request;
  url: URL;
  /** The site's base path (`''` at the root), so links and redirects keep it. */
  prefix: string;
  store: ReferenceStore;
  flavor: Flavor;
  locale: Locale;
}

/** Whether the request asks for JSON, as Laravel's `expectsJson()` decides. */
export function wantsJson(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  return /\/json|\+json/i.test(accept) || request.headers.get('x-requested-with') === 'XMLHttpRequest';
}

/** The Bearer token of the request, or null. */
export function bearer(request: Request): string | null {
  const match = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '');
  return match?.[1]?.trim() ?? null;
}
