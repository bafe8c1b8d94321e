import { randomUUID } from 'node:crypto';
import { retryAfterSeconds } from '../core/errors/index.js';
import {
  type ClientThrottle,
  DEFAULT_MAX_IN_FLIGHT,
  drain,
  type FleetInit,
  type RateLimitSnapshot,
  Throttle,
  type ThrottleLog,
  type Ticket,
  WaitQueue,
  waitInQueue,
} from '../core/throttle/index.js';
import type { RunScript } from './client.js';
import { ACQUIRE, HOLD, OBSERVE, RELEASE } from './scripts.js';

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
// Longest lease a turn is taken for, renewed every third of it while its request runs: a process that dies holding
// turns (a crash, a kill) costs the fleet at most this, whatever the client's `timeout`. A lease Redis holds past it
// is no client's: it is dropped.
const LEASE_MS = 15_000;
// Longest pause any client writes (a 429's wait past it is written as this): a pause further ahead is dropped.
const MAX_PAUSE_MS = 24 * 3_600_000;
// Members are processes, not clients: every client of this process on one key counts once.
const MEMBER = randomUUID();
// The reason a wait handed to the process's own throttle is taken back from it when Redis answers again.
const REJOIN = Symbol('rejoin');

/**
 * The process's own throttle on one key while Redis is down, shared by every client of the process that has lost
 * Redis on that key: the share of the budget is the process's (a member of the fleet), not each client's.
 */
interface Alone {
  readonly throttle: Throttle;
  /** The process's share of the last budget it read (undefined: none read yet; 0: nothing, so turns are spaced). */
  share: number | undefined;
  /** When it last granted a turn. */
  last: number;
  /** The clients throttling on it: it is dropped when the last one rejoins the fleet. */
  users: number;
}

// Each key's own throttle while Redis is down, by state name (see `Alone`).
const ALONE = new Map<string, Alone>();

/** A call waiting for a turn from the fleet. */
interface Waiter {
  ticket: Ticket;
  /** When its `timeoutMs` runs out (`Infinity`: never). */
  deadline: number;
  grant(): void;
  /** Ends its wait with `error` (it is already out of the queue). */
  fail(error: unknown): void;
  /** Gives up its place here for a turn from elsewhere (the process's own throttle, while the store is down). */
  handOver(turn: Promise<void>): void;
}

/** A turn this process holds: a fleet token, a turn of its own throttle's (granted while Redis was down), or both. */
interface Held {
  token?: string | undefined;
  alone?: Throttle | undefined;
}

/**
 * The throttle of one client whose turns are the fleet's: every process whose store reaches the same Redis shares,
 * per API root and key, the server's last-known budget, the requests in flight (each a token with a lease, renewed
 * while its request runs, so a dead process's turns come back within `LEASE_MS`) and a 429's pause. A turn is taken
 * and handed back by one script each, with Redis's clock; a call settles only once its turn is back in Redis, so a
 * process that exits right after its last call leaves nothing taken.
 *
 * Waiting is a bounded poll, not pub/sub: the process's waiters queue here in order, and only the first asks Redis,
 * again after a release of its own, after `POLL_MS` (25 ms, jittered) when the fleet has none to spare, or when the
 * wait Redis names (a pause, the next probe, the minute's window) is over. One connection does it all (pub/sub needs
 * a second one in subscriber mode), it works the same with node-redis and ioredis, through a proxy and after a
 * reconnect, and the cost is one short script per waiting process every 25 ms. Once a window's budget is spent and
 * its end is known, the turn of the request that finds out the next budget is promised ahead to one process, which
 * sends it at the window's end without asking again.
 *
 * When Redis cannot be reached (an error, or no answer within the store's `timeoutMs`), the process throttles alone
 * on its share, 1/N (N: the member processes Redis last counted) of each budget it reads and of the caps (and of the
 * server's limit once a 429 has named its window); before Redis has ever answered, N is not known, and the process
 * sends one request at a time, 500 ms apart. The process's clients on the key that have lost Redis throttle on that one
 * share together, not each on its own. It says so in one `warn` line, and rejoins the fleet once Redis answers
 * again: the turns its own throttle granted are carried back to Redis, the calls still waiting move back to the
 * fleet's queue, and turns Redis may hold for nobody (an acquire it ran after the process gave up on it, a release
 * it never heard) are handed back.
 */
