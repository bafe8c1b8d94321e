import { json } from './json.js';
import { checkKeys, InvalidParamsError, isGiven, present, share, shown } from './options.js';

/**
 * One scripted answer: `'pass'` (answer normally), `'reset'` (drop the connection), `'hang'` (never answer until
 * the request's signal aborts), `'html'` (the HTML login page with 200, what a followed 302 gives), `'truncated'`
 * (the real answer cut in half), `'lose-response'` (the request reaches the store, then the connection drops),
 * or a canned response.
 */
export type ScriptedFault =
  | 'pass'
  | 'reset'
  | 'hang'
  | 'html'
  | 'truncated'
  | 'lose-response'
  | { status: number; body?: unknown; headers?: Record<string, string> };

/** Standing faults, applied to every matching request until changed. */
export interface FaultSettings {
  /** Added latency in ms (0 to 2147483647): a fixed value or a `[min, max]` range drawn from the seeded PRNG. */
  latencyMs?: number | readonly [min: number, max: number];
  /** Probability (0–1) that a request is answered with one of `failureStatuses` instead. */
  failureRate?: number;
  /** Statuses a failure draws from (at least one, each 400 to 599); default `[500, 503]`. */
  failureStatuses?: readonly number[];
  /**
   * Probability (0–1) that a request is processed (a record stored, updated or deleted, a GET read) and then its
   * connection dropped with no answer, as the scripted `'lose-response'` does: a lost answer, where a client cannot
   * tell whether its create was stored. It applies to every matching request, GETs and refused ones too, drawn from
   * the same PRNG as `failureRate`; the two are shares of the same requests (a request failed with a status never
   * reaches the store), so together they are at most 1: `{ failureRate: 0.1, loseResponseRate: 0.05 }` answers 10%
   * with a 5xx and stores 5% without an answer.
   */
  loseResponseRate?: number;
  /**
   * Seed of the PRNG behind `failureRate`, `loseResponseRate` and latency ranges (a whole number, default 1), so runs
   * repeat exactly.
   */
  seed?: number;
  /** Only requests for which this returns true are affected (default: all). */
  match?: (request: Request) => boolean;
}

/** The standing faults in effect, every default filled in (see {@link FaultController.settings}). */
export interface ActiveFaultSettings {
  /** Added latency in ms, fixed or a `[min, max]` range; 0 when none. */
  latencyMs: number | readonly [min: number, max: number];
  /** Share of requests (0–1) answered with one of `failureStatuses`; 0 when none. */
  failureRate: number;
  /** Statuses a failure draws from. */
  failureStatuses: readonly number[];
  /** Share of requests (0–1) processed, then their connection dropped unanswered; 0 when none. */
  loseResponseRate: number;
  /** Seed of the PRNG behind `failureRate`, `loseResponseRate` and latency ranges. */
  seed: number;
  /** Whether a `match` filter limits them to some requests. */
  filtered: boolean;
}

/** What the server does with one request. */
export interface FaultDecision {
  delayMs: number;
  action: ScriptedFault;
}

// The defaults of FaultSettings, shared by the decision on each request and the settings a banner echoes.
const DEFAULT_FAILURE_STATUSES: readonly number[] = [500, 503];
const DEFAULT_SEED = 1;

const BRAND = Symbol.for('content-platform-sdk.reference-server.dropped');

/** The rejection of a dropped connection: a `TypeError('fetch failed')` like undici's, cause `ECONNRESET`. */
export function droppedConnection(): TypeError {
  const cause = Object.assign(new Error('socket hang up (reference server fault)'), { code: 'ECONNRESET' });
  return Object.assign(new TypeError('fetch failed', { cause }), { [BRAND]: true });
}

/** Whether an error is a dropped connection made by the reference server (the node adapter destroys the socket). */
export function isDroppedConnection(error: unknown): boolean {
  return typeof error === 'object' && error !== null && BRAND in error;
}

const FAILURE_BODIES: Record<number, string> = { 500: 'Server Error', 503: 'Service Unavailable' };

/** The Laravel-style body of an injected failure status. */
export function failureResponse(status: number): Response {
  return json({ message: FAILURE_BODIES[status] ?? 'Server Error' }, status, 'spec');
}

/** mulberry32: a tiny seedable PRNG, good enough for test jitter; the same seed gives the same sequence. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FAULT_KEYS = ['latencyMs', 'failureRate', 'failureStatuses', 'loseResponseRate', 'seed', 'match'];
// The longest delay a timer keeps: Node fires a longer one at once.
const MAX_DELAY_MS = 2_147_483_647;

/**
 * A copy of standing faults once every field is within its {@link FaultSettings} range; `null` or `undefined` is none.
 * `where` starts each message (`faults.set`, or `createReferenceServer: faults`).
 * @throws {InvalidParamsError} naming the first unknown key or the field at fault.
 */
