import { inspect } from 'node:util';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { CatalogClient, type CatalogClientOptions } from '../../src/catalog/index.js';
import type { Logger } from '../../src/core/transport/index.js';
import { ManagementClient, type ManagementClientOptions } from '../../src/management/index.js';
import {
  createReferenceServer,
  type FetchHandler,
  type ListeningServer,
  listen,
  type ReferenceServer,
} from '../../src/testing/index.js';
import { createMswHandlers } from '../../src/testing/msw.js';

/**
 * A token no real text contains; every key carries it, so finding it anywhere (raw, URL-encoded, cut short by
 * a snippet) is a leak. The Catalog key also has `+`, `/` and `=` so its encoded forms differ from the raw one.
 */
export const TOKEN = 'QX7RELIABILITYZK';
export const KEYS = {
  management: [`mk_${TOKEN}_alpha`, `mk_${TOKEN}_beta`, `mk_${TOKEN}_empty`],
  catalog: [`ck+${TOKEN}/main=`, `ck_${TOKEN}_noitems`],
} as const;
export const MGMT_KEY = KEYS.management[0];
export const CATALOG_KEY = KEYS.catalog[0];

/** Every text of every error, log line and toJSON() the suite produced; the secrets test reads it at the end. */
export const collected = { texts: [] as string[], errors: 0, lines: 0, unhandled: [] as unknown[] };

/** Records every text a user could see of an error. */
export function collectError(error: unknown): void {
  collected.errors += 1;
  const e = error as Error & { toJSON?: () => unknown };
  collected.texts.push(
    String(e?.message),
    String(e?.stack),
    String(e),
    JSON.stringify(e),
    inspect(e, { depth: 12 }),
    inspect(e, { depth: 12, showHidden: true }),
  );
  if (typeof e?.toJSON === 'function') collected.texts.push(inspect(e.toJSON(), { depth: 12 }));
}

/** A console-compatible logger that keeps every line (and any extra argument) for the secrets test. */
export const capturingLogger: Logger & { lines: string[] } = {
  lines: [],
  error: (...args: unknown[]) => capture('error', args),
  warn: (...args: unknown[]) => capture('warn', args),
  info: (...args: unknown[]) => capture('info', args),
  debug: (...args: unknown[]) => capture('debug', args),
};
function capture(level: string, args: unknown[]) {
  const line = `${level} ${args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 12 }))).join(' ')}`;
  capturingLogger.lines.push(line);
  collected.texts.push(line);
  collected.lines += 1;
}

process.on('unhandledRejection', (reason) => {
  collected.unhandled.push(reason);
});

/** How a client reaches the server: a real 127.0.0.1 socket, msw interception, or the handler as `fetch`. */
export type Transport = 'socket' | 'msw' | 'fetch';

/** Rewrites what the reference server answers (slow or stalled bodies, schema drift) for one test. */
export type Middleware = (
  request: Request,
  next: (request: Request) => Promise<Response>,
) => Promise<Response>;

// Captured before msw patches the global fetch, so socket traffic never passes through its interceptor.
export const nativeFetch = globalThis.fetch;

const MSW_URLS = { baseUrl: 'https://links.reliability.test', siteUrl: 'https://market.reliability.test' };
const FETCH_URLS = { baseUrl: 'https://links.inprocess.test', siteUrl: 'https://market.inprocess.test' };

/** The reference server of the suite, its front door (for middleware) and its three transports. */
export interface Rig {
  server: ReferenceServer;
  front: FetchHandler;
  /** Replaces the middleware for the current test (cleared after each test). */
  use(middleware: Middleware): void;
  socketUrl(): string;
  mgmt(via: Transport, options?: ManagementClientOptions): ManagementClient;
  catalog(via: Transport, options?: CatalogClientOptions): CatalogClient;
  /** Pixels of the first workspace, as the store holds them. */
  pixels(): { id: number; name: string }[];
}

