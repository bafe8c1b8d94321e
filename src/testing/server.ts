import { SEED_CATALOG_KEYS, SEED_PURCHASE_CODES } from './catalog/seed.js';
import { droppedConnection, FaultController, type FaultSettings, type ScriptedFault } from './core/faults.js';
import { html, LOGIN_PAGE } from './core/html.js';
import { RateLimiter, type ServerRateLimitOptions } from './core/rate-limit.js';
import { hang, sleep } from './core/timing.js';
import type { FetchHandler, Flavor, Locale } from './core/types.js';
import { SEED_MANAGEMENT_KEYS } from './management/seed.js';
import { canned, dispatch } from './router.js';
import { ReferenceStore, type SeedOptions } from './store.js';

/** Options of {@link createReferenceServer}. */
export interface ReferenceServerOptions {
  /** Wire shapes: `'laravel'` (default, as the real servers send them) or `'spec'`. */
  flavor?: Flavor;
  /** Catalog `status` / `msg` words: `'ar'` (default, the spec's) or `'en'` (the real server's English defaults). */
  locale?: Locale;
  /**
   * `true` (default) loads the seed, `false` starts empty (keys still valid), an object adds generated records and
   * given ones (`records`, such as `await readSeedFile('rehearsal.ndjson')` returns) on top of it.
   */
  seed?: boolean | SeedOptions;
  /** Management keys, one workspace each; the first two get the seeded records. */
  managementKeys?: readonly string[];
  /** Catalog keys; the first owns the seeded account, items and purchases, the others own no items. */
  catalogKeys?: readonly string[];
  /**
   * A per-key limit, as the real servers enforce (60 or 120 a minute): every answer carries `X-RateLimit-Limit`
   * and `X-RateLimit-Remaining`, and a request over the limit gets a 429 with `Retry-After` and
   * `X-RateLimit-Reset`. Default: no limit, and no rate-limit headers.
   */
  rateLimit?: ServerRateLimitOptions | false;
  /** Standing faults from the start (see `server.faults`). */
  faults?: FaultSettings;
  /** The clock for `created_at` / `updated_at` and rate-limit windows. */
  now?: () => Date;
  /**
   * The path the site lives under, e.g. `'/market'` for `https://example.com/market/api/…`; default `''` (the root).
   * Requests outside it are 404, like a wrong base URL against the real site.
   */
  basePath?: string;
}

/** A request as the server received it, for assertions on retries. */
export interface RecordedRequest {
  method: string;
  /** The full URL, with an `api_key` parameter's value shown as `***`. */
  url: string;
  /** The request's headers, names in lower case, with the `Authorization` credentials shown as `***`. */
  headers: Record<string, string>;
  /** The scripted or injected fault it met, `'pass'` when none. */
  fault: ScriptedFault;
  /** The status it was answered with; `undefined` while it waits, or when it got no answer (a fault). */
  status?: number;
}

/** Fixed values of the seed, handy in tests. */
export const SEED_FIXTURES = {
  purchaseCodes: SEED_PURCHASE_CODES,
  itemIds: { image: [101, 102, 103], audio: [104, 105, 106], video: [107, 108, 109], missing: 999_999 },
} as const;

/** An in-memory Content Platform server. */
export interface ReferenceServer extends FetchHandler {
  /** Answers a request; a drop-in `fetch` (bound), so it can be passed as the SDK's `fetch` option. */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** Restores the seed, clears rate-limit windows and the request log, and puts faults back to `options.faults`. */
  reset(): void;
  /** The data, for assertions (readers return copies). */
  readonly store: ReferenceStore;
  /** The accepted keys: `management` (one workspace each) and `catalog` (the first owns the items). */
  readonly keys: { management: readonly string[]; catalog: readonly string[] };
  /** Seeded purchase codes and item ids. */
  readonly fixtures: typeof SEED_FIXTURES;
  /** Fault injection: `set`, `script`, `clear`; `settings` is what is in effect. */
  readonly faults: FaultController;
  /** The per-key limit it enforces, the window's default filled in; `undefined` when it enforces none. */
  readonly rateLimit: Readonly<Required<ServerRateLimitOptions>> | undefined;
  /** Every request received since the last reset, in order. */
  readonly requests: readonly RecordedRequest[];
  readonly flavor: Flavor;
  readonly locale: Locale;
  /** The path the site is served under, normalised (`''` at the root, else like `/market`). */
  readonly basePath: string;
}