export function checkFaultSettings(settings: FaultSettings | null | undefined, where: string): FaultSettings {
  if (!isGiven(settings, where, 'setting')) return {};
  checkKeys(settings, FAULT_KEYS, where, 'setting');
  const given = present(settings);
  const { latencyMs, failureRate, failureStatuses, loseResponseRate, seed, match } = given;
  if (latencyMs !== undefined) checkLatency(latencyMs, where);
  if (failureRate !== undefined) share(failureRate, where, 'failureRate');
  if (
    failureStatuses !== undefined &&
    (!Array.isArray(failureStatuses) ||
      failureStatuses.length === 0 ||
      !failureStatuses.every((status) => Number.isInteger(status) && status >= 400 && status <= 599))
  )
    throw new InvalidParamsError(
      `${where}: failureStatuses must be a non-empty array of statuses from 400 to 599; got ${Array.isArray(failureStatuses) ? `[${failureStatuses.map(shown).join(', ')}]` : shown(failureStatuses)}.`,
      'failureStatuses',
    );
  if (loseResponseRate !== undefined) {
    share(loseResponseRate, where, 'loseResponseRate');
    // A hair of slack: 0.7 + 0.3 is 1 to a person, whatever the floats make of it.
    if (loseResponseRate > 0 && (failureRate ?? 0) + loseResponseRate > 1 + 1e-9)
      throw new InvalidParamsError(
        `${where}: failureRate + loseResponseRate must be at most 1 (shares of the same requests); got ${failureRate} + ${loseResponseRate}.`,
        'loseResponseRate',
      );
  }
  if (seed !== undefined && !Number.isSafeInteger(seed))
    throw new InvalidParamsError(`${where}: seed must be a whole number; got ${shown(seed)}.`, 'seed');
  if (match !== undefined && typeof match !== 'function')
    throw new InvalidParamsError(`${where}: match must be a function; got ${shown(match)}.`, 'match');
  return given;
}

const SCRIPTED = ['pass', 'reset', 'hang', 'html', 'truncated', 'lose-response'];
/** Statuses whose Response may carry no body: a scripted one is answered without (see `canned`). */
export const NO_BODY: readonly number[] = [204, 205, 304];

/**
 * Checks what `faults.script` is given, before anything is queued: a bad answer would otherwise fail the request it
 * meets (a `TypeError` inside the server), far from the line that scripted it. Returns `match`.
 */
function checkScript(faults: unknown, options: unknown): ((request: Request) => boolean) | undefined {
  const where = 'faults.script';
  if (!Array.isArray(faults))
    throw new InvalidParamsError(
      `${where}: faults must be an array of scripted faults; got ${shown(faults)}.`,
      'faults',
    );
  faults.forEach((fault: unknown, index) => {
    const at = `${where}: fault ${index + 1} of ${faults.length}`;
    if (typeof fault === 'string') {
      if (!SCRIPTED.includes(fault))
        throw new InvalidParamsError(
          `${at} must be ${SCRIPTED.map((name) => `'${name}'`).join(', ')} or { status, body?, headers? }; got ${shown(fault)}.`,
          'faults',
        );
      return;
    }
    if (!isGiven(fault, at, 'field')) throw new InvalidParamsError(`${at} is ${shown(fault)}.`, 'faults');
    checkKeys(fault, ['status', 'body', 'headers'], at, 'field');
    const { status, body, headers } = fault as { status?: unknown; body?: unknown; headers?: unknown };
    if (!Number.isInteger(status) || (status as number) < 200 || (status as number) > 599)
      throw new InvalidParamsError(
        `${at}: status must be a whole number from 200 to 599; got ${shown(status)}.`,
        'status',
      );
    if (body !== undefined && NO_BODY.includes(status as number))
      throw new InvalidParamsError(`${at}: a ${status} answer has no body; leave body out.`, 'body');
    if (headers !== undefined) {
      try {
        new Headers(headers as HeadersInit);
      } catch {
        throw new InvalidParamsError(
          `${at}: headers must be header names to values a Headers can hold.`,
          'headers',
        );
      }
    }
  });
  if (!isGiven(options, where)) return undefined;
  checkKeys(options, ['match'], where);
  const { match } = options as { match?: unknown };
  if (match !== undefined && typeof match !== 'function')
    throw new InvalidParamsError(`${where}: match must be a function; got ${shown(match)}.`, 'match');
  return match as ((request: Request) => boolean) | undefined;
}

