import {
  APIConnectionError,
  InternalServerError,
  InvalidParamsError,
  InvalidPurchaseCodeError,
  RateLimitError,
} from '../core/errors/index.js';
import type { Log, WithResponse } from '../core/transport/index.js';
import type { Purchase } from './schemas.js';

/**
 * Where cached purchases live: any Keyv-compatible store (`get`, `set` with a TTL in ms, `delete`; e.g.
 * `new Keyv(new KeyvRedis(url))`), or `redisStore(redis)` from `content-platform-sdk/redis` to share one cache
 * across a fleet. Values are plain JSON-safe objects.
 */
export interface CacheStore {
  /** The value under `key`, or `undefined` (or `null`) when there is none. */
  get(key: string): unknown;
  /** Keeps `value` under `key` for `ttlMs`. */
  set(key: string, value: unknown, ttlMs: number): unknown;
  /** Forgets `key`. */
  delete(key: string): unknown;
}

/** The Catalog client's `cache` option: purchase validations answered from a cache. */
export interface PurchaseCacheOptions {
  /** Milliseconds a valid purchase is answered from the cache without asking the server. */
  ttl: number;
  /**
   * Milliseconds a cached purchase may still answer when the server cannot (no answer, a timeout, a 5xx, a 429 past
   * `maxRetryAfter`): the call resolves with it and `cache: 'stale'`. Default: `ttl` (no grace past it).
   */
  staleIfError?: number | undefined;
  /** Where entries live. Default: in memory, the `maxEntries` most recently used. */
  store?: CacheStore | undefined;
  /** Most entries the in-memory store keeps. Default 10 000. */
  maxEntries?: number | undefined;
}

/** Where a validation's answer came from: the server (`miss`), a fresh entry (`hit`), an entry past `ttl` (`stale`). */
export type CacheState = 'miss' | 'hit' | 'stale';

/** The cache's counters, for metrics: `catalog.cache`. */
export interface CacheSnapshot {
  /** Validations answered by a fresh entry, without a request. */
  readonly hits: number;
  /** Validations that asked the server (no entry, one past `ttl`, or `{ cache: false }`). */
  readonly misses: number;
  /** Validations answered by an entry past `ttl` because the server could not answer. */
  readonly stale: number;
  /** Store operations that failed or timed out (each treated as a miss). */
  readonly errors: number;
  /** Entries in the in-memory store; `undefined` with a store of your own. */
  readonly entries: number | undefined;
}

/** What an entry holds: when it was stored and the purchase, without its code (restored from the caller's). */
interface Entry {
  at: number;
  purchase: Omit<Purchase, 'purchase_code'>;
}

// A store that does not answer within this is treated as a miss, and the call goes on.
const STORE_TIMEOUT_MS = 1_000;
// Entry names kept, so a hit need not sign again.
const NAMES_KEPT = 1_000;

/** The cache of one Catalog client: keys, single flight, freshness and the fall-back to a stale entry. */
export class PurchaseCache {
  readonly #store: CacheStore;
  readonly #memory: MemoryStore | undefined;
  readonly #ttl: number;
  readonly #stale: number;
  readonly #site: string;
  readonly #secret: Promise<CryptoKey>;
  readonly #log: Log;
  readonly #flying = new Map<string, Promise<WithResponse<Purchase>>>();
  readonly #names = new Map<string, Promise<string>>();
  readonly #counts = { hits: 0, misses: 0, stale: 0, errors: 0 };
  #down = false;

