// The `content-platform-sdk/otel` subpath: the SDK's telemetry as OpenTelemetry spans and metrics, through
// `@opentelemetry/api` only (an optional peer, imported from nowhere else), and the configuration that keeps the
// Catalog key out of the fetch instrumentation's spans. Types only from the core: this entry carries no SDK code.

import {
  type Attributes,
  type Context,
  context,
  createNoopMeter,
  type Histogram,
  type Meter,
  type MeterProvider,
  metrics,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapSetter,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type {
  ApiName,
  AttemptEnd,
  AttemptStart,
  AttemptTelemetry,
  OperationEnd,
  OperationEvent,
  OperationStart,
  OperationTelemetry,
  Telemetry,
} from '../core/transport/index.js';
import { VERSION } from '../version.js';

/** The instrumentation scope of every span and metric the SDK makes. */
export const INSTRUMENTATION_NAME = 'content-platform-sdk';

/** The prefix of the SDK's own attributes and metrics. */
export const ATTRIBUTE_PREFIX = 'content_platform';

/** Options of `openTelemetry()`. */
export interface OpenTelemetryOptions {
  /** Where spans go. Default: the global tracer provider (`trace.getTracerProvider()`), read by `openTelemetry()`. */
  tracerProvider?: TracerProvider | undefined;
  /**
   * Where metrics go. Default: the global meter provider (`metrics.getMeterProvider()`), read at the first operation
   * and again while it is the API's no-op one (so one registered after `openTelemetry()` is called counts).
   */
  meterProvider?: MeterProvider | undefined;
  /**
   * Whether each attempt carries the trace context in its headers (`traceparent`, through the registered
   * propagator), so the server's spans join yours. Default `true`.
   */
  propagate?: boolean | undefined;
}

// Attribute names: the stable HTTP client semantic conventions, then the SDK's own.
const METHOD = 'http.request.method';
const STATUS = 'http.response.status_code';
const ERROR_TYPE = 'error.type';
const RESEND = 'http.request.resend_count';
const OPERATION = `${ATTRIBUTE_PREFIX}.operation`;
const API = `${ATTRIBUTE_PREFIX}.api`;
const REQUEST_ID = `${ATTRIBUTE_PREFIX}.request_id`;
const REMAINING = `${ATTRIBUTE_PREFIX}.rate_limit.remaining`;
const STORE = `${ATTRIBUTE_PREFIX}.rate_limit.store`;
const CACHE = `${ATTRIBUTE_PREFIX}.cache.result`;
const WAIT = `${ATTRIBUTE_PREFIX}.throttle.wait_ms`;
const ATTEMPTS = `${ATTRIBUTE_PREFIX}.attempts`;
const MAY_HAVE_SUCCEEDED = `${ATTRIBUTE_PREFIX}.may_have_succeeded`;
const PAGE_LINK = `${ATTRIBUTE_PREFIX}.link`;

// The SDK's errors carry this brand (see the errors room): only they are recorded whole, since only they are
// known to be scrubbed of the key and of purchase codes.
const LINEAGE = Symbol.for('content-platform-sdk.error-lineage.v0');

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

const headerSetter: TextMapSetter<Headers> = {
  set: (carrier, key, value) => carrier.set(key, value),
};

/** The instruments of one meter. */
interface Instruments {
  httpDuration: Histogram;
  operationDuration: Histogram;
  retries: ReturnType<Meter['createCounter']>;
  throttleWait: Histogram;
  cacheLookups: ReturnType<Meter['createCounter']>;
  storeFallback: ReturnType<Meter['createUpDownCounter']>;
}

function instruments(meter: Meter): Instruments {
  return {
    httpDuration: meter.createHistogram('http.client.request.duration', {
      description: 'Duration of HTTP client requests.',
      unit: 's',
      advice: { explicitBucketBoundaries: SECONDS },
    }),
    operationDuration: meter.createHistogram(`${ATTRIBUTE_PREFIX}.operation.duration`, {
      description:
        'Duration of SDK operations (one method call, or one page of a list walk), retries and waits included.',
      unit: 's',
      advice: { explicitBucketBoundaries: SECONDS },
    }),
    retries: meter.createCounter(`${ATTRIBUTE_PREFIX}.retries`, {
      description: 'Retries the SDK sent, by operation and by what failed (error.type).',
      unit: '{retry}',
    }),
    throttleWait: meter.createHistogram(`${ATTRIBUTE_PREFIX}.throttle.wait.duration`, {
      description: "Time calls waited for a turn under the client's rate-limit throttle.",
      unit: 's',
      advice: { explicitBucketBoundaries: SECONDS },
    }),
    cacheLookups: meter.createCounter(`${ATTRIBUTE_PREFIX}.cache.lookups`, {
      description: 'Cached purchase validations, by result (hit, miss, stale).',
      unit: '{lookup}',
    }),
    storeFallback: meter.createUpDownCounter(`${ATTRIBUTE_PREFIX}.rate_limit.store.fallback`, {
      description:
        'Clients of this process whose fleet store (Redis) cannot be reached: each throttles alone until it answers.',
      unit: '{client}',
    }),
  };
}

/**
 * The SDK's telemetry as OpenTelemetry spans and metrics: give it as the `telemetry` option of either client.
 *
 * - One span per operation (`pixels.list`, `purchases.validate`, …; each page of a list walk is one, linked to the
 *   first), with one `CLIENT` span per HTTP attempt under it (the stable HTTP client conventions: method, server,
 *   `url.full` with the key and codes masked, status, `error.type`, resend count). Retries and throttle waits are
 *   events; an error sets the status and is recorded (the SDK's errors hold no key and no whole code).
 * - Metrics: `http.client.request.duration`, `content_platform.operation.duration`, `content_platform.retries`,
 *   `content_platform.throttle.wait.duration`, `content_platform.cache.lookups`,
 *   `content_platform.rate_limit.store.fallback`; low-cardinality attributes only.
 * - The operation is the active context while the call runs (the user's ky hooks see it), and each attempt sends
 *   `traceparent` from the registered propagator.
 *
 * With no OpenTelemetry SDK registered, the API's no-op tracer and meter make this cost next to nothing.
 * @param options `null` or left out: the global providers, with propagation.
 * @throws {TypeError} options that are not an object, an unknown option, a provider without its method, or a
 * `propagate` that is not a boolean (this entry carries none of the SDK's code, its error classes included).
 * @example
 * import { openTelemetry } from 'content-platform-sdk/otel';
 * const mgmt = new ManagementClient({ baseUrl, apiKey, telemetry: openTelemetry() });
 */
export function openTelemetry(options?: OpenTelemetryOptions | null): Telemetry {
  const {
    tracerProvider,
    meterProvider,
    propagate = true,
  } = checked(options, 'openTelemetry', ['tracerProvider', 'meterProvider', 'propagate']);
  if (typeof propagate !== 'boolean')
    throw new TypeError(`openTelemetry(options): propagate must be true or false; got ${typeof propagate}.`);
  for (const [name, value, method] of [
    ['tracerProvider', tracerProvider, 'getTracer'],
    ['meterProvider', meterProvider, 'getMeter'],
  ] as const) {
    if (value !== undefined && typeof (value as unknown as Record<string, unknown>)?.[method] !== 'function')
      throw new TypeError(`openTelemetry(options): ${name} must have a ${method}() method.`);
  }
  const tracer = (tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_NAME, VERSION);
  // The meter is taken when the first operation needs it, and again while it is the API's no-op one (no meter
  // provider registered yet): a provider registered after this call (ESM's hoisted imports make that order easy)
  // still gets the metrics.
  let meter: Meter | undefined;
  let tools: Instruments | undefined;
  let quiet = true;
  const measure = (): Instruments => {
    if (tools === undefined || quiet) {
      const now = (meterProvider ?? metrics.getMeterProvider()).getMeter(INSTRUMENTATION_NAME, VERSION);
      if (now !== meter || tools === undefined) {
        meter = now;
        tools = instruments(now);
        quiet = now === createNoopMeter();
      }
    }
    return tools;
  };
  return {
    operation: (start) => {
      const parent = context.active();
      const first = start.first instanceof Operation ? start.first.span.spanContext() : undefined;
      const span = tracer.startSpan(
        start.name,
        {
          kind: SpanKind.INTERNAL,
          attributes: { [OPERATION]: start.name, [API]: start.api, [METHOD]: start.method },
          links: first ? [{ context: first, attributes: { [PAGE_LINK]: 'first_page' } }] : [],
        },
        parent,
      );
      // Nothing would record it (no SDK registered, no trace to carry on): the operation costs nothing more.
      const measured = measure();
      if (quiet && !span.isRecording() && !trace.isSpanContextValid(span.spanContext())) return undefined;
      return new Operation(span, parent, tracer, measured, start, propagate);
    },
    storeState: (state, api) => measure().storeFallback.add(state === 'fallback' ? 1 : -1, { [API]: api }),
  };
}

/** One operation: its span, and the metrics it records when it ends. */
class Operation implements OperationTelemetry {
  readonly span: Span;
  readonly #context: Context;
  readonly #tools: Instruments;
  readonly #tracer: Tracer;
  readonly #start: OperationStart;
  readonly #propagate: boolean;
  readonly #began = performance.now();
  readonly #base: Attributes;
  #attempts = 0;
  #waited = 0;
  #remaining: number | undefined;

  constructor(
    span: Span,
    parent: Context,
    tracer: Tracer,
    tools: Instruments,
    start: OperationStart,
    propagate: boolean,
  ) {
    this.span = span;
    this.#tracer = tracer;
    this.#tools = tools;
    this.#start = start;
    this.#propagate = propagate;
    this.#base = { [OPERATION]: start.name, [API]: start.api };
    this.#context = trace.setSpan(parent, span);
  }

  run<T>(fn: () => T): T {
    return context.with(this.#context, fn);
  }

  attempt(start: AttemptStart): AttemptTelemetry {
    this.#attempts += 1;
    return new Attempt(this, this.#tracer, this.#context, this.#start, start, this.#propagate);
  }

  /** An attempt ended: its duration into `http.client.request.duration`, its budget onto the operation. */
  attempted(seconds: number, attributes: Attributes, remaining: number | undefined): void {
    this.#tools.httpDuration.record(seconds, attributes);
    if (remaining !== undefined) this.#remaining = remaining;
  }

  event(event: OperationEvent): void {
    const { api } = this.#start;
    if (event.type === 'retry') {
      const reason = event.status === undefined ? (event.errorName ?? 'unknown') : String(event.status);
      this.span.addEvent('retry', {
        [`${ATTRIBUTE_PREFIX}.retry`]: event.retry,
        [`${ATTRIBUTE_PREFIX}.retry.wait_ms`]: Math.round(event.waitMs),
        [ERROR_TYPE]: reason,
      });
      this.#tools.retries.add(1, { ...this.#base, [ERROR_TYPE]: reason });
    } else {
      this.#waited += event.waitMs;
      this.span.addEvent('throttle.wait', {
        [WAIT]: Math.round(event.waitMs),
        [`${ATTRIBUTE_PREFIX}.throttle.retry`]: event.retry,
      });
      this.#tools.throttleWait.record(event.waitMs / 1_000, {
        [API]: api,
        [`${ATTRIBUTE_PREFIX}.throttle.retry`]: event.retry,
      });
    }
  }

  end(end: OperationEnd): void {
    const { span } = this;
    const attributes: Attributes = { [ATTEMPTS]: this.#attempts };
    if (end.requestId !== undefined) attributes[REQUEST_ID] = end.requestId;
    if (end.store !== undefined) attributes[STORE] = end.store;
    if (this.#waited > 0) attributes[WAIT] = Math.round(this.#waited);
    const remaining = this.#remaining ?? headerNumber(end.response, 'x-ratelimit-remaining');
    if (remaining !== undefined) attributes[REMAINING] = remaining;
    if (end.cache !== undefined) {
      attributes[CACHE] = end.cache;
      if (end.cache === 'stale') span.addEvent('cache.stale');
      this.#tools.cacheLookups.add(1, { [API]: this.#start.api, [CACHE]: end.cache });
    }
    const metric: Attributes = { ...this.#base };
    if (end.error !== undefined) {
      const type = errorType(end.error);
      attributes[ERROR_TYPE] = type;
      metric[ERROR_TYPE] = type;
      const mayHave = (end.error as { mayHaveSucceeded?: unknown }).mayHaveSucceeded;
      if (typeof mayHave === 'boolean') attributes[MAY_HAVE_SUCCEEDED] = mayHave;
      const status = (end.error as { status?: unknown }).status;
      if (typeof status === 'number') attributes[STATUS] = status;
      if (isSdkError(end.error)) {
        // As the class it is (an error's own `code` would otherwise name the exception).
        const { name, message, stack } = end.error;
        span.recordException(stack === undefined ? { name, message } : { name, message, stack });
        span.setStatus({ code: SpanStatusCode.ERROR, message: end.error.message });
      } else span.setStatus({ code: SpanStatusCode.ERROR });
    } else if (end.response) attributes[STATUS] = end.response.status;
    span.setAttributes(attributes);
    span.end();
    this.#tools.operationDuration.record((performance.now() - this.#began) / 1_000, metric);
  }
}

/** One HTTP attempt: a `CLIENT` span under its operation, and its point of `http.client.request.duration`. */
class Attempt implements AttemptTelemetry {
  readonly #op: Operation;
  readonly #span: Span;
  readonly #context: Context;
  readonly #began = performance.now();
  readonly #metric: Attributes;

  constructor(
    op: Operation,
    tracer: Tracer,
    parent: Context,
    operation: OperationStart,
    start: AttemptStart,
    propagate: boolean,
  ) {
    this.#op = op;
    const url = safeUrl(start.url);
    const server: Attributes = {};
    if (url) {
      server['server.address'] = url.hostname;
      server['server.port'] = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    }
    this.#metric = { [METHOD]: operation.method, ...server };
    const attributes: Attributes = {
      ...this.#metric,
      'url.full': start.url,
      [OPERATION]: operation.name,
    };
    if (start.number > 1) attributes[RESEND] = start.number - 1;
    this.#span = tracer.startSpan(operation.method, { kind: SpanKind.CLIENT, attributes }, parent);
    this.#context = trace.setSpan(parent, this.#span);
    // With the fetch instrumentation configured here, it propagates (the attempt's context is its parent): a second
    // `traceparent` would make the header invalid.
    if (propagate && flags[UNDICI_PROPAGATES] !== true)
      propagation.inject(this.#context, start.request.headers, headerSetter);
  }

  run<T>(fn: () => T): T {
    return context.with(this.#context, fn);
  }

  end(end: AttemptEnd): void {
    const span = this.#span;
    const metric: Attributes = { ...this.#metric };
    const remaining = headerNumber(end.response, 'x-ratelimit-remaining');
    if (end.response) {
      const { status } = end.response;
      metric[STATUS] = status;
      span.setAttribute(STATUS, status);
      if (status >= 400) {
        metric[ERROR_TYPE] = String(status);
        span.setAttribute(ERROR_TYPE, String(status));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      if (end.requestId !== undefined) span.setAttribute(REQUEST_ID, end.requestId);
      if (remaining !== undefined) span.setAttribute(REMAINING, remaining);
    } else {
      // The SDK's timeout aborts the fetch: the fetch throws an AbortError, but the attempt timed out.
      const type = end.errorName === 'APIConnectionTimeoutError' ? 'TimeoutError' : thrownType(end.error);
      metric[ERROR_TYPE] = type;
      span.setAttribute(ERROR_TYPE, type);
      // A caller's abort is no failure of the request (the HTTP conventions leave the status unset).
      if (type !== 'AbortError') span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
    this.#op.attempted((performance.now() - this.#began) / 1_000, metric, remaining);
  }
}

/** What an operation failed with, as `error.type`: the SDK error's class name, else `_OTHER`. */
function errorType(error: unknown): string {
  if (isSdkError(error)) return error.name;
  return '_OTHER';
}

/**
 * What a fetch threw, as `error.type`: the system error's code when there is one (`ECONNREFUSED`), else the
 * error's name (`TimeoutError`, `AbortError`). Never its message, which may quote the URL.
 */
function thrownType(error: unknown): string {
  const { name, cause } = (error ?? {}) as { name?: unknown; cause?: { code?: unknown } };
  const code = cause?.code;
  if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code)) return code;
  return typeof name === 'string' && /^\w{1,60}$/.test(name) ? name : '_OTHER';
}

function isSdkError(error: unknown): error is Error {
  return error instanceof Error && LINEAGE in error;
}

function headerNumber(response: Response | undefined, name: string): number | undefined {
  const value = response?.headers.get(name);
  if (value == null || !/^\d{1,9}$/.test(value.trim())) return undefined;
  return Number(value);
}

function safeUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * A URL with its `api_key` parameter (any case) shown as `***`: what the SDK's own spans show. The same rule as the
 * core's `redactUrl`, written here on purpose: importing that one into this entry splits the chunk the main entry
 * loads it from, which costs the main entry 0.1 kB its budget does not have.
 */
export function redactedUrl(url: string): string {
  return url.replace(/([?&]api_key=)[^&#]*/gi, '$1***');
}

// Set once `undiciInstrumentationConfig()` has been called: the fetch instrumentation then sends the trace context of
// each request (a child of the SDK's attempt span), and the SDK's attempts leave `traceparent` to it.
// On `globalThis` (under a registered symbol), not in this module: the ESM and CommonJS builds each have a copy of
// it, and a config built by one (a `--require` preload) must reach the other's clients.
const UNDICI_PROPAGATES = Symbol.for('content-platform-sdk.otel.undiciPropagates');
const flags = globalThis as { [UNDICI_PROPAGATES]?: boolean };

/** The request of `@opentelemetry/instrumentation-undici`'s hooks, as far as these read it. */
export interface UndiciRequestLike {
  /** `http://127.0.0.1:8787`. */
  origin: string;
  /** The path and query: `/api/items/all?api_key=…`. */
  path: string;
}

/** Options of `undiciInstrumentationConfig()`: a `startSpanHook` of your own runs first, then the redaction. */
export interface UndiciRedactionOptions {
  /** Your own attributes for each span the instrumentation starts (its `startSpanHook`); the redaction runs after. */
  startSpanHook?: ((request: UndiciRequestLike) => Attributes | undefined) | undefined;
}

/** What `undiciInstrumentationConfig()` gives: options of `new UndiciInstrumentation(…)`. */
export interface UndiciRedactionConfig {
  /** The attributes each span starts with: yours, then `url.full` and `url.query` with `api_key=***`. */
  startSpanHook: (request: UndiciRequestLike) => Attributes;
}

/**
 * The configuration of `@opentelemetry/instrumentation-undici` (Node's `fetch`; part of
 * `auto-instrumentations-node`) that keeps the Catalog key out of its spans and metrics: every span starts with
 * `url.full` and `url.query` showing `api_key=***`. The Catalog server reads the key from the query of a GET, so
 * without this the instrumentation exports it with every `account.details()` and `items.list()`. Once it is called,
 * `openTelemetry()`'s attempts leave `traceparent` to the instrumentation (its span is a child of the attempt's), so
 * each request carries one.
 * @example
 * import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
 * import { undiciInstrumentationConfig } from 'content-platform-sdk/otel';
 * registerInstrumentations({ instrumentations: [new UndiciInstrumentation(undiciInstrumentationConfig())] });
 * @throws {TypeError} options that are not an object, an unknown option, or a `startSpanHook` that is not a function.
 */
export function undiciInstrumentationConfig(options?: UndiciRedactionOptions | null): UndiciRedactionConfig {
  const own = checked(options, 'undiciInstrumentationConfig', ['startSpanHook']).startSpanHook;
  if (own !== undefined && typeof own !== 'function')
    throw new TypeError(
      `undiciInstrumentationConfig(options): startSpanHook must be a function; got ${typeof own}.`,
    );
  flags[UNDICI_PROPAGATES] = true;
  return {
    startSpanHook: (request) => {
      let attributes: Attributes = {};
      try {
        attributes = { ...(own?.(request) ?? {}) };
      } catch {
        // A hook of yours that throws loses its attributes, never the redaction (the instrumentation would swallow
        // the error, and start the span with the key in its URL).
      }
      const url = safeUrl(`${request.origin}${request.path}`);
      if (url && /[?&]api_key=/i.test(url.search)) {
        attributes['url.full'] = redactedUrl(url.href);
        attributes['url.query'] = redactedUrl(url.search);
      }
      return attributes;
    },
  };
}

/**
 * `options` as an object (`null` or `undefined`: none), every key one of `known`: a typo (`propogate`) would
 * otherwise leave its default in place without a word.
 * @throws {TypeError} naming `where` and the first unknown key, or what `options` is when it is not an object.
 */
function checked<T extends object>(
  options: T | null | undefined,
  where: string,
  known: readonly string[],
): T {
  if (options == null) return {} as T;
  if (typeof options !== 'object' || Array.isArray(options))
    throw new TypeError(
      `${where}(options): options must be an object { ${known.map((key) => `${key}?`).join(', ')} }; got ${Array.isArray(options) ? 'an array' : typeof options}.`,
    );
  const unknown = Object.keys(options).find((key) => !known.includes(key));
  if (unknown !== undefined) {
    // A name is shown only when it looks like one: a pasted value could be a secret.
    const shown = /^[\w$-]{1,40}$/.test(unknown) ? JSON.stringify(unknown) : '(name not shown)';
    throw new TypeError(`${where}(options): unknown option ${shown}; the options are ${known.join(', ')}.`);
  }
  return options;
}

export type { ApiName, Telemetry };
