// `content-platform-sdk/redis`: the fleet store. Many processes on one API key share the server's rate budget
// through Redis. Loaded only from this subpath: the main entry never imports it, nor any Redis client.

import { randomUUID } from 'node:crypto';
import type { CacheStore } from '../catalog/index.js';
import { checkKeys, InvalidParamsError, shown } from '../core/errors/index.js';
import type { RateLimitStore } from '../core/throttle/index.js';
import { type RedisClientLike, scriptRunner, stateName } from './client.js';
import { FleetThrottle } from './fleet.js';
import { CACHE_CLAIM, CACHE_DELETE, CACHE_GET, CACHE_RELEASE, CACHE_SET } from './scripts.js';

export type { IoRedisLike, NodeRedisLike, RedisClientLike } from './client.js';

/** Options of `redisStore`. */
export interface RedisStoreOptions {
  /**
   * Start of every key the store writes (`<prefix>:{<hash of API root and key>}:…`), to keep apart applications
   * that share a Redis. Default `content-platform-sdk`.
   */
  prefix?: string | undefined;
  /**
   * Milliseconds Redis has to answer each of the store's scripts; past it (or on an error) the process throttles
   * alone, on its share, until Redis answers again. Default 500.
   */
  timeoutMs?: number | undefined;
}

/**
 * A store on Redis for a fleet: as `rateLimit: { store }`, and as the Catalog's `cache: { store }`. As a rate-limit
 * store, every client, in any process, whose store reaches the
 * same Redis shares with the others on the same API root and key the server's last-known budget, the requests in
 * flight and the pause after a 429; `maxConcurrent` and `requestsPerMinute` apply fleet-wide. Redis holds a hash of
 * the root and key, never either. Redis down or slow never fails a call: the process falls back to its own throttle.
 * As a cache store, the fleet shares one purchase cache: entries are JSON under `<prefix>:cache:purchase:<hash>`,
 * with the TTL the cache gives (their names are already keyed hashes of the site and code), and one process at a
 * time asks the server about a code, under a claim (`<prefix>:cache:claim:purchase:<hash>`, 3 s at most) it gives
 * back with its answer.
 * @param client a node-redis (≥ 5) or ioredis client, a single server's or a cluster's (`createCluster`, `Cluster`);
 * connected, or not yet: until it is, calls fall back (its first connection is waited for within `timeoutMs`). The
 * store only runs scripts on it. Turn its offline queue off (node-redis `disableOfflineQueue: true`, ioredis
 * `enableOfflineQueue: false`): a queued script the store gave up on would still run when Redis is back.
 * @param options `null` or left out: the defaults.
 * @throws {InvalidParamsError} for a client that is neither, an empty `prefix`, a bad `timeoutMs`, an unknown option
 * (`redisStore: unknown option "prefx"; did you mean prefix?`) or options that are not an object.
 * @example
 * import { createClient } from 'redis';
 * import { redisStore } from 'content-platform-sdk/redis';
 * // connect() not awaited: it waits as long as Redis is down, and the process need not.
 * const redis = createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true });
 * redis.on('error', (error) => console.error('redis:', error.message));
 * redis.connect().catch(() => {});
 * const mgmt = new ManagementClient({ baseUrl, apiKey, rateLimit: { store: redisStore(redis) } });
 */
export function redisStore(
  client: RedisClientLike,
  options?: RedisStoreOptions | null,
): RateLimitStore & CacheStore {
  checkKeys(options, ['prefix', 'timeoutMs'], 'redisStore');
  const { prefix = 'content-platform-sdk', timeoutMs = 500 } = options ?? {};
  if (typeof prefix !== 'string' || prefix === '') {
    throw new InvalidParamsError('redisStore: prefix must be a non-empty string.', 'prefix');
  }
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 60_000) {
    throw new InvalidParamsError(
      `redisStore: timeoutMs must be a whole number of milliseconds from 1 to 60000; got ${shown(timeoutMs)}.`,
      'timeoutMs',
    );
  }
  let run: ReturnType<typeof scriptRunner>;
  try {
    run = scriptRunner(client, timeoutMs);
  } catch (error) {
    throw new InvalidParamsError(`${(error as Error).message}`, 'client');
  }
  // The cache's names start with the package's own name, which `prefix` already says: `<prefix>:cache:purchase:…`.
  const cached = (key: string) => [`${prefix}:cache:${key.replace(/^content-platform-sdk:/, '')}`];
  const claimed = (key: string) => [`${prefix}:cache:claim:${key.replace(/^content-platform-sdk:/, '')}`];
  // The token of each claim this store holds, so that it gives back its own claim and never another process's.
  const tokens = new Map<string, string>();
  return {
    throttle: (init) => new FleetThrottle(run, stateName(prefix, init.apiRoot, init.apiKey), init),
    get: async (key) => {
      const text = await run(CACHE_GET, cached(key), []);
      if (typeof text !== 'string') return undefined;
      // Text the store did not write (hand-edited, another program's) is no entry: the cache refuses it as one (a
      // miss, counted in \`rejected\`), where a throw would count as the store failing and skip it for every code.
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    },
    set: async (key, value, ttlMs) => {
      await run(CACHE_SET, cached(key), [JSON.stringify(value), String(Math.max(1, Math.ceil(ttlMs)))]);
    },
    delete: async (key) => {
      await run(CACHE_DELETE, cached(key), []);
    },
    // One process of the fleet refreshes a code at a time; the others read its answer from here.
    claim: async (key, ttlMs) => {
      const token = randomUUID();
      const mine =
        (await run(CACHE_CLAIM, claimed(key), [String(Math.max(1, Math.ceil(ttlMs))), token])) === 'OK';
      if (mine) tokens.set(key, token);
      return mine;
    },
    release: async (key) => {
      const token = tokens.get(key);
      if (token === undefined) return;
      tokens.delete(key);
      await run(CACHE_RELEASE, claimed(key), [token]);
    },
  };
}
