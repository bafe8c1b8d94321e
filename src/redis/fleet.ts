import { randomUUID } from 'node:crypto';
import { retryAfterSeconds } from '../core/errors/index.js';
import {
  type ClientThrottle,
  type FleetInit,
  type RateLimitSnapshot,
  Throttle,
  type ThrottleLog,
  type Ticket,
  waitInQueue,
} from '../core/throttle/index.js';
import type { RunScript } from './client.js';
import { ACQUIRE, OBSERVE, RELEASE } from './scripts.js';

// How often a process waiting for a turn that only a release frees asks again (a bounded poll; see the class).
const POLL_MS = 25;
// Longest single sleep before asking again, whatever the wait (a pause may be cut short by a newer answer).
const MAX_SLEEP_MS = 1_000;
// As the process's own throttle: while nothing is known, one request finds out, and another goes every 500 ms.
const PROBE_MS = 500;
// A member (process) not heard from for this long is no longer counted in the fleet.
const MEMBER_IDLE_MS = 30_000;
// The state outlives the fleet's last call this long (a budget window is a minute at most).
const STATE_MS = 10 * 60_000;
// How long a budget the server stated holds when it names no reset, and a 429's pause when it names no wait.
const WINDOW_MS = 60_000;
const DEFAULT_PAUSE_MS = 1_000;
// While the store is unreachable, it is tried again this often.
const RECOVER_MS = 1_000;

/** A call waiting for a turn from the fleet. */
interface Waiter {
  ticket: Ticket;
  /** When its `timeoutMs` runs out (`Infinity`: never). */
  deadline: number;
  grant(): void;
  /** Gives up its place here for a turn from elsewhere (the process's own throttle, while the store is down). */
  handOver(turn: Promise<void>): void;
}

/**
 * The throttle of one client whose turns are the fleet's: every process whose store reaches the same Redis shares,
 * per API root and key, the server's last-known budget, the requests in flight (each a token with a lease, so a
 * dead process's turns come back) and a 429's pause. A turn is taken and handed back by one script each, with
 * Redis's clock.
 *
 * Waiting is a bounded poll, not pub/sub: the process's waiters queue here in order, and only the first asks Redis,
 * again after a release of its own, after `POLL_MS` (25 ms, jittered) when the fleet has none to spare, or when the
 * wait Redis names (a pause, the next probe, the minute's window) is over. One connection does it all (pub/sub needs
 * a second one in subscriber mode), it works the same with node-redis and ioredis, through a proxy and after a
 * reconnect, and the cost is one short script per waiting process every 25 ms.
 *
 * When Redis cannot be reached (an error, or no answer within the store's `timeoutMs`), the process throttles alone
 * on its share, 1/N (N: the members Redis last counted) of the server's limit per window (the longest wait a 429 has
 * named, else a minute), of the caps and of each budget it reads; says so in one `warn` line, and rejoins the fleet
 * once Redis answers again.
 */
export class FleetThrottle implements ClientThrottle {
  readonly enabled = true;
  readonly #run: RunScript;
  readonly #init: FleetInit;
  readonly #keys: { state: string; inFlight: string; starts: string; members: string };
  readonly #member = randomUUID();
  readonly #queue: Waiter[] = [];
  // Turns this process holds from the fleet (tokens), and from its own throttle while the store was down (each
  // outage's throttle, so a turn goes back to the one that granted it).
  readonly #tokens: string[] = [];
  readonly #alones: Throttle[] = [];
  #pumping = false;
  #wake: (() => void) | undefined;
  #fallback: Throttle | undefined;
  #down = false;
  // While Redis is down: this process's share of the last budget it read (undefined: none read yet), and when its
  // own throttle last granted a turn.
  #share: number | undefined;
  #lastAlone = 0;
  // What the last answer from Redis said, for the snapshot and the share while Redis is down.
  #members = 1;
  #remaining: number | undefined;
  #limit: number | undefined;
  // The server's window as the fleet has seen it: the longest wait a 429 named.
  #windowMs: number | undefined;
  #pausedUntil = 0;

  /** `run`: the store's script runner; `name`: the state's key prefix (a hash of the API root and key). */
  constructor(run: RunScript, name: string, init: FleetInit) {
    this.#run = run;
    this.#init = init;
    this.#keys = { state: `${name}:s`, inFlight: `${name}:f`, starts: `${name}:m`, members: `${name}:h` };
  }

  snapshot(): RateLimitSnapshot {
    const alone = this.#down ? this.#fallback?.snapshot() : undefined;
    return Object.freeze({
      enabled: true,
      queued: this.#queue.length + (alone?.queued ?? 0),
      inFlight: this.#tokens.length + this.#alones.length,
      limit: this.#limit,
      remaining: this.#remaining,
      pausedUntil: this.#pausedUntil > Date.now() ? new Date(this.#pausedUntil) : undefined,
      store: this.#down ? 'fallback' : 'shared',
    });
  }

