import { InvalidParamsError, timeoutError } from '../errors/index.js';
import type { Throttle } from '../throttle/index.js';
import type { Log } from './log.js';
import type { ResolvedOptions } from './options.js';
import type { Trace } from './trace.js';

/** What one call's turns need besides its throttle and trace. */
export interface TurnsInit {
  /** Whether this call queues (`false`: the throttle is off, for the client or for this call). */
  queues: boolean;
  /** The call's log, for the line announcing a wait and the pause after a 429. */
  log: Log;
  /** Longest pause a 429 may impose on the client (`maxRetryAfter`). */
  maxPauseMs: number;
  /** The caller's signal: an abort takes the call out of the queue. */
  signal: AbortSignal | undefined;
  /** The call's `totalTimeout`, which covers its time in the queue. */
  total: number | undefined;
}

/** One turn under the throttle, handed back once. */
export interface Turn {
  released: boolean;
}

/**
 * One call's use of its client's throttle: a turn per attempt, taken before it (`wait`), claimed by the attempt
 * when it is sent (`claim`) and handed back when it ends (`attempted`), or when the call ends (`end`): no turn
 * outlives its call, whatever ky, a hook or a fetch that ignores its signal does. Every answer is read by the
 * throttle, whether the call queued or not.
 */
export class CallTurns {
  // Granted and not yet claimed by an attempt.
  #turn: Turn | undefined;
  // Claimed by the latest attempt.
  #claimed: Turn | undefined;
  #over = false;

  constructor(
    private readonly throttle: Throttle,
    private readonly trace: Trace,
    private readonly init: TurnsInit,
  ) {}

  /** Milliseconds left of the call's `totalTimeout`; `undefined` without one. */
  timeLeft(): number | undefined {
    const { total } = this.init;
    return total === undefined ? undefined : total - this.trace.elapsed();
  }

  /** Waits for the turn of the next attempt: `undefined` when it may go at once. */
  wait(retry: boolean): Promise<void> | undefined {
    const { init, trace } = this;
    if (!init.queues) return undefined;
    // ky retries only once it is done with the attempt before: one still unanswered (a timeout) was given up.
    this.#hand(this.#claimed);
    if (this.throttle.tryTake()) {
      this.#granted();
      return undefined;
    }
    const label = `${trace.method} ${trace.url} waiting for its turn under the rate limit`;
    const timedOut = () => timeoutError(label, undefined, trace.lost);
    const ticket = { log: init.log, retry, signal: init.signal, timeoutMs: this.timeLeft(), timedOut };
    return this.throttle.queue(ticket).then(() => this.#granted());
  }

  #granted(): void {
    // A turn granted after ky gave up on the call (its deadline passed in a hook) goes straight back.
    if (this.#over) this.throttle.release();
    else {
      this.#hand(this.#turn);
      this.#turn = { released: false };
    }
  }

  /** An attempt is being sent: it takes the turn granted for it (none when the call does not queue). */
  claim(): Turn | undefined {
    this.#claimed = this.#turn;
    this.#turn = undefined;
    return this.#claimed;
  }

  /** The attempt that claimed `turn` ended, with its answer or without one (`undefined`). */
  attempted(turn: Turn | undefined, answer: Response | undefined): void {
    // Read first, so the turn handed back is granted on what this answer says.
    this.throttle.observe(answer, this.init.log, this.init.maxPauseMs);
    this.#hand(turn);
  }

  /** The call is over: every turn it still holds (unsent, or an attempt ky gave up on) is handed back. */
  end(): void {
    this.#over = true;
    this.#hand(this.#turn);
    this.#hand(this.#claimed);
    this.#turn = undefined;
  }

  #hand(turn: Turn | undefined): void {
    if (turn === undefined || turn.released) return;
    turn.released = true;
    this.throttle.release();
  }
}

/** Whether a derived client shares its parent's throttle: the same key, the same server, the same caps. */
export function sharesThrottle(parent: ResolvedOptions, child: ResolvedOptions): boolean {
  const [a, b] = [parent.rateLimit, child.rateLimit];
  return (
    parent.apiKey === child.apiKey &&
    parent.apiRoot === child.apiRoot &&
    (a === false || b === false
      ? a === b
      : a.maxConcurrent === b.maxConcurrent && a.requestsPerMinute === b.requestsPerMinute)
  );
}

/**
 * Whether a call queues, from its own `rateLimit` option: `false` sends it past the queue.
 * @throws {InvalidParamsError} for any other value but `undefined`.
 */
export function queues(rateLimit: unknown): boolean {
  if (rateLimit === undefined) return true;
  if (rateLimit === false) return false;
  throw new InvalidParamsError(
    `rateLimit for one call can only be false (send it past the queue); got ${String(rateLimit)}.`,
    'rateLimit',
  );
}
