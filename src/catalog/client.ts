import {
  AccountRequestError,
  AuthenticationError,
  advise,
  checkKeys,
  InvalidParamsError,
  keyAdvice,
  recordCall,
  shown,
} from '../core/errors/index.js';
import type { RateLimitSnapshot } from '../core/throttle/index.js';
import {
  type ApiConfig,
  type ClientOptions,
  derivedFrom,
  HttpClient,
  lazyParsers,
  mergeOptions,
  parentOf,
  type RequestOptions,
  resolveOptions,
} from '../core/transport/index.js';
import { AccountResource } from './account.js';
import { PurchaseCache } from './cache.js';
import type { CacheSnapshot, PurchaseCacheOptions } from './cache-types.js';
import { readCatalogError } from './errors.js';
import { Items } from './items.js';
import { Purchases } from './purchases.js';
import type { Account } from './schemas.js';

/** The Catalog's response schemas with their generated parsers: one chunk, loaded by the first client. */
const CATALOG_PARSERS = lazyParsers(() => import('./parsers.generated.js'));

/** Options of `CatalogClient`: the shared client options plus the marketplace's site URL. */
export interface CatalogClientOptions extends ClientOptions {
  /** Site root, e.g. `https://market.example.com` (the SDK appends `/api`). Defaults to `CONTENT_PLATFORM_SITE_URL`. */
  siteUrl?: string | undefined;
  /**
   * Answers purchase validations from a cache: `{ ttl, staleIfError?, store?, maxEntries? }` (ms). A fresh entry
   * answers without a request; an invalid code's entry is deleted (fail closed); while the server cannot answer, an
   * entry younger than `staleIfError` does. Default: no cache, every validation asks the server.
   */
  cache?: PurchaseCacheOptions | undefined;
}

/**
 * Client of the Catalog API: account details, items, and purchase-code validation. The key travels as the
 * `api_key` parameter (query of a GET, JSON body of the POST).
 * @throws {InvalidParamsError} at construction, when the key or the site URL is missing or malformed, or the URL
 * names a port fetch refuses to call (such as 6000).
 *
 * @example
 * const catalog = new CatalogClient({ siteUrl: 'https://market.example.com', apiKey });
 * const item = await catalog.items.get(42);
 * if (item.media.kind === 'audio') console.log(item.media.preview_audio);
 */
export class CatalogClient {
  /** `account.details()`: the account that owns the key. */
  readonly account: AccountResource;
  /** `items.list()`, `items.get(itemId)`. */
  readonly items: Items;
  /** `purchases.validate(purchaseCode)`. */
  readonly purchases: Purchases;
  // As given (env fallbacks unresolved), for withOptions; private, so inspect and JSON never show the key.
  readonly #given: CatalogClientOptions;
  readonly #http: HttpClient;
  readonly #cache: PurchaseCache | undefined;