  tryTake(): boolean {
    // A fleet's turn takes a round trip: only the process's own throttle, while Redis is down, grants at once.
    const fallback = this.#fallback;
    if (!this.#down || fallback === undefined || this.#spaced() > 0 || !fallback.tryTake()) return false;
    this.#taken(fallback);
    return true;
  }

  queue(ticket: Ticket): Promise<void> {
    if (this.#down && this.#fallback) return this.#alone(this.#fallback, ticket);
    return waitInQueue(
      this.#queue,
      ticket,
      ({ grant, settle, resolve, reject }) => ({
        ticket,
        deadline: ticket.timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + ticket.timeoutMs,
        grant,
        handOver: (turn) => {
          settle();
          turn.then(resolve, reject);
        },
      }),
      () => void this.#pump(),
    );
  }

  release(): void {
    // A turn of the kind in use now goes back first; the other kind's turns go back as their calls end.
    if (this.#alones.length > 0 && (this.#down || this.#tokens.length === 0)) {
      this.#alones.pop()?.release();
      return;
    }
    const token = this.#tokens.pop();
    if (token === undefined) return;
    // A release Redis does not hear of is freed by the turn's lease.
    this.#run(RELEASE, [this.#keys.inFlight], [token]).then(
      () => this.#wake?.(),
      () => {},
    );
  }

  observe(answer: Response | undefined, log: ThrottleLog, maxPauseMs: number): void {
    if (this.#down && this.#fallback) {
      this.#fallback.observe(answer && this.#shared(answer), log, maxPauseMs);
      return;
    }
    if (answer === undefined) return;
    const { headers } = answer;
    const remaining = count(headers.get('x-ratelimit-remaining'));
    const limit = count(headers.get('x-ratelimit-limit'));
    if (remaining !== undefined) this.#remaining = remaining;
    if (limit !== undefined) this.#limit = limit;
    const seconds = retryAfterSeconds(headers);
    const limited = answer.status === 429;
    const waitMs = limited ? (seconds === undefined ? DEFAULT_PAUSE_MS : Math.ceil(seconds * 1000)) : 0;
    const args = [
      remaining === undefined ? '' : String(remaining),
      limit === undefined ? '' : String(limit),
      String(seconds === undefined ? WINDOW_MS : Math.ceil(seconds * 1000)),
      limited ? '1' : '0',
      String(waitMs),
      String(maxPauseMs),
      String(STATE_MS),
    ];
    this.#run(OBSERVE, [this.#keys.state], args).then(
      (started) => {
        if (Number(started) > 0) {
          this.#pausedUntil = Date.now() + waitMs;
          log(
            'info',
            `rate limit reached (HTTP 429): every call on this key, in every process, waits ${waitMs} ms`,
            {
              waitMs,
              queued: this.#queue.length,
              limit: this.#limit,
              remaining: 0,
            },
          );
        }
        this.#wake?.();
      },
      (error: unknown) => this.#lost(error),
    );
  }

