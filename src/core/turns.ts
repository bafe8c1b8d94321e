import { timeoutError } from './call-end.js';
import { InvalidParamsError } from './errors.js';
import type { Log } from './log.js';
import type { ResolvedOptions } from './options.js';
import type { Throttle } from './throttle.js';
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

/**
 * One call's use of its client's throttle: a turn per attempt, held from its grant until the attempt ends.
 * Every answer is read by the throttle, whether the call queued or not.
 */
export class CallTurns {
  #holding = false;

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
    if (this.throttle.tryTake()) {
      this.#holding = true;
      return undefined;
    }
    const label = `${trace.method} ${trace.url} waiting for its turn under the rate limit`;
    const ticket = { log: init.log, retry, signal: init.signal, timeoutMs: this.timeLeft() };
    const timedOut = () => timeoutError(label, undefined, trace.lost);
    return (this.throttle.take({ ...ticket, timedOut }) ?? Promise.resolve()).then(() => {
      this.#holding = true;
    });
  }

  /** An attempt ended, with its answer or without one (`undefined`): the turn is handed back. */
  attempted(answer: Response | undefined): void {
    // Read first, so the turn handed back is granted on what this answer says.
    this.throttle.observe(answer, this.init.log, this.init.maxPauseMs);
    this.end();
  }

  /** The call is over: a turn still held (its request never went out) is handed back. */
  end(): void {
    if (!this.#holding) return;
    this.#holding = false;
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
