import { retryAfterSeconds } from '../errors/index.js';
import { DEFAULT_MAX_IN_FLIGHT, type RateLimitOptions } from './caps.js';
import type { ClientThrottle, RateLimitSnapshot, ThrottleLog, Ticket } from './fleet.js';
import { WaitQueue, waitInQueue } from './waiting.js';

interface Waiter {
  ticket: Ticket;
  grant(): void;
  /** Takes the waiter's wait to an end with `error` (it is already out of the queue). */
  fail(error: unknown): void;
}

const MINUTE = 60_000;
// No cap, or no time that ends a wait (only an answer does).
const NONE = Number.POSITIVE_INFINITY;
// A 429 that names no wait pauses this long (the servers' windows are whole seconds).
const DEFAULT_PAUSE_MS = 1_000;
// Longest a request sent alone to learn the budget holds up the next one (real servers answer in 20-200 ms).
const PROBE_MS = 500;
// How long a budget the server stated holds when it names no reset: the real servers' windows are a minute.
const WINDOW_MS = MINUTE;
// A higher budget read this soon after a lower one is taken for a late answer, not a new window.
const CROSSED_MS = 250;
// Longest pause a 429 imposes (a longer wait is held this long): a day.
const MAX_PAUSE_MS = 24 * 60 * MINUTE;

/**
 * One client's throttle (shared with the clients `withOptions` derives). It reads `X-RateLimit-Remaining` from
 * every answer and keeps no more requests in flight than the server has left (one at a time when it has none
 * left, or before any answer has said), queueing the rest in FIFO order; a 429 pauses every call until its
 * `Retry-After`. A server that sends no rate-limit headers is not throttled once its first answer says so.
 */
export class Throttle implements ClientThrottle {
  /** Whether calls queue at all; when not, answers are still read for the snapshot. */
  readonly enabled: boolean;
  readonly #maxConcurrent: number;
  readonly #perMinute: number;
  readonly #span: number;
  readonly #queue = new WaitQueue<Waiter>();
  #inFlight = 0;
  // Calls sleeping before a retry.
  #resting = 0;
  // Rate-limit headers seen on some answer; until then an answer without them opens the throttle.
  #seen = false;
  #open = false;
  #limit: number | undefined;
  #remaining: number | undefined;
  // When the window of the budget the server last stated ends: past it, the budget is not known any more.
  #budgetUntil = 0;
  // When the budget last read was read.
  #readAt = 0;
  // The server's window as the answers show it: when the current one began (its first answer), how long one lasts
  // (learned from a 429's wait; Infinity until then), and when the spent one ends.
  #windowStart = 0;
  #windowLen = NONE;
  #resetAt = 0;
  #pausedUntil = 0;
  // When the latest request sent alone, to learn the budget, went out.
  #probeAt = 0;
  // Start times within the last minute, when `requestsPerMinute` is set.
  readonly #starts: number[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = 0;
  // A wait on the limit has been announced and the queue has not emptied since.
  #announced = false;

  /** `spanMs`: the span `requestsPerMinute` counts over (a minute; a fleet's share may count over the server's window). */
  constructor(options: RateLimitOptions | false, spanMs = MINUTE) {
    this.#span = spanMs;
    this.enabled = options !== false;
    const caps = options || {};
    this.#maxConcurrent = caps.maxConcurrent ?? DEFAULT_MAX_IN_FLIGHT;
    this.#perMinute = caps.requestsPerMinute ?? NONE;
  }

  /** The current state, copied. */
  snapshot(): RateLimitSnapshot {
    this.#expire(Date.now());
    return Object.freeze({
      enabled: this.enabled,
      queued: this.#queue.length + this.#resting,
      inFlight: this.#inFlight,
      limit: this.#limit,
      remaining: this.#remaining,
      pausedUntil: this.#pausedUntil > Date.now() ? new Date(this.#pausedUntil) : undefined,
    });
  }

  resting(delta: 1 | -1): void {
    this.#resting += delta;
  }

