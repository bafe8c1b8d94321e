// What the purchase cache is to the Catalog client and to a store: types only, so that the client's handle (in the
// main entry) and the cache itself (loaded on the first validation) share them without a circle.
import type { Log, OperationTelemetry, WithResponse } from '../core/transport/index.js';
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
  /**
   * Optional, for a store many processes share (`redisStore` has it): takes the refresh of `key` for `ttlMs` across
   * all of them. `true`: this caller asks the server; `false`: another process is asking, and its answer will be
   * written under `key` (the cache waits for it, within `ttlMs`, instead of asking too).
   */
  claim?(key: string, ttlMs: number): unknown;
  /**
   * Optional, with `claim`: gives back this process's claim on `key` (and no other's) once its answer is written,
   * or it has none to write (the server refused the code, or failed): the others stop waiting for it and, finding
   * no fresh entry, claim the refresh and ask for themselves. Without it, they wait out the claim's `ttlMs`.
   */
  release?(key: string): unknown;
}

/** The Catalog client's `cache` option: purchase validations answered from a cache. */
export interface PurchaseCacheOptions {
  /** Milliseconds a valid purchase is answered from the cache without asking the server (at most a year). */
  ttl: number;
  /**
   * Milliseconds a cached purchase may still answer when the server cannot (no answer, a timeout, a 5xx, a 429):
   * the call resolves with it and `cache: 'stale'`. Default: `ttl` (no grace past it). At most a year.
   */
  staleIfError?: number | undefined;
  /** Where entries live. Default: in memory, the `maxEntries` most recently used. */
  store?: CacheStore | undefined;
  /** Most entries the in-memory store keeps (and most codes refused lately the cache remembers). Default 10 000. */
  maxEntries?: number | undefined;
}

/** Where a validation's answer came from: the server (`miss`), a fresh entry (`hit`), an entry past `ttl` (`stale`). */
export type CacheState = 'miss' | 'hit' | 'stale';

/** The cache's counters, for metrics: `catalog.cache`. */
export interface CacheSnapshot {
  /** Validations answered by a fresh entry, without a request. */
  readonly hits: number;
  /** Requests the cache sent (no entry, one past `ttl`, or `{ cache: false }`); concurrent callers share one. */
  readonly misses: number;
  /** Validations answered by an entry past `ttl` because the server could not answer. */
  readonly stale: number;
  /** Store operations that failed or timed out (each treated as a miss). */
  readonly errors: number;
  /** Entries a store returned that were not this code's (another's, tampered, stamped ahead, not a purchase): misses. */
  readonly rejected: number;
  /** Entries in the in-memory store; `undefined` with a store of your own. */
  readonly entries: number | undefined;
}

/** One validation, as its caller sends it: how to ask the server, and what stays the caller's own. */
export interface Caller {
  /** Sends the request with the flight's signal, what is left of its deadline, and no retry when `quick`. */
  ask(flight: {
    signal: AbortSignal;
    totalTimeout: number | undefined;
    quick: boolean;
  }): Promise<WithResponse<Purchase>>;
  /** `{ cache: false }`: no lookup, no stale answer. */
  fresh: boolean;
  /** The caller's signal: it ends this caller's wait, never another's. */
  signal: AbortSignal | undefined;
  /** The caller's `totalTimeout` (its own, else its client's), in ms. */
  total: number | undefined;
  /** The caller's client's log: this validation's lines go there. */
  log: Log;
  /** `POST <url>`, redacted, for an error of the caller's own: built only when one happens. */
  label(): string;
  /** Whether the client's throttle holds requests after a 429 (a stale entry then answers at once). */
  paused(): boolean;
  /** The validation's operation, with the client's `telemetry`: run and ended by the cache. */
  op?: OperationTelemetry | undefined;
}

/** The `cache` option checked, with its defaults: what the cache is built from. */
export interface CacheSettings {
  /** Milliseconds an entry answers fresh. */
  ttl: number;
  /** Milliseconds an entry may answer stale (at least `ttl`): also how long it is kept. */
  stale: number;
  /** The user's store; `undefined`: in memory. */
  store: CacheStore | undefined;
  /** Most entries in memory, and most codes refused lately remembered. */
  most: number;
}