/** Starts the suite's reference server, socket and msw (msw only intercepts the msw origins). */
export function useRig(): Rig {
  const server = createReferenceServer({ managementKeys: KEYS.management, catalogKeys: KEYS.catalog });
  let middleware: Middleware | undefined;
  const front: FetchHandler = {
    fetch: (request) => (middleware ? middleware(request, server.fetch) : server.fetch(request)),
  };
  const msw = setupServer(...createMswHandlers(front, MSW_URLS));
  let live: ListeningServer | undefined;

  beforeAll(async () => {
    live = await listen(front, { port: 0 });
    // Requests to other origins (the loopback socket) are not msw's: let them through untouched.
    msw.listen({ onUnhandledFrame: 'bypass' });
  });
  beforeEach(() => {
    server.reset();
    middleware = undefined;
  });
  afterEach(() => {
    middleware = undefined;
  });
  afterAll(async () => {
    msw.close();
    await live?.close();
  });

  const socketUrl = () => {
    if (!live) throw new Error('the socket is not listening yet');
    return live.url;
  };
  const common = { logger: capturingLogger, logLevel: 'debug' as const, maxRetries: 2, timeout: 3_000 };
  const transport = (via: Transport, which: 'baseUrl' | 'siteUrl') => {
    if (via === 'socket') return { [which]: socketUrl(), fetch: (request: Request) => nativeFetch(request) };
    if (via === 'msw') return { [which]: MSW_URLS[which] };
    return { [which]: FETCH_URLS[which], fetch: (request: Request) => front.fetch(request) };
  };
  return {
    server,
    front,
    use: (m) => {
      middleware = m;
    },
    socketUrl,
    mgmt: (via, options = {}) =>
      new ManagementClient({ apiKey: MGMT_KEY, ...common, ...transport(via, 'baseUrl'), ...options }),
    catalog: (via, options = {}) =>
      new CatalogClient({ apiKey: CATALOG_KEY, ...common, ...transport(via, 'siteUrl'), ...options }),
    pixels: () => server.store.pixels(MGMT_KEY),
  };
}

/** Awaits a call that must fail; records the error for the secrets test and returns it. */
export async function failure(call: PromiseLike<unknown>): Promise<Error> {
  try {
    await call;
  } catch (error) {
    collectError(error);
    return error as Error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** Rewrites every JSON body the server sends through `edit` (status and headers kept). */
export function editJson(edit: (body: unknown, request: Request) => unknown): Middleware {
  return async (request, next) => {
    const response = await next(request);
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return new Response(text, { status: response.status, headers: response.headers });
    }
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(edit(body, request)), { status: response.status, headers });
  };
}

/**
 * Sends the real answer's headers at once and its body in `chunks` pieces, `gapMs` apart; with `stallAfter`,
 * stops after that many pieces and never finishes (until the client goes away).
 */
export function slowBody(options: { chunks: number; gapMs: number; stallAfter?: number }): Middleware {
  return async (request, next) => {
    const response = await next(request);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const size = Math.ceil(bytes.length / options.chunks);
    let sent = 0;
    const gone = new Promise<never>((_, reject) => {
      const fail = () => reject(request.signal.reason ?? new Error('client gone'));
      if (request.signal.aborted) fail();
      else request.signal.addEventListener('abort', fail, { once: true });
    });
    gone.catch(() => {});
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (options.stallAfter !== undefined && sent >= options.stallAfter) {
          await gone.catch(() => controller.close());
          return;
        }
        if (sent > 0) {
          await Promise.race([new Promise((r) => setTimeout(r, options.gapMs)), gone]).catch(() => {});
        }
        const piece = bytes.subarray(sent * size, (sent + 1) * size);
        sent += 1;
        if (piece.length === 0) controller.close();
        else controller.enqueue(piece);
      },
    });
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(body, { status: response.status, headers });
  };
}

// A scenario's time bounds read `since(mark())`: its time less what a loaded machine kept this thread waiting for a
// CPU (client and server both run in this thread), so they hold the SDK to them and not the machine; lower bounds read
// `wallSince`.
export { type Mark, mark, since, wallSince } from '../helpers/load.js';

/** One named fault-injection scenario: it arranges faults, makes calls and asserts the outcome and timing. */
export interface Scenario {
  name: string;
  /** Transports it runs over; default the real socket. */
  via?: readonly Transport[];
  /**
   * The scenario must finish within this many ms, less the time a loaded machine kept this thread waiting for a CPU
   * (`since`); the test's own timeout, on the wall clock, is a minute longer, for a hang only.
   */
  within: number;
  /** Builds what the scenario serves (a compressed bomb) before it starts: not the SDK's time, nor its attempts'. */
  prepare?(): unknown;
  run(rig: Rig, via: Transport): Promise<void>;
}

/** Requests the reference server received since the test began. */
export function attempts(rig: Rig): number {
  return rig.server.requests.length;
}

/** Log lines written after `mark` (take `mark` with `capturingLogger.lines.length`). */
export function linesSince(mark: number): string[] {
  return capturingLogger.lines.slice(mark);
}
