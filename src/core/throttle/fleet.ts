// What a throttle is to its callers (the transport, a fleet store): types only, so that the throttle, its caps and a
// store can each import them without a circle.

/** Where the throttle's lines go: the calling client's log, which gates them by level and scrubs them. */
export type ThrottleLog = (
  level: 'info' | 'warn',
  message: string,
  fields: Record<string, number | undefined>,
) => void;

/** What a client's throttle knows now, for metrics: `client.rateLimit`. */
export interface RateLimitSnapshot {
  /** Whether the throttle queues requests (`false` when the client was built with `rateLimit: false`). */
  readonly enabled: boolean;
  /** Calls waiting: for their turn, or before a retry. */
  readonly queued: number;
  /** Requests sent whose answer has not come back yet. */
  readonly inFlight: number;
  /** `X-RateLimit-Limit` of the latest answer that had one. */
  readonly limit: number | undefined;
  /** `X-RateLimit-Remaining` of the latest answer that had one: the server's budget for this key. */
  readonly remaining: number | undefined;
  /** While a 429 pauses the client: when sending resumes. */
  readonly pausedUntil: Date | undefined;
  /**
   * With a `rateLimit.store`: `'shared'` while the fleet's throttle is in use, `'fallback'` while the store cannot
   * be reached (this process throttles alone, on its share). `undefined` without a store.
   */
  readonly store?: 'shared' | 'fallback' | undefined;
}

/** One wait for a turn: who waits (for the log), how long it may, and what ends it early. */
export interface Ticket {
  /** The call's log: the line announcing a wait goes there. */
  log: ThrottleLog;
  /** A retry of a call already under way goes before calls that have not started. */
  retry: boolean;
  /** The caller's signal: an abort takes the call out of the queue, unsent. */
  signal?: AbortSignal | undefined;
  /** Milliseconds the call may still wait (what is left of `totalTimeout`). */
  timeoutMs?: number | undefined;
  /** The error a call gets when `timeoutMs` runs out in the queue. */
  timedOut: () => unknown;
  /**
   * Longest pause a 429 may impose on this call (its client's `maxRetryAfter`): a pause that has longer to run
   * (another client's, with a larger cap) fails the call at once instead, unsent.
   */
  maxPauseMs?: number | undefined;
  /** The error a call gets, unsent, when a pause has `waitMs` to run past its `maxPauseMs`. */
  paused?: ((waitMs: number) => unknown) | undefined;
}

/**
 * What a call needs of its client's throttle: turns taken and handed back, answers read. The built-in `Throttle`
 * is one; a `RateLimitStore` builds another that shares the turns with other processes.
 */
export interface ClientThrottle {
  /** Whether calls queue at all. */
  readonly enabled: boolean;
  /** Takes a turn when one may go at once, without waiting; `false` sends the call to `queue`. */
  tryTake(): boolean;
  /** Waits for a turn: resolves on it, rejects on the ticket's abort or time limit. */
  queue(ticket: Ticket): Promise<void>;
  /**
   * Hands back a turn taken with `tryTake` or `queue`. A shared throttle returns the promise of the hand-back
   * reaching its store, which the call waits for (bounded) before it settles: a process that exits right after its
   * last call must not leave its turn taken for the rest of the fleet.
   */
  release(): void | Promise<void>;
  /** Reads an answer's rate-limit headers (`undefined`: no answer came); a 429 pauses calls. */
  observe(answer: Response | undefined, log: ThrottleLog, maxPauseMs: number): void;
  /**
   * A call sleeps before its retry (`1`: the server's wait or a backoff), or is done sleeping (`-1`): counted among
   * the calls waiting (`snapshot().queued`), though no queue holds it.
   */
  resting(delta: 1 | -1): void;
  /** What the throttle knows now. */
  snapshot(): RateLimitSnapshot;
}

/** What a client tells a `RateLimitStore` when it builds its throttle. */
export interface FleetInit {
  /** The API root (`https://x.test/api/v1`): with the key, what the fleet shares a budget on. */
  apiRoot: string;
  /** The API key. A store must never keep it in clear (a hash of root and key names the shared state). */
  apiKey: string;
  /** The client's own caps, applied across the fleet. */
  maxConcurrent: number | undefined;
  requestsPerMinute: number | undefined;
  /** How long a turn stays taken when its process never hands it back (dies): a little over `timeout`. */
  leaseMs: number;
  /** The client's log, scrubbed and gated by its level: one `warn` line per store outage. */
  log: (level: 'warn' | 'info', message: string, fields: Record<string, string | number | undefined>) => void;
  /**
   * Told each time the store's state changes: `'fallback'` when it cannot be reached (the process throttles
   * alone), `'shared'` when it answers again. Set when the client has `telemetry`.
   */
  state?: ((state: 'shared' | 'fallback') => void) | undefined;
}

/**
 * A place where the throttles of many processes meet (`redisStore` from `content-platform-sdk/redis`): given as
 * `rateLimit: { store }`, every client whose store reaches the same place shares, per API root and key, the
 * server's budget, the requests in flight and the pause after a 429.
 */
export interface RateLimitStore {
  /** Builds the shared throttle of one client (derived clients with the same key, URL and caps reuse it). */
  throttle(init: FleetInit): ClientThrottle;
}
