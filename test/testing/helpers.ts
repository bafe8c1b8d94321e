import {
  createReferenceServer,
  type ReferenceServer,
  type ReferenceServerOptions,
} from '../../src/testing/index.js';

/** Origin used for direct `server.fetch` calls. */
export const ORIGIN = 'https://links.example.test';

/** A server plus one-line request helpers for the two APIs. */
export function setup(options: ReferenceServerOptions = {}) {
  const server: ReferenceServer = createReferenceServer(options);
  const [alpha = '', beta = '', empty = ''] = server.keys.management;
  const [catalogKey = '', noItemsKey = ''] = server.keys.catalog;

  /** A Management request: Bearer `key` (alpha by default), `Accept: application/json`, form body. */
  function mgmt(
    method: string,
    path: string,
    opts: { key?: string | null; form?: Record<string, string>; json?: unknown; accept?: string | null } = {},
  ): Promise<Response> {
    const headers = new Headers();
    const key = opts.key === undefined ? alpha : opts.key;
    if (key !== null) headers.set('authorization', `Bearer ${key}`);
    const accept = opts.accept === undefined ? 'application/json' : opts.accept;
    if (accept !== null) headers.set('accept', accept);
    let body: string | undefined;
    if (opts.form) {
      headers.set('content-type', 'application/x-www-form-urlencoded');
      body = new URLSearchParams(opts.form).toString();
    } else if (opts.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(opts.json);
    }
    return server.fetch(
      new Request(`${ORIGIN}/api/v1/${path}`, { method, headers, ...(body ? { body } : {}) }),
    );
  }

  /** A Catalog request to `/api/{path}` with optional query, JSON or form body and headers. */
  function catalog(
    method: string,
    path: string,
    opts: {
      query?: Record<string, string>;
      json?: unknown;
      form?: Record<string, string>;
      headers?: Record<string, string>;
    } = {},
  ): Promise<Response> {
    const url = new URL(`${ORIGIN}/api/${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
    const headers = new Headers({ 'user-agent': 'content-platform-sdk/0.2.0', ...opts.headers });
    let body: string | undefined;
    if (opts.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(opts.json);
    } else if (opts.form) {
      headers.set('content-type', 'application/x-www-form-urlencoded');
      body = new URLSearchParams(opts.form).toString();
    }
    return server.fetch(new Request(url, { method, headers, ...(body ? { body } : {}) }));
  }

  return { server, alpha, beta, empty, catalogKey, noItemsKey, mgmt, catalog };
}

/** Status and parsed JSON body of a response. */
// biome-ignore lint/suspicious/noExplicitAny: bodies are asserted with exact values, not typed
export async function read(response: Response): Promise<{ status: number; body: any }> {
  return { status: response.status, body: await response.json() };
}