  /** `site`: the API root; `apiKey`: the secret of the keys' HMAC is derived from it. */
  constructor(options: PurchaseCacheOptions, site: string, apiKey: string, log: Log) {
    this.#ttl = duration(options.ttl, 'cache.ttl');
    this.#stale = Math.max(
      this.#ttl,
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
        `cache.maxEntries must be a whole number above 0; got ${String(most)}.`,
        'cache',
      );
    }
    this.#memory = options.store === undefined ? new MemoryStore(most) : undefined;
    this.#store = options.store ?? (this.#memory as MemoryStore);
    this.#site = site;
    this.#secret = hmacKey(apiKey);
    this.#log = log;
  }

  /** The counters, copied. */
  snapshot(): CacheSnapshot {
    return Object.freeze({ ...this.#counts, entries: this.#memory?.size });
  }

  /**
   * Validates `code` through the cache: a fresh entry answers; otherwise `ask` does (one request however many
   * callers ask at once), and its answer is kept, an invalid code's entry deleted, and a transient failure answered
   * by an entry younger than `staleIfError`. `fresh`: skip the lookup (`{ cache: false }`).
   */
  async validate(
    code: string,
    ask: () => Promise<WithResponse<Purchase>>,
    fresh: boolean,
  ): Promise<WithResponse<Purchase>> {
    const key = await this.#key(code);
    const entry = fresh ? undefined : await this.#read(key);
    const age = entry === undefined ? undefined : Date.now() - entry.at;
    if (entry !== undefined && age !== undefined && age < this.#ttl) {
      this.#counts.hits += 1;
      return answered(entry, code, 'hit');
    }
    let flight = this.#flying.get(key);
    if (flight === undefined) {
      flight = this.#ask(key, ask).finally(() => this.#flying.delete(key));
      this.#flying.set(key, flight);
    }
    try {
      return await flight;
    } catch (error) {
      if (fresh || entry === undefined || age === undefined || age >= this.#stale || !transient(error))
        throw error;
      this.#counts.stale += 1;
      this.#log('warn', `purchase validation answered from the cache (stale): ${(error as Error).message}`, {
        ageMs: age,
        errorName: (error as Error).name,
      });
      return answered(entry, code, 'stale');
    }
  }

  async #ask(key: string, ask: () => Promise<WithResponse<Purchase>>): Promise<WithResponse<Purchase>> {
    this.#counts.misses += 1;
    let result: WithResponse<Purchase>;
    try {
      result = await ask();
    } catch (error) {
      // Fail closed: a code the server calls invalid (refunded, say) is forgotten at once.
      if (error instanceof InvalidPurchaseCodeError) await this.#call(() => this.#store.delete(key));
      throw error;
    }
    const { purchase_code: _, ...purchase } = result.data;
    const entry: Entry = { at: Date.now(), purchase };
    await this.#call(() => this.#store.set(key, entry, this.#stale));
    return { ...result, cache: 'miss' };
  }

  async #read(key: string): Promise<Entry | undefined> {
    const value = await this.#call(() => this.#store.get(key));
    return isEntry(value) ? value : undefined;
  }

  /**
   * One store operation, bounded: a store that fails or does not answer is a miss, said once per outage in a
   * `warn` line, never a failed call.
   */
  async #call<T>(operation: () => T): Promise<Awaited<T> | undefined> {
    // The in-memory store answers at once and cannot fail: no timer for it.
    if (this.#memory !== undefined) return operation() as Awaited<T>;
    try {
      const value = await bounded(Promise.resolve().then(operation), STORE_TIMEOUT_MS);
      if (this.#down) {
        this.#down = false;
        this.#log('info', 'the purchase cache store answers again.', {});
      }
      return value;
    } catch (error) {
      this.#counts.errors += 1;
      if (!this.#down) {
        this.#down = true;
        this.#log(
          'warn',
          `the purchase cache store failed (${(error as Error)?.message}): validations ask the server.`,
          {
            errorName: (error as Error)?.name,
          },
        );
      }
      return undefined;
    }
  }

  /**
   * The entry's name: an HMAC-SHA-256 of the site and the code, keyed by a secret derived from the API key. The last
   * names are kept (WebCrypto's sign is a job of its own: most of a hit's time), privately, and a bounded few.
   */
  #key(code: string): Promise<string> {
    const folded = code.toLowerCase();
    let name = this.#names.get(folded);
    if (name === undefined) {
      if (this.#names.size >= NAMES_KEPT) this.#names.clear();
      name = this.#sign(folded);
      this.#names.set(folded, name);
    }
    return name;
  }

  async #sign(code: string): Promise<string> {
    const text = new TextEncoder().encode(`${this.#site}\n${code}`);
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await this.#secret, text));
    return `content-platform-sdk:purchase:${base64url(mac)}`;
  }
}

/** Failures a stale entry may answer for: the server could not say (no answer, a timeout, a 5xx, a long 429). */
function transient(error: unknown): boolean {
  return (
    error instanceof APIConnectionError ||
    error instanceof InternalServerError ||
    error instanceof RateLimitError
  );
}

/** An entry as a validation's result; the code is the caller's, never stored. */
function answered(entry: Entry, code: string, cache: CacheState): WithResponse<Purchase> {
  const headers = { 'x-content-platform-cache': cache };
  return {
    data: { ...entry.purchase, purchase_code: code } as Purchase,
    response: new Response(null, { status: 200, headers }),
    cache,
  };
}

/** The HMAC key: SHA-256 of a label and the API key, so the cache's names say nothing of the key itself. */
async function hmacKey(apiKey: string): Promise<CryptoKey> {
  const secret = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(`content-platform-sdk purchase cache\n${apiKey}`),
  );
  return crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function isEntry(value: unknown): value is Entry {
  const entry = value as Partial<Entry> | null | undefined;
  return typeof entry?.at === 'number' && typeof entry.purchase === 'object' && entry.purchase !== null;
}

function isStore(value: unknown): value is CacheStore {
  const store = value as Partial<CacheStore> | null;
  return (
    typeof store?.get === 'function' && typeof store.set === 'function' && typeof store.delete === 'function'
  );
}

function duration(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new InvalidParamsError(
      `${name} must be a positive number of milliseconds; got ${String(value)}.`,
      'cache',
    );
  }
  return value;
}

/** `promise`, or a rejection after `ms` (a store, or Redis, that does not answer). */
export function bounded<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** The default store: in memory, the `most` entries last used, each until its TTL. */
class MemoryStore implements CacheStore {
  readonly #entries = new Map<string, { value: unknown; until: number }>();
  readonly #most: number;

  constructor(most: number) {
    this.#most = most;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): unknown {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    if (entry.until <= Date.now()) return undefined;
    // Used last: kept longest.
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: unknown, ttlMs: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, until: Date.now() + ttlMs });
    if (this.#entries.size > this.#most) this.#entries.delete(this.#entries.keys().next().value as string);
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }
}