  /**
   * Resolves the options (env fallbacks included) and checks them; no request is sent.
   * @throws {InvalidParamsError} when the key or the site URL is missing or malformed, or on a port fetch refuses.
   */
  constructor(options: CatalogClientOptions = {}) {
    this.#given = { ...options };
    const resolved = resolveOptions(options, {
      client: 'CatalogClient',
      urlOption: 'siteUrl',
      urlEnv: 'CONTENT_PLATFORM_SITE_URL',
      keyEnv: 'CONTENT_PLATFORM_CATALOG_API_KEY',
      apiPath: '/api',
      own: ['cache'],
    });
    const api: ApiConfig = {
      name: 'catalog',
      credentials: { kind: 'param', name: 'api_key' },
      body: 'json',
      // Purchase validation only reads, so its POST is as safe to retry as the GETs.
      retryMethods: ['get', 'post'],
      readError: readCatalogError,
      parsers: CATALOG_PARSERS,
    };
    const http = new HttpClient(resolved, api, parentOf(options));
    this.#http = http;
    this.account = new AccountResource(http);
    this.items = new Items(http);
    // From the copy: `null` options (a JavaScript caller's none) are `{}` there.
    const { cache } = this.#given;
    this.#cache = cache === undefined ? undefined : cacheOf(cache, resolved.apiRoot, resolved.apiKey);
    this.purchases = new Purchases(http, this.#cache, resolved.totalTimeout);
  }

  /** The purchase cache's counters (hits, misses, stale, store errors, entries); `undefined` without a `cache`. */
  get cache(): CacheSnapshot | undefined {
    return this.#cache?.snapshot();
  }

  /**
   * What the client's throttle knows now, for metrics: calls queued, requests in flight, the server's
   * `X-RateLimit-Limit` / `X-RateLimit-Remaining`, and when a 429's pause ends. A copy: read it again for news.
   */
  get rateLimit(): RateLimitSnapshot {
    return this.#http.rateLimit;
  }

  /**
   * A new client with `overrides` merged over this one's options (timeouts, retries, headers, hooks, logger,
   * appInfo…); this client is unchanged. Headers merge per name; hooks run after this client's.
   * A subclass's `withOptions` builds the subclass, with the merged options as its constructor's one argument.
   * @throws {InvalidParamsError} when the merged options are invalid.
   * @example const quick = catalog.withOptions({ timeout: 5_000, maxRetries: 0 });
   */
  withOptions(overrides: CatalogClientOptions): this {
    // Through `this.constructor`: a subclass gets one of its own, and the class never names itself (a bundle would
    // rename its inner binding, and `CatalogClient.name` with it).
    const Client = this.constructor as new (options: CatalogClientOptions) => this;
    return new Client(
      derivedFrom(mergeOptions(this.#given, overrides, 'CatalogClient.withOptions'), this.#http),
    );
  }

  /**
   * Checks the key with one request (account details) and resolves to the `Account` it belongs to. Call it at
   * start-up: with a bad key, items and purchase validation answer like "not found" / "invalid purchase code"
   * (404), which a batch would take for real answers; only account details says the key itself is refused.
   * @throws {AuthenticationError} when the server refuses the key (its 401 envelope), with the call's `attempts`
   * and `requestId`; `cause` is that envelope's `AccountRequestError`. The message names where the key came from.
   * @throws {NotFoundError} when nothing answers at the URL: `siteUrl` is not the site root (the SDK appends `/api`;
   * a URL that repeats it says so in the message).
   */
  async verifyCredentials(options?: RequestOptions): Promise<Account> {
    try {
      return await this.account.details(options);
    } catch (error) {
      if (!(error instanceof AccountRequestError) || error.status !== 401) throw error;
      const hint = keyAdvice(this.#http.facts);
      const refused = new AuthenticationError({
        status: error.status,
        headers: error.headers,
        body: error.body,
        // The envelope's error ends with the same hint (a 401 of account details): said once, at the end.
        message: advise(
          `CatalogClient.verifyCredentials: the server refused the API key (${error.message.replace(`. ${hint}`, '')})`,
          hint,
        ),
        cause: error,
      });
      // The same call as its cause: it sent as many requests and had the same last answer.
      throw recordCall(refused, error.attempts, error.requestId);
    }
  }
}

// One cache per `cache` option, site and key: clients derived with `withOptions` keep their parent's entries.
const caches = new WeakMap<PurchaseCacheOptions, Map<string, PurchaseCache>>();

function cacheOf(options: PurchaseCacheOptions, apiRoot: string, apiKey: string): PurchaseCache {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidParamsError(
      `cache must be { ttl, staleIfError?, store?, maxEntries? } (or left out); got ${shown(options)}.`,
      'cache',
    );
  }
  checkKeys(options, ['ttl', 'staleIfError', 'store', 'maxEntries'], 'cache');
  let bySite = caches.get(options);
  if (bySite === undefined) {
    bySite = new Map();
    caches.set(options, bySite);
  }
  const name = `${apiRoot}\n${apiKey}`;
  let cache = bySite.get(name);
  if (cache === undefined) {
    // Each call brings its own client's log: a derived client's lines go to its own logger.
    cache = new PurchaseCache(options, apiRoot, apiKey);
    bySite.set(name, cache);
  }
  return cache;
}
