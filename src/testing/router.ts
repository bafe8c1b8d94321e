import { handleCatalog } from './catalog/routes.js';
import { bearer, type Context, wantsJson } from './context.js';
import { failureResponse, NO_BODY, type ScriptedFault } from './core/faults.js';
import { HOME_PAGE, html, LOGIN_PAGE } from './core/html.js';
import { json } from './core/json.js';
import type { RateLimiter } from './core/rate-limit.js';
import type { Flavor, Locale } from './core/types.js';
import { guardFailure, handleManagement, notFound } from './management/routes.js';
import type { ReferenceStore } from './store.js';

/**
 * A canned scripted answer: the Laravel failure body for a bare status (none for 204, 205 and 304, which carry no
 * body), else the given body and headers.
 */
export function canned(fault: Exclude<ScriptedFault, string>): Response {
  if (NO_BODY.includes(fault.status))
    return new Response(null, { status: fault.status, headers: new Headers(fault.headers) });
  if (fault.body === undefined && fault.headers === undefined) return failureResponse(fault.status);
  const isText = typeof fault.body === 'string';
  const body = fault.body === undefined ? null : isText ? (fault.body as string) : JSON.stringify(fault.body);
  const headers = new Headers(fault.headers);
  if (body !== null && !headers.has('content-type')) {
    headers.set('content-type', isText ? 'text/plain; charset=UTF-8' : 'application/json');
  }
  return new Response(body, { status: fault.status, headers });
}

/** The state every request shares. */
export interface Shared {
  store: ReferenceStore;
  flavor: Flavor;
  locale: Locale;
  /** The per-key limit, when the server enforces one (else no rate-limit headers at all). */
  limits: RateLimiter | undefined;
  /** The path the site lives under (`''` at the root, else like `/market`). */
  basePath: string;
}

/**
 * Routes a request under the base path: `/api/v1/…` to the Management API, other `/api/…` to the Catalog API,
 * `/login` and `/` to HTML pages; any other path is a 404, as on the real site (a wrong base URL fails here as it
 * would there). Counts every API request against the limit.
 */
export async function dispatch(request: Request, shared: Shared): Promise<Response> {
  if (request.method === 'HEAD') {
    const response = await dispatch(new Request(request, { method: 'GET' }), shared);
    return new Response(null, { status: response.status, headers: response.headers });
  }
  const url = new URL(request.url);
  const full = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  const base = shared.basePath;
  const path = full === base ? '/' : full.startsWith(`${base}/`) ? full.slice(base.length) : null;
  if (path === null || !path.startsWith('/api/')) return page(request, path, full, shared.flavor);
  const ctx: Context = {
    request,
    url,
    prefix: base,
    store: shared.store,
    flavor: shared.flavor,
    locale: shared.locale,
  };
  const rest = path.slice(5);
  const isManagement = rest.startsWith('v1/');
  const verdict = shared.limits?.hit(bearer(request) ?? url.searchParams.get('api_key') ?? 'anonymous');
  let response: Response;
  if (verdict?.limited) {
    response = isManagement
      ? guardFailure(ctx, 429, verdict.headers)
      : json({ message: 'Too Many Attempts.' }, 429, shared.flavor);
  } else if (isManagement) {
    response = await handleManagement(ctx, rest.slice(3).split('/'));
  } else {
    response = (await handleCatalog(ctx, rest)) ?? notFound(ctx);
  }
  for (const [name, value] of Object.entries(verdict?.headers ?? {})) response.headers.set(name, value);
  return response;
}

/** The site's pages under the base path; anything else is Laravel's 404 (JSON when the request asks for it). */
function page(request: Request, path: string | null, full: string, flavor: Flavor): Response {
  if (request.method === 'GET' && (path === '/' || path === '/login')) {
    return html(path === '/login' ? LOGIN_PAGE : HOME_PAGE);
  }
  if (wantsJson(request))
    return json({ message: `The route ${full.slice(1)} could not be found.` }, 404, flavor);
  return html('<!DOCTYPE html><html><body><h1>404 Not Found</h1></body></html>', 404);
}