  /** Asks Redis for turns for the waiters, first come first served, until none waits. */
  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (this.#queue.length > 0 && !this.#down) {
        const token = randomUUID();
        let reply: unknown;
        try {
          reply = await this.#run(ACQUIRE, Object.values(this.#keys), this.#acquireArgs(token));
        } catch (error) {
          this.#lost(error);
          break;
        }
        const [wait = -1, members = 1, remaining = -1, limit = -1, window = -1] = (reply as unknown[]).map(
          Number,
        );
        this.#members = Math.max(1, members);
        this.#remaining = remaining < 0 ? undefined : remaining;
        if (limit >= 0) this.#limit = limit;
        if (window > 0) this.#windowMs = window;
        if (wait === 0) {
          const waiter = this.#queue.shift();
          if (waiter === undefined) {
            // Everyone left while the turn was being taken: it goes straight back.
            void this.#run(RELEASE, [this.#keys.inFlight], [token]).catch(() => {});
            continue;
          }
          this.#tokens.push(token);
          waiter.grant();
          continue;
        }
        if (wait > 0 && wait > POLL_MS) this.#pausedUntil = Math.max(this.#pausedUntil, Date.now() + wait);
        await this.#sleep(wait < 0 ? POLL_MS * (0.5 + Math.random()) : Math.min(wait, MAX_SLEEP_MS));
      }
    } finally {
      this.#pumping = false;
    }
  }

  #acquireArgs(token: string): string[] {
    const { leaseMs, maxConcurrent, requestsPerMinute } = this.#init;
    return [
      token,
      String(leaseMs),
      String(maxConcurrent ?? 0),
      String(requestsPerMinute ?? 0),
      this.#member,
      String(PROBE_MS),
      String(MEMBER_IDLE_MS),
      String(STATE_MS),
    ];
  }

  /** Sleeps `ms`, or less when a release or an answer may have freed a turn. */
  #sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = () => {
        this.#wake = undefined;
        done();
      };
    });
  }

  /** Redis cannot be reached: this process throttles alone on its share, and tries Redis again every second. */
  #lost(error: unknown): void {
    if (this.#down) return;
    this.#down = true;
    this.#share = undefined;
    const members = this.#members;
    const share = (cap: number | undefined) =>
      cap === undefined ? undefined : Math.max(1, Math.floor(cap / members));
    const { maxConcurrent, requestsPerMinute } = this.#init;
    // Its share of the server's limit per window (a minute until a 429 has named a shorter one), else of the caps.
    const limit = this.#limit;
    this.#fallback = new Throttle(
      {
        maxConcurrent: share(maxConcurrent),
        requestsPerMinute: limit === undefined ? share(requestsPerMinute) : share(limit),
      },
      limit === undefined ? undefined : spanOf(this.#windowMs),
    );
    const reason = (error as Error)?.message ?? String(error);
    this.#init.log(
      'warn',
      `the rate-limit store (Redis) cannot be reached (${reason}): this process throttles alone, on 1/${members} of ` +
        "the fleet's budget, until Redis answers again.",
      { members, error: reason },
    );
    // Whoever waits for the fleet waits for this process's own throttle instead.
    for (const waiter of this.#queue.splice(0)) {
      const left = waiter.deadline - Date.now();
      const ticket = { ...waiter.ticket, timeoutMs: Number.isFinite(left) ? Math.max(0, left) : undefined };
      waiter.handOver(this.#alone(this.#fallback, ticket));
    }
    this.#wake?.();
    this.#retryLater();
  }

  #retryLater(): void {
    const timer = setTimeout(() => {
      // A harmless script (it frees no token anyone holds): any answer means Redis is back.
      this.#run(RELEASE, [this.#keys.inFlight], ['probe']).then(
        () => {
          this.#down = false;
          this.#init.log(
            'info',
            'the rate-limit store (Redis) answers again: this process rejoins the fleet.',
            {
              members: this.#members,
            },
          );
        },
        () => this.#retryLater(),
      );
    }, RECOVER_MS);
    // A process may exit while Redis is down.
    (timer as { unref?: () => void }).unref?.();
  }

  /**
   * A turn from the process's own throttle, counted as held here. While its share of the budget is nothing, turns
   * are also spaced `PROBE_MS` apart, whether or not a request is in flight: each process alone would otherwise send
   * its next probe the moment the last one answers, and one process would spend a whole window before the others.
   */
  async #alone(throttle: Throttle, ticket: Ticket): Promise<void> {
    const turn = throttle.take(ticket);
    if (turn !== undefined) await turn;
    const wait = this.#spaced();
    if (wait > 0) {
      try {
        await sleepFor(wait, ticket.signal);
      } catch (error) {
        throttle.release();
        throw error;
      }
    }
    this.#taken(throttle);
  }

  #taken(throttle: Throttle): void {
    this.#alones.push(throttle);
    this.#lastAlone = Date.now();
  }

  /** While the process's share of the budget is nothing: the ms until its next turn may go. */
  #spaced(): number {
    if (this.#share === undefined || this.#share > 0) return 0;
    return Math.max(0, this.#lastAlone + PROBE_MS - Date.now());
  }

  /** An answer as this process's share of the fleet reads it: its `Remaining` divided among the members. */
  #shared(answer: Response): Response {
    const remaining = count(answer.headers.get('x-ratelimit-remaining'));
    if (answer.status === 429) this.#share = 0;
    if (remaining === undefined) return answer;
    this.#share = Math.floor(remaining / this.#members);
    if (this.#members === 1) return answer;
    const headers = new Headers(answer.headers);
    headers.set('x-ratelimit-remaining', String(this.#share));
    return { status: answer.status, headers } as Response;
  }
}

/**
 * The window a server's limit counts over, from the longest wait a 429 has named: the next of a second, a minute or
 * an hour (a 429 names what is left of the window, at most all of it); a minute when none has.
 */
function spanOf(longestWaitMs: number | undefined): number {
  if (longestWaitMs === undefined) return WINDOW_MS;
  return [1_000, WINDOW_MS, 60 * WINDOW_MS].find((span) => longestWaitMs <= span) ?? longestWaitMs;
}

/** Resolves after `ms`, or rejects when `signal` aborts first. */
function sleepFor(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** A header's whole number, or `undefined` when absent or not one. */
function count(value: string | null): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  return /^\d{1,15}$/.test(trimmed) ? Number(trimmed) : undefined;
}