  /** Takes a turn for one request when it may go at once (nobody waits and the limits allow it). */
  tryTake(): boolean {
    const now = Date.now();
    if (this.#queue.length > 0 || this.#blockedFor(now) > 0) return false;
    this.#start(now);
    return true;
  }

  /**
   * Takes a turn for one request: `undefined` when it may go at once, else a promise that resolves on its turn,
   * or rejects when the ticket's signal aborts or its time runs out. Every turn taken is handed back (`release`).
   */
  take(ticket: Ticket): Promise<void> | undefined {
    return this.tryTake() ? undefined : this.queue(ticket);
  }

  /** Hands back a turn from `take` or `tryTake`: its request is over (`observe` reads its answer), or never went out. */
  release(): void {
    this.#inFlight -= 1;
    if (this.#queue.length > 0) this.#pump();
  }

  /**
   * Reads an answer's rate-limit headers (none: `undefined`, no answer). A 429 pauses the client for its
   * `Retry-After`, unless that is beyond `maxPauseMs` (the call then fails with it, and others probe one by one).
   */
  observe(answer: Response | undefined, log: ThrottleLog, maxPauseMs: number): void {
    const now = Date.now();
    this.#expire(now);
    const remaining = answer && count(answer.headers.get('x-ratelimit-remaining'));
    // Answers to concurrent requests cross on their way: a higher budget within CROSSED_MS of a lower one is an
    // older answer arriving late far more often than a window that turned, and believing it overruns the window.
    if (remaining !== undefined) {
      const late = this.#seen && remaining > (this.#remaining ?? 0) && now < this.#readAt + CROSSED_MS;
      if (!late) {
        // A budget that rose is a new window, whether or not its first answer was seen.
        const rose = remaining > (this.#remaining ?? remaining);
        this.#seen = true;
        this.#open = false;
        this.#remaining = remaining;
        this.#readAt = now;
        this.#limit = count(answer?.headers.get('x-ratelimit-limit') ?? null) ?? this.#limit;
        this.#budgetUntil = now + windowMs(answer?.headers);
        this.#window(now, remaining, answer?.status === 429, rose);
      }
    } else if (answer === undefined && this.#seen && (this.#remaining ?? 0) > 0) {
      // A request that got no answer may have been counted (its answer lost on the way): one less is left.
      this.#remaining = (this.#remaining as number) - 1;
    } else if (!this.#seen && answer !== undefined && answer.status < 300) {
      // Only a success is news that the server does not count: a 5xx, a 408 or no answer at all says nothing of
      // its budget, and a pause or a budget holds through them.
      this.#open = true;
    }
    if (answer?.status === 429) this.#pause(answer.headers, log, maxPauseMs);
    if (this.#queue.length > 0) this.#pump();
  }

  #pause(headers: Headers, log: ThrottleLog, maxPauseMs: number): void {
    // A throttle that is off queues nothing, so there is nothing to pause.
    if (!this.enabled) return;
    // Whatever the answer said, nothing is left: after the pause one request finds out what the new window holds.
    this.#open = false;
    this.#remaining = 0;
    this.#readAt = Date.now();
    const seconds = retryAfterSeconds(headers);
    const waitMs = seconds === undefined ? DEFAULT_PAUSE_MS : Math.ceil(seconds * 1000);
    const now = Date.now();
    // The wait names when the window that began with its first request ends, to the whole second: the window lasts
    // the one whole number of seconds in (x + wait - 1 s, x + wait], x the time since its start. A 429 past the
    // window's middle (x > wait) more likely follows a start this client did not see: it teaches nothing.
    const x = now - this.#windowStart;
    const len = Math.floor((x + waitMs) / 1000) * 1000;
    if (
      this.#windowStart > 0 &&
      seconds !== undefined &&
      x >= 0 &&
      x <= waitMs &&
      len >= 1000 &&
      len <= MINUTE + 1_000
    )
      this.#windowLen = Math.min(this.#windowLen, len);
    // Nothing is left until the wait is over, however long (a day at most); then the budget is not known any more.
    const until = now + Math.min(waitMs, MAX_PAUSE_MS);
    this.#seen = true;
    this.#budgetUntil = until;
    const wasPaused = now < this.#pausedUntil;
    this.#pausedUntil = Math.max(this.#pausedUntil, until);
    // Answers to requests already in flight may say the same: the first one announces the pause.
    if (wasPaused) return;
    // A wait past maxPauseMs is kept too: the calls that may not wait that long fail unsent until it is over.
    const line =
      waitMs > maxPauseMs
        ? `${waitMs} ms, past maxRetryAfter: calls fail unsent until then`
        : `every call of this client waits ${waitMs} ms`;
    log('info', `rate limit reached (HTTP 429): ${line}`, {
      waitMs,
      queued: this.#queue.length,
      limit: this.#limit,
      remaining: 0,
    });
  }

  /**
   * Forgets a budget whose window has ended: the next answer says the new one, or, when it has no rate-limit
   * headers, opens the throttle, as a first answer would. A stale `Remaining: 0` never holds calls for good.
   */
  #expire(now: number): void {
    if (!this.#seen || now < this.#budgetUntil) return;
    this.#seen = false;
    this.#remaining = undefined;
  }

  /** 0 when a request may start now; else the ms until it may, or Infinity until an answer comes back. */
  /**
   * What an answer says of the server's window, which (as Laravel's) begins with its first request: the first answer
   * of a window (`limit - 1` left) marks its start; once it has nothing left, the next request waits for its end, when
   * a 429 has shown how long a window lasts, instead of drawing a 429 to find out.
   */
  #window(now: number, remaining: number, limited: boolean, rose: boolean): void {
    if (limited) return;
    if (rose || remaining === (this.#limit ?? 0) - 1) this.#windowStart = now;
    if (remaining === 0 && Number.isFinite(this.#windowLen) && this.#windowStart > 0)
      this.#resetAt = this.#windowStart + this.#windowLen;
  }

  #blockedFor(now: number): number {
    this.#expire(now);
    if (now < this.#pausedUntil) return this.#pausedUntil - now;
    // The window is spent and its end is known: nothing goes before it.
    if (!this.#open && this.#remaining === 0 && now < this.#resetAt) return this.#resetAt - now;
    if (this.#inFlight >= this.#maxConcurrent) return NONE;
    if (!this.#open) {
      const budget = this.#remaining ?? 0;
      if (budget > 0 && this.#inFlight >= budget) return NONE;
      // Nothing left, or not known yet: a request alone finds out, and while none answers (a slow or hung
      // one) another goes every PROBE_MS, so one request cannot hold up the rest until its timeout.
      if (budget === 0 && this.#inFlight > 0 && now < this.#probeAt + PROBE_MS)
        return this.#probeAt + PROBE_MS - now;
    }
    return this.#minuteWait(now);
  }

  #minuteWait(now: number): number {
    const starts = this.#starts;
    while (starts.length > 0 && (starts[0] as number) <= now - this.#span) starts.shift();
    return starts.length < this.#perMinute ? 0 : (starts[0] as number) + this.#span - now;
  }

  #start(now: number): void {
    if (!this.#open && (this.#remaining ?? 0) === 0) this.#probeAt = now;
    this.#inFlight += 1;
    if (this.#perMinute !== NONE) this.#starts.push(now);
  }

  /** Waits in the queue for a turn (after `tryTake` said no): rejects on the ticket's abort or time limit. */
  queue(ticket: Ticket): Promise<void> {
    return waitInQueue(
      this.#queue,
      ticket,
      ({ grant, settle, reject }) => ({
        ticket,
        grant,
        fail: (error) => {
          settle();
          reject(error);
        },
      }),
      () => {
        this.#announce(ticket.log);
        this.#pump();
      },
      () => this.#pump(),
    );
  }

  /** Grants turns in queue order while the limits allow; arms a timer when what blocks is a time. */
  #pump(): void {
    const now = Date.now();
    while (this.#queue.length > 0) {
      const wait = this.#blockedFor(now);
      const first = this.#queue.peek() as Waiter;
      // A pause longer than this call may wait (set by a derived client with a larger maxRetryAfter) fails it unsent.
      if (
        wait > 0 &&
        now < this.#pausedUntil &&
        first.ticket.paused &&
        wait > (first.ticket.maxPauseMs ?? NONE)
      ) {
        this.#queue.shift();
        first.fail(first.ticket.paused(wait));
        continue;
      }
      if (wait > 0) {
        if (wait !== NONE) this.#wake(now + wait);
        return;
      }
      this.#start(now);
      (this.#queue.shift() as Waiter).grant();
    }
    this.#announced = false;
    // Nobody waits: no timer may keep the process alive.
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #wake(at: number): void {
    if (this.#timer !== undefined && this.#timerAt <= at) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#pump();
      },
      Math.max(0, at - Date.now()),
    );
  }

  /** Says once per stretch of waiting that calls wait on a limit (not behind the first request, or `maxConcurrent`). */
  #announce(log: ThrottleLog): void {
    if (this.#announced) return;
    const now = Date.now();
    const queued = this.#queue.length;
    const waitMs = this.#minuteWait(now);
    // A pause was announced by the 429 that started it.
    if (now < this.#pausedUntil) this.#announced = true;
    else if (waitMs > 0) {
      this.#announced = true;
      log('info', `requestsPerMinute (${this.#perMinute}) reached: calls wait ${waitMs} ms`, {
        waitMs,
        queued,
      });
    } else if (this.#seen && !this.#open && this.#inFlight >= Math.max(1, this.#remaining ?? 0)) {
      this.#announced = true;
      const left = `${this.#remaining ?? 0} of ${this.#limit ?? '?'} requests left`;
      log('info', `rate limit: ${left}; calls wait for the ${this.#inFlight} in flight`, {
        queued,
        remaining: this.#remaining,
        limit: this.#limit,
        inFlight: this.#inFlight,
      });
    }
  }
}

/** How long a stated budget holds: until the reset the answer names, else a minute. */
function windowMs(headers: Headers | undefined): number {
  const seconds = headers && retryAfterSeconds(headers);
  return seconds === undefined ? WINDOW_MS : seconds * 1000;
}

/** A header's whole number, or `undefined` when absent or not one. */
function count(value: string | null): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  return /^\d{1,15}$/.test(trimmed) ? Number(trimmed) : undefined;
}
