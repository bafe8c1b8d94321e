import {
  type APIError,
  type ClientFacts,
  type ClientSetup,
  ContentPlatformError,
  InvalidParamsError,
  pausedError,
  recordCall,
  redactUrl,
  type Scrub,
  shown,
  timeoutError,
  withCodes,
} from '../errors/index.js';
import type { ClientThrottle } from '../throttle/index.js';
import type { Log, LogFields } from './log.js';
import type { Failure, Method } from './retry.js';
import type { OperationTelemetry, Telemetry } from './telemetry.js';

/** What every call of one client shares: built once, with the client. */
export interface CallClient {
  /** The API root with a trailing slash: a call's `input` is relative to it. */
  readonly root: string;
  /** Masks the client's key. */
  readonly scrub: Scrub;
  readonly log: Log;
  readonly throttle: ClientThrottle;
  /** Longest pause a 429 may impose on the client (`maxRetryAfter`). */
  readonly maxPauseMs: number;
  /** Where the client's key and URL came from, and whether the server accepted the key: advice in messages. */
  readonly facts: ClientFacts;
  /** Where the client reports its operations (the `telemetry` option). */
  readonly telemetry: Telemetry | undefined;
}

/**
 * A client's facts for its messages: its setup, the API root scrubbed like every URL a message shows, and whether
 * the server has accepted the key yet (`accepted`, a flag the client shares with those derived with the same key).
 */
export function clientFacts(
  setup: ClientSetup,
  scrub: Scrub,
  accepted: { readonly key: boolean },
): ClientFacts {
  return {
    ...setup,
    apiRoot: scrub(setup.apiRoot),
    get keyAccepted() {
      return accepted.key;
    },
  };
}

/** What one call is, beyond its method and input: the parts its trace reads. */
export interface TraceInit {
  /** The caller's signal: an abort takes the call out of the throttle's queue. */
  signal: AbortSignal | undefined;
  /** The call's `totalTimeout`, which covers its time in the queue and its waits. */
  total: number | undefined;
  /** Whether the call queues under the throttle (`false`: off for the client or for this call). */
  queues: boolean;
  /** Whether an answer is rebuilt for an `afterResponse` hook (see `readAttempt`). */
  rebuild: boolean;
  /** `maxResponseBytes` for this call. */
  maxBytes: number;
  /** Retries the call may make (`maxRetries`). */
  limit: number;
  /** Longest server-asked wait the call sleeps through, and longest pause it waits out (`maxRetryAfter`). */
  maxPauseMs: number;
}

/**
 * What the SDK's hooks see of the call they run for, as `options.contentPlatformTrace` (its `toJSON()` is this):
 * a wrapper labels its own spans or log lines with it, without a map of URLs.
 */
export interface CallInfo {
  /** The SDK method called: `pixels.get`, `purchases.validate`, … */
  operation: string | undefined;
  method: Method;
  /** The call's full URL, with the key and any purchase code masked. */
  url: string;
  /** Requests sent so far: in `beforeRequest` and `beforeRetry`, the attempt about to go is `attempts + 1`. */
  attempts: number;
}

/** One turn under the throttle, handed back once. */
interface Turn {
  released: boolean;
}

/**
 * What one call goes through, attempt by attempt, and its turns under the client's throttle: the one object a
 * call builds. Its errors (`attempts`, `requestId`, `mayHaveSucceeded`) and log lines read it; what only they need
 * (the redacted URL, the scrub of the call's purchase codes) is built the first time one asks.
 */
export class Trace {
  /** Requests sent so far. */
  attempts = 0;
  /** Answers read so far (fewer than `attempts` when one got none). */
  answers = 0;
  /** The last answer received, any status (already read: see `readText`). */
  answer: Response | undefined;
  /** Some attempt left and got no answer (timeout, reset): the server may have acted on it. */
  lost = false;
  /** A retry allowed, waiting for ky to ask its wait: the server's (`wait`), else a backoff drawn then. */
  pending: { failure: Failure; retry: number; wait: number | undefined } | undefined;
  /** ky's error for the latest attempt the retry rules judged: what the call ends with if a hook stops it. */
  lastError: Error | undefined;
  /** The call brings its own `beforeRetry` hooks: its retry turn is taken by a hook after them, not the client's. */
  ownRetryHook = false;
  /** What follows the call's operation, with `telemetry` set. */
  op: OperationTelemetry | undefined;
  readonly started = performance.now();
  // Private, as is `input`: a trace rides on the options users' hooks see, and these hold the key (a Catalog GET's
  // query) and the call's purchase codes.
  readonly #input: string;
  readonly #secrets: readonly string[] | undefined;
  #scrub: Scrub | undefined;
  #url: string | undefined;
  // Granted and not yet claimed by an attempt; claimed by the latest attempt.
  #turn: Turn | undefined;
  #claimed: Turn | undefined;
  #over = false;
  #resting = false;
  // Hand-backs still on their way to a shared throttle's store: the call settles after them (see `settled`).
  #handing: Promise<void>[] | undefined;

  /**
   * `input`: the path and query relative to the API root, as sent; `secrets`: values the call sends that must never
   * be shown whole (a purchase code); `operation`: the SDK method called (`pixels.get`).
   */
  constructor(
    readonly client: CallClient,
    readonly method: Method,
    input: string,
    secrets: readonly string[] | undefined,
    readonly init: TraceInit,
    readonly operation?: string,
  ) {
    this.#input = input;
    this.#secrets = secrets;
  }