export class FleetThrottle implements ClientThrottle {
  readonly enabled = true;
  readonly #run: RunScript;
  readonly #name: string;
  readonly #init: FleetInit;
  readonly #keys: { state: string; inFlight: string; starts: string; members: string };
  readonly #lease: number;
  readonly #queue = new WaitQueue<Waiter>();
  readonly #held: Held[] = [];
  // Waits handed to the process's own throttle and not granted yet: taken back when Redis answers again.
  readonly #handed = new Set<AbortController>();
  // Tokens Redis may hold for no call: handed back when it answers again.
  readonly #orphans: string[] = [];
  #renewing: ReturnType<typeof setInterval> | undefined;
  #pumping = false;
  // Calls sleeping before a retry.
  #resting = 0;
  #wake: (() => void) | undefined;
  #fallback: Alone | undefined;
  #down = false;
  // What the last answer from Redis said, for the snapshot and the share while Redis is down (members: undefined
  // until Redis has answered once).
  #members: number | undefined;
  #remaining: number | undefined;
  #limit: number | undefined;
  // The server's window as the fleet has seen it: the longest wait a 429 named.
  #windowMs: number | undefined;
  #pausedUntil = 0;

  /** `run`: the store's script runner; `name`: the state's key prefix (a hash of the API root and key). */
  constructor(run: RunScript, name: string, init: FleetInit) {
    this.#run = run;
    this.#name = name;
    this.#init = init;
    this.#keys = { state: `${name}:s`, inFlight: `${name}:f`, starts: `${name}:m`, members: `${name}:h` };
    this.#lease = Math.max(1, Math.min(init.leaseMs, LEASE_MS));
  }

  snapshot(): RateLimitSnapshot {
    return Object.freeze({
      enabled: true,
      // Every call waiting, for the fleet or (while Redis is down) for the process's own throttle.
      queued: this.#queue.length + this.#handed.size + this.#resting,
      inFlight: this.#held.length,
      limit: this.#limit,
      remaining: this.#remaining,
      pausedUntil: this.#pausedUntil > Date.now() ? new Date(this.#pausedUntil) : undefined,
      store: this.#down ? 'fallback' : 'shared',
    });
  }

  resting(delta: 1 | -1): void {
    this.#resting += delta;
  }

  tryTake(): boolean {
    // A fleet's turn takes a round trip: only the process's own throttle, while Redis is down, grants at once.
    const fallback = this.#fallback;
    if (!this.#down || fallback === undefined || this.#spaced() > 0 || !fallback.throttle.tryTake())
      return false;
    this.#taken(fallback);
    return true;
  }

  queue(ticket: Ticket): Promise<void> {
    if (this.#down && this.#fallback) return this.#handOver(this.#fallback, ticket);
    return waitInQueue(
      this.#queue,
      ticket,
      ({ grant, settle, resolve, reject }) => ({
        ticket,
        deadline: ticket.timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + ticket.timeoutMs,
        grant,
        fail: (error) => {
          settle();
          reject(error);
        },
        handOver: (turn) => {
          settle();
          turn.then(resolve, reject);
        },
      }),
      () => void this.#pump(),
    );
  }

  release(): Promise<void> | undefined {
    const held = this.#held.pop();
    if (held === undefined) return undefined;
    held.alone?.release();
    this.#wake?.();
    if (held.token === undefined) return undefined;
    return this.#giveBack([held.token]);
  }

  /** Hands `tokens` back to Redis; resolves when it has them (or has failed: then they are handed back later). */
  #giveBack(tokens: string[]): Promise<void> {
    return this.#run(RELEASE, [this.#keys.inFlight], tokens).then(
      () => this.#wake?.(),
      () => {
        this.#orphans.push(...tokens);
      },
    );
  }

