import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDroppedConnection } from '../core/faults.js';
import type { FetchHandler } from '../core/types.js';

/** Options of {@link listen}. */
export interface ListenOptions {
  /** Port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to bind; default `127.0.0.1` (loopback only). */
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
 *
 * @example
 * const server = createReferenceServer();
 * const { url, close } = await listen(server, { port: 0 });
 * const res = await fetch(`${url}/api/items/all?api_key=${server.keys.catalog[0]}`);
 * await close();
 */
export async function listen(server: FetchHandler, options: ListenOptions = {}): Promise<ListeningServer> {
  // Imported lazily so the testing entry point also loads where node:http does not exist.
  const { createServer } = await import('node:http');
  const { Readable } = await import('node:stream');
  const toWeb = (req: IncomingMessage) => Readable.toWeb(req) as ReadableStream<Uint8Array>;
  const host = options.host ?? '127.0.0.1';
  const http = createServer((req, res) => {
    void serve(server, req, res, host, toWeb);
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const reach = isWildcardHost(host) ? (host.includes(':') ? '::1' : '127.0.0.1') : host;
  const url = `http://${reach.includes(':') ? `[${reach}]` : reach}:${port}`;
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
