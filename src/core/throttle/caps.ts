import { checkKeys, InvalidParamsError, shown } from '../errors/index.js';
import type { RateLimitStore } from './fleet.js';

/**
 * Most requests one client keeps in flight when `rateLimit.maxConcurrent` is not set: a job that hands the client
 * thousands of calls at once then holds about the memory of a pool of this many workers, not a socket and a body per
 * call. `maxConcurrent: Infinity` lifts it.
 */
export const DEFAULT_MAX_IN_FLIGHT = 16;

/** The client-side throttle's own caps (the `rateLimit` option); the server's headers apply on top. */
export interface RateLimitOptions {
  /**
   * Most requests in flight at once, whatever the server has left (with a `store`: across the fleet). Default: 16
   * per client (per process in a fleet); `Infinity`: no cap of its own.
   */
  maxConcurrent?: number | undefined;
  /** Most requests started in any 60 s, for a key other processes share. Default: no cap of its own. */
  requestsPerMinute?: number | undefined;
  /**
   * Shares the throttle with every process whose store reaches the same place (`redisStore(redis)` from
   * `content-platform-sdk/redis`): the server's budget, the requests in flight and a 429's pause, per API root and
   * key; `maxConcurrent` and `requestsPerMinute` then apply fleet-wide. Default: this process alone.
   */
  store?: RateLimitStore | undefined;
}

/**
 * Checks the `rateLimit` option: `false`, or caps that are whole numbers of at least 1.
 * @throws {InvalidParamsError} naming `rateLimit` and the field at fault.
 */
export function rateLimitOption(value: unknown): RateLimitOptions | false {
  if (value === undefined) return {};
  if (value === false) return false;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidParamsError(
      `rateLimit must be false or { maxConcurrent?, requestsPerMinute?, store? }; got ${shown(value)}.`,
      'rateLimit',
    );
  }
  checkKeys(value, ['maxConcurrent', 'requestsPerMinute', 'store'], 'rateLimit');
  const caps: RateLimitOptions = {};
  for (const [name, cap] of Object.entries(value) as [keyof RateLimitOptions, unknown][]) {
    if (name === 'store') {
      if (cap === undefined) continue;
      if (typeof (cap as Partial<RateLimitStore> | null)?.throttle !== 'function') {
        throw new InvalidParamsError(
          'rateLimit.store must be a store such as redisStore(redis) from content-platform-sdk/redis.',
          'rateLimit',
        );
      }
      caps.store = cap as RateLimitStore;
      continue;
    }
    if (cap === undefined || cap === Number.POSITIVE_INFINITY) {
      if (cap !== undefined) caps[name] = cap;
      continue;
    }
    if (!Number.isInteger(cap) || (cap as number) < 1 || (cap as number) > 1_000_000) {
      throw new InvalidParamsError(
        `rateLimit.${name} must be a whole number from 1 to 1000000, or Infinity (no cap); got ${shown(cap)}.`,
        'rateLimit',
      );
    }
    caps[name] = cap as number;
  }
  return caps;
}
