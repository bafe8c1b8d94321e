/** The per-key rate limit of a reference server. */
export interface ServerRateLimitOptions {
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

/** A fixed-window counter per key, like Laravel's `ThrottleRequests`: the same headers, the same 429. */
export class RateLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: () => Date;
  #windows = new Map<string, { hits: number; resetAt: number }>();

  /** `now`: the server's clock, which starts and ends the windows. */
  constructor(options: ServerRateLimitOptions, now: () => Date) {
    this.#limit = options.limit;
    this.#windowMs = options.windowMs ?? 60_000;
    this.#now = now;
  }

  /** The limit in effect, its window's default filled in. */
  get settings(): Required<ServerRateLimitOptions> {
    return { limit: this.#limit, windowMs: this.#windowMs };
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
    if (window.hits >= this.#limit) {
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