  observe(answer: Response | undefined, log: ThrottleLog, maxPauseMs: number): void {
    if (this.#down && this.#fallback) {
      this.#fallback.throttle.observe(answer && this.#shared(answer), log, maxPauseMs);
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
      limited ? '1' : answer.status < 300 ? '0' : '2',
      String(waitMs),
      String(maxPauseMs),
      String(STATE_MS),
      String(MAX_PAUSE_MS),
      limited && seconds !== undefined ? '1' : '0',
    ];
    this.#run(OBSERVE, [this.#keys.state], args).then(
      (started) => {
        if (Number(started) > 0) {
          this.#pausedUntil = Date.now() + waitMs;
          const line =
            waitMs > maxPauseMs
              ? `${waitMs} ms, past maxRetryAfter: calls on this key fail unsent until then`
              : `every call on this key, in every process, waits ${waitMs} ms`;
          log('info', `rate limit reached (HTTP 429): ${line}`, {
            waitMs,
            queued: this.#queue.length,
            limit: this.#limit,
            remaining: 0,
          });
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
        // This process's own cap on requests in flight (the default's, when no fleet-wide one is set): a release wakes it.
        if (this.#held.length >= (this.#init.maxConcurrent ?? DEFAULT_MAX_IN_FLIGHT)) {
          await this.#sleep(MAX_SLEEP_MS);
          continue;
        }
        const token = randomUUID();
        let reply: unknown;
        try {
          reply = await this.#run(ACQUIRE, Object.values(this.#keys), this.#acquireArgs(token));
        } catch (error) {
          // Redis may still run the script (it was slow, not gone): the token goes back once it answers again.
          this.#orphans.push(token);
          this.#lost(error);
          break;
        }
        const [wait = -1, members = 1, remaining = -1, limit = -1, window = -1, paused = 0, at = 0] = (
          reply as unknown[]
        ).map(Number);
        this.#members = Math.max(1, members);
        this.#remaining = remaining < 0 ? undefined : remaining;
        if (limit >= 0) this.#limit = limit;
        if (window > 0) this.#windowMs = window;
        if (wait === 0) {
          // The turn of the request that finds out the next window's budget, promised to go at the window's end: no
          // one in this process goes before it, so the queue waits with it (whoever is first then takes it).
          if (at > 0) await delay(Math.min(at, this.#lease));
          const waiter = this.#queue.shift();
          if (waiter === undefined) {
            // Everyone left while the turn was being taken: it goes straight back.
            void this.#giveBack([token]);
            continue;
          }
          this.#held.push({ token });
          this.#renew();
          waiter.grant();
          continue;
        }
        if (paused > 0) {
          this.#pausedUntil = Math.max(this.#pausedUntil, Date.now() + paused);
          // A pause longer than the first waiter may wait (a client with a larger maxRetryAfter met that 429).
          const first = this.#queue.peek() as Waiter;
          const { maxPauseMs, paused: pausedError } = first.ticket;
          if (pausedError && paused > (maxPauseMs ?? Number.POSITIVE_INFINITY)) {
            this.#queue.shift();
            first.fail(pausedError(paused));
            continue;
          }
        } else if (wait > POLL_MS) this.#pausedUntil = Math.max(this.#pausedUntil, Date.now() + wait);
        await this.#sleep(wait < 0 ? POLL_MS * (0.5 + Math.random()) : Math.min(wait, MAX_SLEEP_MS));
      }
    } finally {
      this.#pumping = false;
    }
  }

  #acquireArgs(token: string): string[] {
    const { maxConcurrent, requestsPerMinute } = this.#init;
    return [
      token,
      String(this.#lease),
      String(finite(maxConcurrent)),
      String(finite(requestsPerMinute)),
      MEMBER,
      String(PROBE_MS),
      String(MEMBER_IDLE_MS),
      String(STATE_MS),
      String(LEASE_MS),
      String(MAX_PAUSE_MS),
    ];
  }

  /** While this process holds fleet turns, their leases are renewed every third of a lease. */
  #renew(): void {
    if (this.#renewing !== undefined) return;
    this.#renewing = setInterval(() => {
      const tokens = this.#held.flatMap((held) => (held.token === undefined ? [] : [held.token]));
      if (tokens.length === 0) {
        clearInterval(this.#renewing);
        this.#renewing = undefined;
        return;
      }
      if (this.#down) return;
      const args = [String(this.#lease), 'XX', String(STATE_MS), ...tokens];
      this.#run(HOLD, [this.#keys.inFlight], args).catch(() => {});
    }, this.#lease / 3);
    // Renewing never keeps a process alive.
    (this.#renewing as { unref?: () => void }).unref?.();
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

  /**
   * Redis cannot be reached: this process throttles alone on its share, and tries Redis again every second. The
   * process's other clients on the key that have lost Redis too throttle on the same share (`ALONE`): the first to
   * lose it says so at `warn`, the others at `info`.
   */
  #lost(error: unknown): void {
    if (this.#down) return;
    this.#down = true;
    const members = this.#members;
    let alone = ALONE.get(this.#name);
    const first = alone === undefined;
    if (alone === undefined) {
      const share = (cap: number | undefined) =>
        cap === undefined ? undefined : Math.max(1, Math.floor(cap / (members ?? 1)));
      const { maxConcurrent, requestsPerMinute } = this.#init;
      // Its share of the server's limit per window once a 429 has named the window, else of the caps; the budgets it
      // reads meanwhile are divided as they come (see #shared).
      const limit = this.#limit;
      const window = this.#windowMs;
      const perWindow = limit !== undefined && window !== undefined;
      const throttle = new Throttle(
        {
          maxConcurrent: share(maxConcurrent),
          requestsPerMinute: perWindow ? share(limit) : share(requestsPerMinute),
        },
        perWindow ? spanOf(window) : undefined,
      );
      // Before Redis has ever said how many processes share the key, this process's share is not known: nothing.
      alone = { throttle, share: members === undefined ? 0 : undefined, last: 0, users: 0 };
      ALONE.set(this.#name, alone);
    }
    alone.users += 1;
    this.#fallback = alone;
    const reason = (error as Error)?.message ?? String(error);
    const part = members === undefined ? 'one request at a time' : `on 1/${members} of the fleet's budget`;
    this.#init.log(
      first ? 'warn' : 'info',
      `the rate-limit store (Redis) cannot be reached (${reason}): this process throttles alone, ${part}, ` +
        'until Redis answers again.',
      { members, error: reason },
    );
    this.#init.state?.('fallback');
    // Whoever waits for the fleet waits for this process's own throttle instead, until Redis answers again.
    for (const waiter of drain(this.#queue)) {
      const left = waiter.deadline - Date.now();
      const ticket = { ...waiter.ticket, timeoutMs: Number.isFinite(left) ? Math.max(0, left) : undefined };
      waiter.handOver(this.#handOver(this.#fallback, ticket));
    }
    this.#wake?.();
    this.#retryLater();
  }

  /**
   * A wait handed to the process's own throttle while Redis is down. When Redis answers again before it is granted,
   * it is taken back and queues for the fleet again, with what is left of its time.
   */
  async #handOver(fallback: Alone, ticket: Ticket): Promise<void> {
    const moved = new AbortController();
    this.#handed.add(moved);
    const started = Date.now();
    const signal = ticket.signal ? AbortSignal.any([ticket.signal, moved.signal]) : moved.signal;
    try {
      await this.#alone(fallback, { ...ticket, signal });
    } catch (error) {
      if (error !== REJOIN || ticket.signal?.aborted) throw error;
      const { timeoutMs } = ticket;
      const left = timeoutMs === undefined ? undefined : Math.max(0, timeoutMs - (Date.now() - started));
      return this.queue({ ...ticket, timeoutMs: left });
    } finally {
      this.#handed.delete(moved);
    }
  }

  #retryLater(): void {
    const timer = setTimeout(() => {
      // Handing back the turns Redis may hold for nobody (or a harmless token): any answer means Redis is back.
      const orphans = this.#orphans.splice(0);
      this.#run(RELEASE, [this.#keys.inFlight], ['probe', ...orphans]).then(
        () => this.#rejoin(),
        () => {
          this.#orphans.push(...orphans);
          this.#retryLater();
        },
      );
    }, RECOVER_MS);
    // A process may exit while Redis is down.
    (timer as { unref?: () => void }).unref?.();
  }

  /** Redis answers again: the turns granted alone are carried back to it, and the calls still waiting move back. */
  #rejoin(): void {
    this.#down = false;
    const fallback = this.#fallback;
    if (fallback !== undefined) {
      fallback.users -= 1;
      if (fallback.users === 0 && ALONE.get(this.#name) === fallback) ALONE.delete(this.#name);
    }
    const alone = this.#held.filter((held) => held.token === undefined);
    if (alone.length > 0) {
      for (const held of alone) held.token = randomUUID();
      const tokens = alone.map((held) => held.token as string);
      this.#run(HOLD, [this.#keys.inFlight], [String(this.#lease), '', String(STATE_MS), ...tokens]).catch(
        () => {},
      );
      this.#renew();
    }
    for (const moved of this.#handed) moved.abort(REJOIN);
    this.#init.log('info', 'the rate-limit store (Redis) answers again: this process rejoins the fleet.', {
      members: this.#members,
      carried: alone.length,
    });
    this.#init.state?.('shared');
  }

  /**
   * A turn from the process's own throttle, counted as held here. While its share of the budget is nothing, turns
   * are also spaced `PROBE_MS` apart, whether or not a request is in flight: each process alone would otherwise send
   * its next probe the moment the last one answers, and one process would spend a whole window before the others.
   */
  async #alone(fallback: Alone, ticket: Ticket): Promise<void> {
    const turn = fallback.throttle.take(ticket);
    if (turn !== undefined) await turn;
    // Spaced after the turn: a client of the process that took one meanwhile moved the next one on.
    for (let wait = this.#spaced(); wait > 0; wait = this.#spaced()) {
      try {
        await sleepFor(wait, ticket.signal);
      } catch (error) {
        fallback.throttle.release();
        throw error;
      }
    }
    this.#taken(fallback);
  }

  #taken(fallback: Alone): void {
    this.#held.push({ alone: fallback.throttle });
    fallback.last = Date.now();
  }

  /** While the process's share of the budget is nothing: the ms until its next turn may go. */
  #spaced(): number {
    const fallback = this.#fallback;
    if (fallback === undefined || fallback.share === undefined || fallback.share > 0) return 0;
    return Math.max(0, fallback.last + PROBE_MS - Date.now());
  }

  /**
   * An answer as this process's share of the fleet reads it: its `Remaining` divided among the members (nothing
   * while their number is not known).
   */
  #shared(answer: Response): Response {
    const fallback = this.#fallback as Alone;
    const remaining = count(answer.headers.get('x-ratelimit-remaining'));
    const members = this.#members;
    if (answer.status === 429) fallback.share = 0;
    if (remaining === undefined) return answer;
    fallback.share = members === undefined ? 0 : Math.floor(remaining / members);
    if (members === 1) return answer;
    const headers = new Headers(answer.headers);
    headers.set('x-ratelimit-remaining', String(fallback.share));
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

/** Resolves after `ms`, whatever happens meanwhile. */
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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

/** A cap as the scripts read it: 0 for none (`undefined` or `Infinity`). */
function finite(cap: number | undefined): number {
  return cap === undefined || cap === Number.POSITIVE_INFINITY ? 0 : cap;
}

/** A header's whole number, or `undefined` when absent or not one. */
function count(value: string | null): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  return /^\d{1,15}$/.test(trimmed) ? Number(trimmed) : undefined;
}
