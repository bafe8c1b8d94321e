/** The per-key rate limit of a reference server. */
export interface RateLimitOptions {
  /** Requests allowed per window and key (the real servers use 60 or 120 a minute). */
  limit: number;
  /** Window length in ms; default 60 000. */
  windowMs?: number;
}

/** The verdict on one request: whether it is over the limit, and the headers to send either way. */
export interface RateVerdict {
  limited: boolean;
  headers: Record<string, string>;
}

/**
 * A fixed-window counter per key, like Laravel's `ThrottleRequests`. When not enforced it still counts and
 * sends `X-RateLimit-Limit` / `X-RateLimit-Remaining`, but never refuses.
 */
export class RateLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #enforce: boolean;
  readonly #now: () => Date;
  #windows = new Map<string, { hits: number; resetAt: number }>();

  /** `enforce: false` keeps the headers but never answers 429. */
  constructor(options: RateLimitOptions, enforce: boolean, now: () => Date) {
    this.#limit = options.limit;
    this.#windowMs = options.windowMs ?? 60_000;
    this.#enforce = enforce;
    this.#now = now;
  }

  /** Counts a request for `key`. */
  hit(key: string): RateVerdict {
    const now = this.#now().getTime();
    let window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { hits: 0, resetAt: now + this.#windowMs };
      this.#windows.set(key, window);
    }
    const limit = String(this.#limit);
    if (this.#enforce && window.hits >= this.#limit) {
      return {
        limited: true,
        headers: {
          'x-ratelimit-limit': limit,
          'x-ratelimit-remaining': '0',
          'retry-after': String(Math.max(1, Math.ceil((window.resetAt - now) / 1000))),
          'x-ratelimit-reset': String(Math.ceil(window.resetAt / 1000)),
        },
      };
    }
    window.hits += 1;
    return {
      limited: false,
      headers: {
        'x-ratelimit-limit': limit,
        'x-ratelimit-remaining': String(Math.max(0, this.#limit - window.hits)),
      },
    };
  }

  /** Forgets every window. */
  reset(): void {
    this.#windows.clear();
  }
}