  /** Masks the key and the call's purchase codes (each to its last four characters). */
  get scrub(): Scrub {
    this.#scrub ??= this.#secrets ? withCodes(this.client.scrub, this.#secrets) : this.client.scrub;
    return this.#scrub;
  }

  /** The call's full URL, redacted: it names the call in messages and log lines. */
  get url(): string {
    this.#url ??= this.scrub(redactUrl(this.client.root + this.#input));
    return this.#url;
  }

  /** What a hook that logs ky's options shows of the trace: the operation, the call, redacted, and its counters. */
  toJSON(): CallInfo {
    return { operation: this.operation, method: this.method, url: this.url, attempts: this.attempts };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Trace ${JSON.stringify(this.toJSON())}`;
  }

  /** `METHOD url`, redacted. */
  get label(): string {
    return `${this.method} ${this.url}`;
  }

  /** The client's facts, for the advice an error's message ends with. */
  get facts(): ClientFacts {
    return this.client.facts;
  }

  /** Milliseconds since the call started. */
  elapsed(): number {
    return performance.now() - this.started;
  }

  /** Milliseconds left of the call's `totalTimeout`; `undefined` without one. */
  timeLeft(): number | undefined {
    const { total } = this.init;
    return total === undefined ? undefined : total - this.elapsed();
  }

  /** The `X-Request-Id` of the last answer, if it had one, scrubbed: a server may echo anything in it. */
  get requestId(): string | undefined {
    const id = this.answer?.headers.get('x-request-id');
    return id == null ? undefined : this.scrub(id);
  }

  /** The fields of a log line about this call's current attempt. */
  fields(extra: LogFields = {}): LogFields {
    return { method: this.method, url: this.url, attempt: this.attempts, ...extra };
  }

  /** The retry rules allowed a retry: the call sleeps before it, counted among the calls waiting (`rateLimit`). */
  rest(): void {
    if (this.#resting || !this.init.queues) return;
    this.#resting = true;
    this.client.throttle.resting(1);
  }

  #woke(): void {
    if (!this.#resting) return;
    this.#resting = false;
    this.client.throttle.resting(-1);
  }

  /** Waits for the turn of the next attempt: `undefined` when it may go at once. */
  wait(retry: boolean): Promise<void> | undefined {
    const { throttle } = this.client;
    this.#woke();
    if (!this.init.queues) return undefined;
    // ky retries only once it is done with the attempt before: one still unanswered (a timeout) was given up.
    this.#hand(this.#claimed);
    if (throttle.tryTake()) {
      this.#granted();
      return undefined;
    }
    const timedOut = () =>
      timeoutError(`${this.label} waiting for its turn under the rate limit`, undefined, this.lost);
    const { maxPauseMs } = this.init;
    const ticket = {
      log: this.client.log,
      retry,
      signal: this.init.signal,
      timeoutMs: this.timeLeft(),
      timedOut,
      maxPauseMs,
      paused: (waitMs: number) => pausedError(this.label, waitMs, maxPauseMs),
    };
    const asked = performance.now();
    return throttle.queue(ticket).then(() => {
      this.op?.event({ type: 'throttle.wait', waitMs: performance.now() - asked, retry });
      this.#granted();
    });
  }

  #granted(): void {
    // A turn granted after ky gave up on the call (its deadline passed in a hook) goes straight back.
    if (this.#over) this.#handed(this.client.throttle.release());
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
    this.client.throttle.observe(answer, this.client.log, this.init.maxPauseMs);
    this.#hand(turn);
    if (answer === undefined) return;
    this.answer = answer;
    this.answers += 1;
  }

  /** The call is over: every turn it still holds (unsent, or an attempt ky gave up on) is handed back. */
  end(): void {
    this.#over = true;
    this.#woke();
    this.#hand(this.#turn);
    this.#hand(this.#claimed);
    this.#turn = undefined;
  }

  #hand(turn: Turn | undefined): void {
    if (turn === undefined || turn.released) return;
    turn.released = true;
    this.#handed(this.client.throttle.release());
  }

  #handed(handing: void | Promise<void>): void {
    if (!handing) return;
    if (this.#handing === undefined) this.#handing = [handing];
    else this.#handing.push(handing);
  }

  /**
   * What the call waits for before it settles, once it is over: its turns' hand-backs reaching a shared throttle's
   * store (bounded by the store; never rejects). `undefined` (nothing to wait for) with a client's own throttle.
   */
  settled(): Promise<unknown> | undefined {
    const handing = this.#handing;
    if (handing === undefined) return undefined;
    this.#handing = undefined;
    return Promise.all(handing);
  }

  /** The call's error, stamped with what the call went through (`attempts`, `requestId`). */
  finished(error: unknown): unknown {
    if (!(error instanceof ContentPlatformError)) return error;
    const answered = (error as Partial<APIError>).headers?.get('x-request-id');
    recordCall(error, this.attempts, answered == null ? this.requestId : this.scrub(answered));
    return error;
  }
}

/**
 * Whether a call queues, from its own `rateLimit` option: `false` sends it past the queue.
 * @throws {InvalidParamsError} for any other value but `undefined`.
 */
export function queues(rateLimit: unknown): boolean {
  if (rateLimit === undefined) return true;
  if (rateLimit === false) return false;
  throw new InvalidParamsError(
    `rateLimit for one call can only be false (send it past the queue); got ${shown(rateLimit)}.`,
    'rateLimit',
  );
}
