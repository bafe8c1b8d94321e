import { json } from './json.js';

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
  /** Added latency in ms: a fixed value or a `[min, max]` range drawn from the seeded PRNG. */
  latencyMs?: number | readonly [min: number, max: number];
  /** Probability (0–1) that a request is answered with one of `failureStatuses` instead. */
  failureRate?: number;
  /** Statuses a failure draws from; default `[500, 503]`. */
  failureStatuses?: readonly number[];
  /** Seed of the PRNG behind `failureRate` and latency ranges (default 1), so runs repeat exactly. */
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
  /** Seed of the PRNG behind `failureRate` and latency ranges. */
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

/** Runtime-configurable fault injection of a reference server. */
export class FaultController {
  #settings: FaultSettings = {};
  #random = prng(DEFAULT_SEED);
  #script: { fault: ScriptedFault; match: ((request: Request) => boolean) | undefined }[] = [];

  /** Replaces the standing faults (latency, failure rate) and reseeds the PRNG. */
  set(settings: FaultSettings): void {
    this.#settings = { ...settings };
    this.#random = prng(settings.seed ?? DEFAULT_SEED);
  }

  /** Queues answers for the next matching requests, one each, after any already queued. */
  script(faults: readonly ScriptedFault[], options: { match?: (request: Request) => boolean } = {}): void {
    for (const fault of faults) this.#script.push({ fault, match: options.match });
  }

  /** The standing faults in effect, defaults filled in: what a banner or a log can echo. */
  get settings(): ActiveFaultSettings {
    const {
      latencyMs = 0,
      failureRate = 0,
      failureStatuses = DEFAULT_FAILURE_STATUSES,
      seed = DEFAULT_SEED,
      match,
    } = this.#settings;
    return {
      latencyMs,
      failureRate,
      failureStatuses: [...failureStatuses],
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

  /** Decides the fate of one request (consumes a scripted answer when one matches). */
  decide(request: Request): FaultDecision {
    const index = this.#script.findIndex((s) => s.match === undefined || s.match(request));
    const scripted = index >= 0 ? this.#script.splice(index, 1)[0]?.fault : undefined;
    const {
      latencyMs = 0,
      failureRate = 0,
      failureStatuses = DEFAULT_FAILURE_STATUSES,
      match,
    } = this.#settings;
    if (match && !match(request)) return { delayMs: 0, action: scripted ?? 'pass' };
    const delayMs =
      typeof latencyMs === 'number'
        ? latencyMs
        : Math.round(latencyMs[0] + (latencyMs[1] - latencyMs[0]) * this.#random());
    if (scripted !== undefined) return { delayMs, action: scripted };
    if (failureRate > 0 && this.#random() < failureRate) {
      const status = failureStatuses[Math.floor(this.#random() * failureStatuses.length)] ?? 500;
      return { delayMs, action: { status } };
    }
    return { delayMs, action: 'pass' };
  }
}