function checkLatency(latency: unknown, where: string): void {
  const ms = (value: unknown) => typeof value === 'number' && value >= 0 && value <= MAX_DELAY_MS;
  const fine = Array.isArray(latency)
    ? latency.length === 2 && ms(latency[0]) && ms(latency[1]) && latency[0] <= latency[1]
    : ms(latency);
  if (!fine)
    throw new InvalidParamsError(
      `${where}: latencyMs must be a number of ms from 0 to ${MAX_DELAY_MS}, or a [min, max] range of them; got ${Array.isArray(latency) ? `[${latency.map(shown).join(', ')}]` : shown(latency)}.`,
      'latencyMs',
    );
}

/** Runtime-configurable fault injection of a reference server. */
export class FaultController {
  #settings: FaultSettings = {};
  #random = prng(DEFAULT_SEED);
  #script: { fault: ScriptedFault; match: ((request: Request) => boolean) | undefined }[] = [];

  /**
   * Replaces the standing faults (latency, failure and lose-response rates) and reseeds the PRNG; `null` or
   * `undefined` clears them, as `{}` does.
   * @throws {InvalidParamsError} for an unknown key (naming the nearest, `did you mean failureRate?`) or a value
   * outside its {@link FaultSettings} range (`failureRate` and `loseResponseRate` from 0 to 1 and together at most 1,
   * `latencyMs` 0 to 2147483647 ms or a `[min, max]` of them, `failureStatuses` 400 to 599, a whole `seed`, a
   * function `match`); nothing changes then.
   */
  set(settings: FaultSettings | null | undefined): void {
    const checked = checkFaultSettings(settings, 'faults.set');
    this.#settings = checked;
    this.#random = prng(checked.seed ?? DEFAULT_SEED);
  }

  /**
   * Queues answers for the next matching requests, one each, after any already queued. `null` options are none.
   * @throws {InvalidParamsError} `faults` is not an array of {@link ScriptedFault}s (a canned status from 200 to 599,
   * no body on a 204, 205 or 304, headers a `Headers` could hold), or an option is unknown or `match` is not a
   * function; nothing is queued then.
   */
  script(
    faults: readonly ScriptedFault[],
    options?: { match?: ((request: Request) => boolean) | undefined } | null,
  ): void {
    const match = checkScript(faults, options);
    for (const fault of faults) this.#script.push({ fault, match });
  }

  /** The standing faults in effect, defaults filled in: what a banner or a log can echo. */
  get settings(): ActiveFaultSettings {
    const {
      latencyMs = 0,
      failureRate = 0,
      failureStatuses = DEFAULT_FAILURE_STATUSES,
      loseResponseRate = 0,
      seed = DEFAULT_SEED,
      match,
    } = this.#settings;
    return {
      latencyMs,
      failureRate,
      failureStatuses: [...failureStatuses],
      loseResponseRate,
      seed,
      filtered: match !== undefined,
    };
  }

  /** Removes every standing and scripted fault. */
  clear(): void {
    this.set({});
    this.#script = [];
  }

  /** How many scripted answers are still queued. */
  get pending(): number {
    return this.#script.length;
  }

  /**
   * Decides the fate of one request (consumes a scripted answer when one matches). One draw of the PRNG picks among
   * a failure (below `failureRate`), a lost answer (the next `loseResponseRate`) and a normal answer; with no
   * `loseResponseRate` the draws are the ones it made before that setting existed, so a seed repeats old runs.
   */
  decide(request: Request): FaultDecision {
    const index = this.#script.findIndex((s) => s.match === undefined || s.match(request));
    const scripted = index >= 0 ? this.#script.splice(index, 1)[0]?.fault : undefined;
    const {
      latencyMs = 0,
      failureRate = 0,
      failureStatuses = DEFAULT_FAILURE_STATUSES,
      loseResponseRate = 0,
      match,
    } = this.#settings;
    if (match && !match(request)) return { delayMs: 0, action: scripted ?? 'pass' };
    const delayMs =
      typeof latencyMs === 'number'
        ? latencyMs
        : Math.round(latencyMs[0] + (latencyMs[1] - latencyMs[0]) * this.#random());
    if (scripted !== undefined) return { delayMs, action: scripted };
    if (failureRate > 0 || loseResponseRate > 0) {
      const draw = this.#random();
      if (draw < failureRate) {
        const status = failureStatuses[Math.floor(this.#random() * failureStatuses.length)] ?? 500;
        return { delayMs, action: { status } };
      }
      if (draw < failureRate + loseResponseRate) return { delayMs, action: 'lose-response' };
    }
    return { delayMs, action: 'pass' };
  }
}
