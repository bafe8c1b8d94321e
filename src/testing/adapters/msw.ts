import { type HttpHandler, HttpResponse, http } from 'msw';
import type { FetchHandler } from '../core/types.js';

/** Default origins for the msw handlers (reserved `.test` names, never resolvable). */
export const MSW_DEFAULT_URLS = {
  baseUrl: 'https://links.reference.test',
  siteUrl: 'https://market.reference.test',
} as const;

/** Options of {@link createMswHandlers}. */
export interface MswHandlerOptions {
  /** Origin (and optional base path) the Management client uses; default `https://links.reference.test`. */
  baseUrl?: string;
  /** Origin the Catalog client uses; default `https://market.reference.test`. */
  siteUrl?: string;
}

/**
 * msw handlers that forward every request under `baseUrl` and `siteUrl` to a reference server.
 * A dropped-connection fault becomes a network error (`fetch` rejects with a `TypeError`).
 *
 * @example
 * const mock = setupServer(...createMswHandlers(createReferenceServer()));
 * mock.listen({ onUnhandledFrame: 'error' });
 */
export function createMswHandlers(server: FetchHandler, options: MswHandlerOptions = {}): HttpHandler[] {
  const origins = new Set(
    [options.baseUrl ?? MSW_DEFAULT_URLS.baseUrl, options.siteUrl ?? MSW_DEFAULT_URLS.siteUrl].map((u) =>
      u.replace(/\/+$/, ''),
    ),
  );
  return [...origins].map((origin) =>
    http.all(`${origin}/*`, async ({ request }) => {
      try {
        return await server.fetch(request);
      } catch {
        return HttpResponse.error();
      }
    }),
  );
}