/**
 * Creates an in-memory reference server of the whole spec (Management and Catalog APIs).
 *
 * @example
 * const server = createReferenceServer({ flavor: 'laravel' });
 * const res = await server.fetch(new Request('https://links.test/api/v1/pixels', {
 *   headers: { authorization: `Bearer ${server.keys.management[0]}`, accept: 'application/json' },
 * }));
 * (await res.json()).meta.total; // 12
 */
export function createReferenceServer(options: ReferenceServerOptions = {}): ReferenceServer {
  const flavor = options.flavor ?? 'laravel';
  const locale = options.locale ?? 'ar';
  const now = options.now ?? (() => new Date());
  const keys = {
    management: [...(options.managementKeys ?? SEED_MANAGEMENT_KEYS)],
    catalog: [...(options.catalogKeys ?? SEED_CATALOG_KEYS)],
  };
  const seed =
    options.seed === false ? false : options.seed === true || options.seed === undefined ? {} : options.seed;
  const store = new ReferenceStore({ managementKeys: keys.management, catalogKeys: keys.catalog, seed, now });
  const limits = options.rateLimit ? new RateLimiter(options.rateLimit, now) : undefined;
  const faults = new FaultController();
  if (options.faults) faults.set(options.faults);
  const requests: RecordedRequest[] = [];

  const basePath = checkBasePath(options.basePath ?? '');
  const route = (request: Request) => dispatch(request, { store, flavor, locale, limits, basePath });

  async function fetch(input: Request | string | URL, init?: RequestInit): Promise<Response> {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const { delayMs, action } = faults.decide(request);
    const record: RecordedRequest = { ...recorded(request), fault: action };
    requests.push(record);
    await sleep(delayMs, request.signal);
    const response = await answer(request, action);
    record.status = response.status;
    return response;
  }

  async function answer(request: Request, action: ScriptedFault): Promise<Response> {
    if (typeof action === 'object') return canned(action);
    switch (action) {
      case 'reset':
        throw droppedConnection();
      case 'hang':
        return hang(request.signal);
      case 'html':
        return html(LOGIN_PAGE);
      case 'lose-response':
        await (await route(request)).arrayBuffer();
        throw droppedConnection();
      case 'truncated': {
        const full = await route(request);
        const text = await full.text();
        const headers = new Headers(full.headers);
        headers.delete('content-length');
        return new Response(text.slice(0, Math.floor(text.length / 2)), { status: full.status, headers });
      }
      default:
        return route(request);
    }
  }

  return {
    fetch,
    reset() {
      store.reset();
      limits?.reset();
      faults.clear();
      if (options.faults) faults.set(options.faults);
      requests.length = 0;
    },
    store,
    keys,
    fixtures: SEED_FIXTURES,
    faults,
    rateLimit: limits?.settings,
    requests,
    flavor,
    locale,
    basePath,
  };
}

/** A base path as the router compares it: `''`, or `/segment[/segment…]` without a trailing slash. */
function checkBasePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed !== '' && !/^(\/[\w.~-]+)+$/.test(trimmed)) {
    throw new TypeError(`reference server: basePath must look like '/market', got ${JSON.stringify(path)}`);
  }
  return trimmed;
}

/** What the request log keeps of a request: method, URL and headers, the keys in them masked. */
function recorded(request: Request): Pick<RecordedRequest, 'method' | 'url' | 'headers'> {
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) {
    // `Bearer <key>` keeps its scheme; a bare credential is masked whole.
    headers[name] =
      name === 'authorization' ? (/^\S+\s+\S/.test(value) ? value.replace(/\s.*$/, ' ***') : '***') : value;
  }
  return { method: request.method, url: request.url.replace(/([?&]api_key=)[^&#]*/gi, '$1***'), headers };
}
