import { InvalidParamsError, shown } from '../core/errors/index.js';
import type { WithResponse } from '../core/transport/index.js';
import type { CacheCore } from './cache-core.js';
import type {
  CacheSettings,
  CacheSnapshot,
  CacheStore,
  Caller,
  PurchaseCacheOptions,
} from './cache-types.js';
import type { Purchase } from './schemas.js';

/**
 * The purchase cache of one Catalog client and those derived from it, as the client holds it: the `cache` option is
 * checked at construction (a bad one throws there), and the cache itself is loaded on the first validation, so
 * the main entry carries none of it (see CONTRIBUTING, "Package size").
 */
export class PurchaseCache {
  readonly #settings: CacheSettings;
  readonly #site: string;
  readonly #apiKey: string;
  #core: Promise<CacheCore> | undefined;
  #loaded: CacheCore | undefined;

  /**
   * `site`: the API root; `apiKey`: the secret of the cache's names and MACs is derived from it.
   * @throws {InvalidParamsError} naming `cache` for a bad `ttl`, `staleIfError`, `store` or `maxEntries`.
   */
  constructor(options: PurchaseCacheOptions, site: string, apiKey: string) {
    const ttl = duration(options.ttl, 'cache.ttl');
    const stale = Math.max(
      ttl,
      options.staleIfError === undefined ? 0 : duration(options.staleIfError, 'cache.staleIfError'),
    );
    if (options.store !== undefined && !isStore(options.store)) {
      throw new InvalidParamsError(
        'cache.store must have get, set and delete (a Keyv store, or redisStore(redis)).',
        'cache',
      );
    }
    const most = options.maxEntries ?? 10_000;
    if (!Number.isInteger(most) || most < 1) {
      throw new InvalidParamsError(
        `cache.maxEntries must be a whole number above 0; got ${shown(most)}.`,
        'cache',
      );
    }
    this.#settings = { ttl, stale, store: options.store, most };
    this.#site = site;
    this.#apiKey = apiKey;
  }

  /** The counters, copied (all 0 before the first validation). */
  snapshot(): CacheSnapshot {
    return (
      this.#loaded?.snapshot() ??
      Object.freeze({
        hits: 0,
        misses: 0,
        stale: 0,
        errors: 0,
        rejected: 0,
        entries: this.#settings.store === undefined ? 0 : undefined,
      })
    );
  }

  /** Validates `code` through the cache (see `CacheCore.validate`), loading it the first time. */
  async validate(code: string, caller: Caller): Promise<WithResponse<Purchase>> {
    const core = this.#loaded ?? (await this.#load());
    return core.validate(code, caller);
  }

  #load(): Promise<CacheCore> {
    this.#core ??= import('./cache-core.js').then(({ CacheCore }) => {
      this.#loaded = new CacheCore(this.#settings, this.#site, this.#apiKey);
      return this.#loaded;
    });
    return this.#core;
  }
}

function isStore(value: unknown): value is CacheStore {
  const store = value as Partial<CacheStore> | null;
  return (
    typeof store?.get === 'function' && typeof store.set === 'function' && typeof store.delete === 'function'
  );
}

/** A cache duration option, checked: a positive number of milliseconds, at most a year. */
function duration(value: unknown, name: string): number {
  // At most a year: more than a license check needs, and what a store's expiry can hold (Redis refuses `1e+300`).
  if (typeof value !== 'number' || !(value > 0 && value <= 31_536e6)) {
    throw new InvalidParamsError(
      `${name} must be a positive number of milliseconds, at most a year (31536000000); got ${shown(value)}.`,
      'cache',
    );
  }
  return value;
}
