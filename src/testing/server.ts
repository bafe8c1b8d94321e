import { SEED_CATALOG_KEYS, SEED_PURCHASE_CODES } from './catalog/seed.js';
import {
  checkFaultSettings,
  droppedConnection,
  FaultController,
  type FaultSettings,
  type ScriptedFault,
} from './core/faults.js';
import { html, LOGIN_PAGE } from './core/html.js';
import { aFunction, checkKeys, InvalidParamsError, oneOf, present, shown } from './core/options.js';
import { RateLimiter, type ServerRateLimitOptions } from './core/rate-limit.js';
import { hang, sleep } from './core/timing.js';
import type { FetchHandler, Flavor, Locale } from './core/types.js';
import { SEED_MANAGEMENT_KEYS } from './management/seed.js';
import { canned, dispatch } from './router.js';
import { MAX_GENERATED, ReferenceStore, type SeedOptions } from './store.js';

/**
 * Options of {@link createReferenceServer}. An unknown key, or a value outside what a field's JSDoc allows, is refused
 * with an `InvalidParamsError`; a field given as `undefined` or `null` takes its default.
 */
export interface ReferenceServerOptions {
  /** Wire shapes: `'laravel'` (default, as the real servers send them) or `'spec'`. */
  flavor?: Flavor;
  /** Catalog `status` / `msg` words: `'ar'` (default, the spec's) or `'en'` (the real server's English defaults). */
  locale?: Locale;
  /**
   * `true` (default) loads the seed, `false` starts empty (keys still valid), an object adds generated records and
   * given ones (`records`, such as `await readSeedFile('rehearsal.ndjson')` returns) on top of it: counts are whole
   * numbers, 0 or more; `purchaseCodes` non-empty strings.
   */
  seed?: boolean | SeedOptions;
  /** Management keys (non-empty strings), one workspace each; the first two get the seeded records. */
  managementKeys?: readonly string[];
  /** Catalog keys (non-empty strings); the first owns the seeded account, items and purchases, the others own no items. */
  catalogKeys?: readonly string[];
  /**
   * A per-key limit, as the real servers enforce (60 or 120 a minute): every answer carries `X-RateLimit-Limit`
   * and `X-RateLimit-Remaining`, and a request over the limit gets a 429 with `Retry-After` and
   * `X-RateLimit-Reset`. `limit` is a whole number, 1 or more; `windowMs` a positive number. Default (or `false`): no
   * limit, and no rate-limit headers.
   */
  rateLimit?: ServerRateLimitOptions | false;
  /** Standing faults from the start (see `server.faults`; checked as `faults.set` checks them). */
  faults?: FaultSettings;
  /** The clock for `created_at` / `updated_at` and rate-limit windows. */
  now?: () => Date;
  /**
   * The path the site lives under, e.g. `'/market'` for `https://example.com/market/api/…`; default `''` (the root).
   * Segments of letters, digits and `. _ ~ -` (not `.` or `..`); a trailing slash is dropped. Requests outside it are
   * 404, like a wrong base URL against the real site.
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
 * Creates an in-memory reference server of the whole spec (Management and Catalog APIs). `null` options are none.
 * @throws {InvalidParamsError} for an unknown option (naming the nearest: `createReferenceServer: unknown option
 * "flavour"; did you mean flavor?`) or a value its JSDoc does not allow; `SeedRecordError` for a bad seed record.
 *
 * @example
 * const server = createReferenceServer({ flavor: 'laravel' });
 * const res = await server.fetch(new Request('https://links.test/api/v1/pixels', {
 *   headers: { authorization: `Bearer ${server.keys.management[0]}`, accept: 'application/json' },
 * }));
 * (await res.json()).meta.total; // 12
 */
export function createReferenceServer(options: ReferenceServerOptions | null = {}): ReferenceServer {
  checkKeys(options, OPTIONS, WHERE);
  const given = options ?? {};
  const flavor = oneOf(given.flavor ?? 'laravel', ['laravel', 'spec'], WHERE, 'flavor');
  const locale = oneOf(given.locale ?? 'ar', ['ar', 'en'], WHERE, 'locale');
  const now = given.now ?? (() => new Date());
  aFunction(now, WHERE, 'now');
  const keys = {
    management: checkKeyList(given.managementKeys ?? SEED_MANAGEMENT_KEYS, 'managementKeys'),
    catalog: checkKeyList(given.catalogKeys ?? SEED_CATALOG_KEYS, 'catalogKeys'),
  };
  const seed = checkSeed(given.seed);
  const rateLimit = checkRateLimit(given.rateLimit);
  const standing = given.faults == null ? undefined : checkFaultSettings(given.faults, `${WHERE}: faults`);
  const basePath = checkBasePath(given.basePath ?? '');
  const store = new ReferenceStore({ managementKeys: keys.management, catalogKeys: keys.catalog, seed, now });
  const limits = rateLimit ? new RateLimiter(rateLimit, now) : undefined;
  const faults = new FaultController();
  if (standing) faults.set(standing);
  const requests: RecordedRequest[] = [];

  const route = (request: Request) => dispatch(request, { store, flavor, locale, limits, basePath });

  // The requests being answered. A Request follows its caller's signal only while something holds it (fetch's
  // weak link to the caller's controller): a delay or a 'hang' would otherwise miss the abort once it is collected.
  const answering = new Set<Request>();

  async function fetch(input: Request | string | URL, init?: RequestInit): Promise<Response> {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const { delayMs, action } = faults.decide(request);
    const record: RecordedRequest = { ...recorded(request), fault: action };
    requests.push(record);
    answering.add(request);
    try {
      await sleep(delayMs, request.signal);
      const response = await answer(request, action);
      record.status = response.status;
      return response;
    } finally {
      answering.delete(request);
    }
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
      if (standing) faults.set(standing);
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

const WHERE = 'createReferenceServer';
const OPTIONS = [
  'flavor',
  'locale',
  'seed',
  'managementKeys',
  'catalogKeys',
  'rateLimit',
  'faults',
  'now',
  'basePath',
];
const SEED_OPTIONS = ['pixels', 'domains', 'items', 'purchaseCodes', 'records'];

/**
 * A base path as the router compares it: `''`, or `/segment[/segment…]` without a trailing slash.
 * @throws {InvalidParamsError} for anything else, or a `.` or `..` segment (every client's URL resolves it away).
 */
function checkBasePath(path: unknown): string {
  const trimmed = typeof path === 'string' ? path.replace(/\/+$/, '') : undefined;
  if (
    trimmed === undefined ||
    (trimmed !== '' && (!/^(\/[\w.~-]+)+$/.test(trimmed) || /\/\.{1,2}(\/|$)/.test(trimmed)))
  ) {
    throw new InvalidParamsError(
      `${WHERE}: basePath must look like '/market' (segments of letters, digits and . _ ~ -); got ${shown(path)}.`,
      'basePath',
    );
  }
  return trimmed;
}

/** A copy of a list of keys. @throws {InvalidParamsError} unless it is an array of non-empty strings. */
function checkKeyList(list: unknown, name: string): string[] {
  if (!Array.isArray(list) || !list.every((key) => typeof key === 'string' && key !== ''))
    throw new InvalidParamsError(
      `${WHERE}: ${name} must be an array of non-empty strings; got ${Array.isArray(list) ? 'an array holding something else' : shown(list)}.`,
      name,
    );
  return [...list];
}

/** The store's seed: `false`, or what to add to the fixed one. @throws {InvalidParamsError} naming the field. */
function checkSeed(seed: ReferenceServerOptions['seed'] | null): false | SeedOptions {
  if (seed === false) return false;
  if (seed === true || seed == null) return {};
  if (typeof seed !== 'object' || Array.isArray(seed))
    throw new InvalidParamsError(
      `${WHERE}: seed must be true, false or { pixels?, domains?, items?, purchaseCodes?, records? }; got ${shown(seed)}.`,
      'seed',
    );
  checkKeys(seed, SEED_OPTIONS, `${WHERE}: seed`);
  for (const name of ['pixels', 'domains', 'items'] as const) {
    const count = seed[name];
    // As the bin's bound: a count past it is a typo, and one of 1e9 ran the process out of memory.
    if (count != null && !(Number.isSafeInteger(count) && count >= 0 && count <= MAX_GENERATED))
      throw new InvalidParamsError(
        `${WHERE}: seed.${name} must be a whole number from 0 to ${MAX_GENERATED}; got ${shown(count)}.`,
        `seed.${name}`,
      );
  }
  if (seed.purchaseCodes != null) checkKeyList(seed.purchaseCodes, 'seed.purchaseCodes');
  return present(seed);
}

/** The per-key limit, or `undefined` for none. @throws {InvalidParamsError} naming the field. */
function checkRateLimit(
  rateLimit: ReferenceServerOptions['rateLimit'] | null,
): ServerRateLimitOptions | undefined {
  if (rateLimit == null || rateLimit === false) return undefined;
  if (typeof rateLimit !== 'object' || Array.isArray(rateLimit))
    throw new InvalidParamsError(
      `${WHERE}: rateLimit must be false or { limit, windowMs? }; got ${shown(rateLimit)}.`,
      'rateLimit',
    );
  checkKeys(rateLimit, ['limit', 'windowMs'], `${WHERE}: rateLimit`);
  const { limit, windowMs } = rateLimit;
  if (!(Number.isSafeInteger(limit) && limit >= 1))
    throw new InvalidParamsError(
      `${WHERE}: rateLimit.limit must be a whole number, 1 or more; got ${shown(limit)}.`,
      'rateLimit.limit',
    );
  if (windowMs == null) return { limit };
  if (!(typeof windowMs === 'number' && Number.isFinite(windowMs) && windowMs > 0))
    throw new InvalidParamsError(
      `${WHERE}: rateLimit.windowMs must be a positive number of ms; got ${shown(windowMs)}.`,
      'rateLimit.windowMs',
    );
  return { limit, windowMs };
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
