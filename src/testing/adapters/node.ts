import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDroppedConnection } from '../core/faults.js';
import { checkKeys, InvalidParamsError, shown, wholeNumber } from '../core/options.js';
import type { FetchHandler } from '../core/types.js';

/**
 * Options of {@link listen}. An unknown key or a value outside these is refused with an `InvalidParamsError`; a field
 * given as `undefined` or `null` takes its default.
 */
export interface ListenOptions {
  /** Port, a whole number from 0 to 65535; 0 (default) picks a free one. */
  port?: number;
  /** Interface to bind, a non-empty address or name; default `127.0.0.1` (loopback only). */
  host?: string;
}

/** A running node:http server. */
export interface ListeningServer {
  /**
   * The origin a client on this machine calls, e.g. `http://127.0.0.1:4010`. Bound to every interface (`0.0.0.0`,
   * `::`), it names the loopback address, which the SDK accepts over http:// (the wildcard address it refuses).
   */
  url: string;
  /** The interface it is bound to, as given (`0.0.0.0` or `::`: every interface). */
  host: string;
  /** The port it is bound to (the free one picked for `port: 0`). */
  port: number;
  /** Stops accepting, destroys open connections (hung requests included) and resolves when closed. */
  close(): Promise<void>;
}

/**
 * Serves a fetch-style handler (a reference server) over real HTTP with `node:http`. Request bodies stream
 * into the web `Request`; a dropped-connection fault destroys the socket; a hang lasts until the client goes.
 * `null` options are none. A rejected call leaves nothing listening.
 * @throws {InvalidParamsError} before anything binds, for an unknown option (naming the nearest: `listen: unknown
 * option "prot"; did you mean port?`), a bad `port` or `host`, or a `server` without a `fetch` method; the bind's own
 * error (`EADDRINUSE`…) otherwise.
 *
 * @example
 * const server = createReferenceServer();
 * const { url, close } = await listen(server, { port: 0 });
 * const res = await fetch(`${url}/api/items/all?api_key=${server.keys.catalog[0]}`);
 * await close();
 */
export async function listen(
  server: FetchHandler,
  options: ListenOptions | null = {},
): Promise<ListeningServer> {
  checkKeys(options, ['port', 'host'], 'listen');
  if (typeof (server as Partial<FetchHandler> | null)?.fetch !== 'function')
    throw new InvalidParamsError(
      `listen: server must have a fetch method, such as createReferenceServer() returns; got ${shown(server)}.`,
      'server',
    );
  const host = options?.host ?? '127.0.0.1';
  const problem = typeof host === 'string' ? hostProblem(host) : 'not a host';
  if (problem === 'not a host')
    throw new InvalidParamsError(
      `listen: host must be a non-empty interface address or name; got ${shown(host)}.`,
      'host',
    );
  if (problem === 'wildcard')
    throw new InvalidParamsError(
      `listen: host ${JSON.stringify(host)} means every interface: give 0.0.0.0 (or ::) to listen on all of them, ` +
        'or 127.0.0.1 for this machine only.',
      'host',
    );
  const wanted = wholeNumber(options?.port ?? 0, 0, 65_535, 'listen', 'port');
  // Imported lazily so the testing entry point also loads where node:http does not exist.
  const { createServer } = await import('node:http');
  const { Readable } = await import('node:stream');
  const toWeb = (req: IncomingMessage) => Readable.toWeb(req) as ReadableStream<Uint8Array>;
  const http = createServer((req, res) => {
    void serve(server, req, res, host, toWeb);
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(wanted, host, () => resolve());
  });
  let port: number;
  let url: string;
  try {
    port = (http.address() as AddressInfo).port;
    const reach = isWildcardHost(host) ? (host.includes(':') ? '::1' : '127.0.0.1') : host;
    url = `http://${reach.includes(':') ? `[${reach}]` : reach}:${port}`;
  } catch (error) {
    // Bound but unusable: a rejected listen() must not leave a server holding the port and the process open.
    http.close();
    throw error;
  }
  return {
    url,
    host,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        http.close((error) => (error ? reject(error) : resolve()));
        http.closeAllConnections();
      }),
  };
}

/**
 * What is wrong with `host` as an interface to bind: `'not a host'` when it is not an address or a name a URL can
 * carry (Node would bind every interface for `''`, and look a name up only when binding), `'wildcard'` when it is a
 * spelling of the wildcard address other than `0.0.0.0` or `::` (`0`, `0.0`, `::ffff:0.0.0.0`), which binds every
 * interface too without saying so; `undefined` when it is fine.
 */
export function hostProblem(host: string): 'not a host' | 'wildcard' | undefined {
  const hostname = /^[A-Za-z0-9._:-]{1,253}$/.test(host) ? urlHost(host) : undefined;
  if (hostname === undefined) return 'not a host';
  // As the system reads an address (`0`, `0x0.0`, `0:0::0`): the URL parser writes each the same way.
  const wildcard = hostname === '0.0.0.0' || hostname === '[::]' || hostname === '[::ffff:0:0]';
  return wildcard && !isWildcardHost(host) ? 'wildcard' : undefined;
}

/** The host of a URL naming `host` (an IPv6 address bracketed), as the URL parser writes it; `undefined` if none. */
function urlHost(host: string): string | undefined {
  try {
    return new URL(`http://${host.includes(':') ? `[${host}]` : host}:1/`).hostname;
  } catch {
    return undefined;
  }
}

/** Whether binding `host` listens on every interface: `0.0.0.0`, `::` (or `::0`, or spelled out in full). */
export function isWildcardHost(host: string): boolean {
  return /^(0\.0\.0\.0|::0?|0{1,4}(:0{1,4}){7})$/.test(host);
}

type ToWeb = (req: IncomingMessage) => ReadableStream<Uint8Array>;

async function serve(
  handler: FetchHandler,
  req: IncomingMessage,
  res: ServerResponse,
  host: string,
  toWeb: ToWeb,
) {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished)
      controller.abort(new DOMException('The client closed the connection', 'AbortError'));
  });
  try {
    const response = await handler.fetch(toRequest(req, host, controller.signal, toWeb));
    await send(response, res);
  } catch (error) {
    if (isDroppedConnection(error) || controller.signal.aborted) {
      req.socket.destroy();
      return;
    }
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(`reference server error: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function toRequest(req: IncomingMessage, host: string, signal: AbortSignal, toWeb: ToWeb): Request {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (hasBody) {
    init.body = toWeb(req);
    init.duplex = 'half';
  }
  return new Request(url, init);
}

async function send(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // The reason phrase is sent as given: a test can answer `500 Bad token` as a real server might.
  if (response.statusText) res.writeHead(response.status, response.statusText, headers);
  else res.writeHead(response.status, headers);
  if (response.body) {
    for await (const chunk of response.body) {
      // A client that went away ends an endless body; one that reads slowly is waited for, not buffered.
      if (res.destroyed) break;
      if (!res.write(chunk)) await drained(res);
    }
  }
  res.end();
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
