import ky, {
  isForceRetryError,
  isHTTPError,
  isNetworkError,
  isTimeoutError,
  type KyInstance,
  type Options as KyOptions,
  replaceOption,
} from 'ky';
import type { $ZodType as ZodType } from 'zod/v4/core';
import {
  type ClientFacts,
  ContentPlatformError,
  NotFoundError,
  ownError,
  scrubber,
} from '../errors/index.js';
import { type ClientThrottle, type RateLimitSnapshot, Throttle } from '../throttle/index.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import { attemptFetch, carryBody, logLines, TRACE } from './attempt.js';
import { failureOf, type TransportError } from './failure.js';
import { clientInstance } from './instance.js';
import { createLog, type Log } from './log.js';
import {
  byteCount,
  checkSent,
  extraHeaders,
  positive,
  type RequestOptions,
  type ResolvedOptions,
  retryAfterCap,
  retryCount,
} from './options.js';
import { explained, Misfit, parseAnswer } from './parse.js';
import {
  type ClientRetry,
  KY_RETRY_LIMIT,
  RETRY_METHODS,
  type RetryPolicy,
  redactError,
  retryPolicy,
} from './policy.js';
import { abortable, readText } from './read-fetch.js';
import { type ApiConfig, type Body, type Call, type Outgoing, outgoing, type Query } from './request.js';
import type { Method } from './retry.js';
import type { Parsers, ResponseSchema, SchemaRef } from './schema.js';
import type { OperationTelemetry } from './telemetry.js';
import { type CallClient, clientFacts, queues, Trace, type TraceInit } from './trace.js';

/**
 * The only door to the network: one ky instance per client, with the SDK's policy (retry rules, the attempt fetch,
 * the retry's turn) built into it once; a call passes ky only what is its own. Every failure is mapped, every body
 * validated.
 */
export class HttpClient {
  readonly #ky: KyInstance;
  readonly #options: ResolvedOptions;
  readonly #api: ApiConfig;
  readonly #client: CallClient;
  readonly #retry: ClientRetry;
  // Whether ky will clone answers (an afterResponse hook or a progress callback of the instance or client).
  readonly #rebuild: boolean;
  // Whether a call's body may go to the platform's fetch with each attempt, not into ky's Request (`carryBody`).
  readonly #carries: boolean;
  // Whether the server has answered the key with a success: shared with derived clients of the same key and URL.
  readonly #accepted: { key: boolean };
  // The API's schemas with their generated parsers, once loaded.
  #parsers: Parsers | undefined;
  // The TraceInit of every call without options (see `#trace`).
  #plainInit: TraceInit | undefined;

  /** `parent`: the client this one derives from (`withOptions`); same key, URL and `rateLimit` share its throttle. */
  constructor(options: ResolvedOptions, api: ApiConfig, parent?: HttpClient) {
    this.#options = options;
    this.#api = api;
    const shared = parent && sharesThrottle(parent.#options, options) ? parent.#client.throttle : undefined;
    const scrub = scrubber(options.apiKey);
    const log = createLog(options.logger, options.logLevel, scrub);
    const throttle = shared ?? clientThrottle(options, log, api);
    const sameKey =
      parent && parent.#options.apiKey === options.apiKey && parent.#options.apiRoot === options.apiRoot;
    this.#accepted = sameKey ? parent.#accepted : { key: false };
    const facts = clientFacts(options.setup, scrub, this.#accepted);
    this.#client = {
      root: `${options.apiRoot}/`,
      scrub,
      log,
      throttle,
      maxPauseMs: options.maxRetryAfter,
      facts,
      telemetry: options.telemetry,
    };
    const idempotent = api.retryMethods as readonly string[];
    const classify = (error: Error) => failureOf(error, transportError(error));
    this.#retry = retryPolicy({
      idempotent,
      maxRetryAfter: options.maxRetryAfter,
      classify,
      log,
      scrub,
    });
    const built = clientInstance(options.ky ?? ky, options, api, {
      // A retry waits for its turn after the client's other beforeRetry hooks, outside the attempt's `timeout`.
      beforeRetry: throttle.enabled ? ({ options: o }) => turnOf(o)?.wait(true) : undefined,
      // Before any user's beforeError hook: ky's error shows the key no more than ours do.
      beforeError: ({ error, options: o }) => {
        redactError(error, (o as { [TRACE]?: Trace })[TRACE]?.scrub ?? scrub);
        return error;
      },
      // The global fetch is looked up per attempt, so one replaced after construction (msw) is used.
      fetch: (send) =>
        send
          ? attemptFetch(send, log, false)
          : attemptFetch((request, init) => globalThis.fetch(request, init), log, true),
    });
    this.#ky = built.ky;
    this.#rebuild = built.rebuild;
    this.#carries = built.carries;
    // Loaded while the first request is on its way, so its answer finds them there; a failed load is the call's.
    api.parsers().catch(() => undefined);
  }

  /** GET `path` (relative to the API root), with an optional query; resolves to the body parsed by `schema`. */
  get<T>(path: string, schema: ResponseSchema<T>, options?: RequestOptions, query?: Query): APIPromise<T> {
    return this.request('GET', path, schema, { options, query });
  }

  /** POST `body` (form or JSON, per API) to `path`. */
  post<T>(path: string, schema: ResponseSchema<T>, body: Body, options?: RequestOptions): APIPromise<T> {
    return this.request('POST', path, schema, { options, body });
  }

  /** Sends one request and resolves to the body parsed by `schema`. */
  request<T>(method: Method, path: string, schema: ResponseSchema<T>, call: Call<T> = {}): APIPromise<T> {
    // A JavaScript caller's `null` options are none, as a client's are (`call` is built for this request).
    call.options ??= undefined;
    return new APIPromise(this.#call(method, path, schema, call));
  }

  /**
   * Starts an operation its caller ends (a cached validation, answered by the cache or by a request made `within`
   * it): `undefined` without `telemetry`.
   */
  operation(name: string, method: Method, path: string): OperationTelemetry | undefined {
    const { telemetry, facts } = this.#client;
    return telemetry?.operation({ name, api: this.#api.name, method, url: `${facts.apiRoot}/${path}` });
  }

  async #call<T>(
    method: Method,
    path: string,
    schema: ResponseSchema<T>,
    call: Call<T>,
  ): Promise<WithResponse<T>> {
    // Bad input throws here, before anything is sent (attempts: 0).
    const out = outgoing(path, call, this.#api, this.#options.apiKey);
    const trace = this.#trace(method, out.input, call);
    const { telemetry } = this.#client;
    const send = () => this.#send(trace, out, path, schema, call);
    if (call.within) trace.op = call.within;
    // With telemetry the call is an operation: that code is loaded the first time a client has it.
    else if (telemetry) {
      // Once loaded, called at once: no await per call.
      observing ??= import('./observed.js').then((loaded) => loaded.observed);
      observed ??= await observing;
      return observed(telemetry, trace, this.#api.name, call.walk, this.#client.throttle, send);
    }
    return send();
  }

  async #send<T>(
    trace: Trace,
    { input, body, json }: Outgoing,
    path: string,
    schema: ResponseSchema<T>,
    call: Call<T>,
  ): Promise<WithResponse<T>> {
    const { method } = trace;
    const kyOptions = this.#callOptions(trace, call.options);
    // Where no hook or fetch of the user's sees ky's Request, the body skips it: ky clones a body for every attempt.
    if (this.#carries && !call.options?.hooks && (json !== undefined || body !== undefined))
      carryBody(trace, json === undefined ? (body as URLSearchParams) : JSON.stringify(json));
    else if (json !== undefined) kyOptions.json = json;
    // Set whole: ky would merge it, as an object, into a `body` key the instance left (see `clientInstance`).
    else if (body !== undefined) kyOptions.body = replaceOption(body);
    let response: Response;
    let text: string;
    // The caller's signal ends the call even while a hook of theirs never settles (ky races hooks only with
    // totalTimeout); the turn it holds goes back in `finally`.
    const { signal } = trace.init;
    try {
      // A signal aborted already sends nothing: ky would still build and send the first attempt.
      signal?.throwIfAborted();
      // The first attempt's turn: time in the queue counts against totalTimeout, not against `timeout`.
      const turn = trace.wait(false);
      if (turn) {
        await turn;
        const left = trace.timeLeft();
        if (left !== undefined) kyOptions.totalTimeout = Math.max(1, left);
      }
      // The absolute URL: ky joins no prefix (see `clientInstance`).
      const sent = this.#ky(this.#client.root + input, kyOptions);
      const answered: Response | undefined = await (signal ? abortable(sent, signal) : sent);
      // A beforeRetry hook returned ky.stop: the call ends with the failure it stopped the retry of.
      if (answered === undefined) throw trace.lastError ?? stopped(trace.label);
      response = answered;
      // A hook may hand ky a Response of its own, which the attempt fetch did not read.
      text = readText(response) ?? (await response.text());
    } catch (error) {
      const create = !this.#idempotent(method);
      // The mapping of failures is loaded by the first call that fails.
      mapping ??= import('./call-failure.js');
      const { callFailure } = await mapping;
      const failure = callFailure(error, transportError(error), {
        trace,
        path,
        readError: this.#api.readError,
        create,
      });
      // A DELETE whose earlier attempt got no answer, and whose retry finds nothing: the first one deleted it.
      if (call.gone && trace.lost && failure instanceof NotFoundError && trace.answer)
        return { data: call.gone(), response: trace.answer };
      throw failed(trace, failure);
    } finally {
      // A turn no request used (a hook answered, or the deadline passed before sending) goes back.
      trace.end();
      // A fleet's turns are back in its store before the call settles: a process may exit right after it.
      const handing = trace.settled();
      if (handing) await handing;
    }
    // No Content has nothing to parse: the receipt is the one the DELETE would have sent.
    if (call.gone && response.status === 204) return { data: call.gone(), response };
    const parser = (
      '_zod' in schema ? schema : (this.#parsers?.get(schema.schema) ?? (await this.#load(schema)))
    ) as ZodType<T>;
    try {
      const data = parseAnswer({ response, text, trace, path }, parser, this.#api.readError, call.records);
      // A refusal whose words load on demand comes as a promise; an answer accepted, as nothing to wait for.
      const refused = call.accept?.(data, trace, response);
      if (refused) await refused;
      // A success proves the key: a Catalog server answers a wrong one with "no items" and the like.
      this.#accepted.key = true;
      return { data, response };
    } catch (error) {
      // Only SDK code runs here: anything but our own error is a body it failed to read.
      const own = error instanceof Misfit ? await explained(error) : error;
      throw failed(trace, ownError(own, trace.label, response.status, trace.scrub));
    }
  }

  /** The schema `ref` names, from the API's parsers chunk (loaded by the first call that needs it). */
  async #load<T>(ref: SchemaRef<T>): Promise<ZodType<T>> {
    this.#parsers = await this.#api.parsers();
    const schema = this.#parsers.get(ref.schema);
    if (schema === undefined)
      throw new TypeError(`no response schema ${ref.schema} in the ${this.#api.name} parsers`);
    return schema as ZodType<T>;
  }

  /** The client's log: gated by its level, every line and field scrubbed. */
  get log(): Log {
    return this.#client.log;
  }

  /** Where the client's key and URL came from, and whether the server has accepted the key. */
  get facts(): ClientFacts {
    return this.#client.facts;
  }

  /** What the client's throttle knows now (queue, in flight, the server's budget). */
  get rateLimit(): RateLimitSnapshot {
    return this.#client.throttle.snapshot();
  }

  /** The call's trace; a bad per-call option throws here, before anything is sent. */
  #trace<T>(method: Method, input: string, call: Call<T>): Trace {
    const { options } = call;
    const init = options === undefined ? this.#plain() : this.#traceInit(options);
    return new Trace(this.#client, method, input, call.secrets, init, call.op);
  }

  /** A call without options runs with the client's settings: one TraceInit for all of them, built once. */
  #plain(): TraceInit {
    this.#plainInit ??= this.#traceInit({});
    return this.#plainInit;
  }

  /** What a call with these options is, beyond its method and input; a bad option throws here. */
  #traceInit(options: RequestOptions): TraceInit {
    const { maxResponseBytes, maxRetries, maxRetryAfter, totalTimeout, signal } = options;
    checkSent(options);
    return {
      signal,
      total: totalTimeout ?? this.#options.totalTimeout,
      queues: this.#client.throttle.enabled && queues(options.rateLimit),
      // A call's own afterResponse hook clones each answer, so it needs one with a body (see readAttempt).
      rebuild: this.#rebuild || Boolean(options.hooks?.afterResponse?.length),
      maxBytes:
        maxResponseBytes === undefined
          ? this.#options.maxResponseBytes
          : byteCount(maxResponseBytes, 'maxResponseBytes'),
      limit: maxRetries === undefined ? this.#options.maxRetries : retryCount(maxRetries, 'maxRetries'),
      maxPauseMs: maxRetryAfter === undefined ? this.#options.maxRetryAfter : retryAfterCap(maxRetryAfter),
    };
  }

  /** Only what differs from the client's instance: ky merges every option a call passes, on every call. */
  #callOptions(trace: Trace, options: RequestOptions = {}): KyOptions {
    // The client's rules, with the call's trace for `jitter` and its own limit. Only what differs from ky's defaults:
    // ky copies the object's keys (and `methods`) twice a call, and every key a call passes once more in its merge.
    const rules = this.#retry;
    const policy: RetryPolicy = {
      jitter: (delay) => rules.wait(trace, delay),
      shouldRetry: rules.shouldRetry,
    };
    if (trace.init.limit !== KY_RETRY_LIMIT) policy.limit = trace.init.limit;
    if (trace.method === 'POST' || trace.method === 'PATCH') policy.methods = RETRY_METHODS as string[];
    // The instance has no `retry` or `method` for these to meet in ky's merge (see `clientInstance`).
    const kyOptions: KyOptions & { [TRACE]: Trace } = { retry: policy, [TRACE]: trace };
    // ky sends GET when no method is given.
    if (trace.method !== 'GET') kyOptions.method = trace.method;
    if (options.signal) kyOptions.signal = options.signal;
    if (options.headers != null) kyOptions.headers = extraHeaders(options.headers, 'headers');
    if (options.hooks) {
      kyOptions.hooks = options.hooks;
      // The call's own beforeRetry hooks run after the client's turn hook: this call takes its turn after them.
      if (options.hooks.beforeRetry?.length && trace.init.queues) {
        trace.ownRetryHook = true;
        kyOptions.hooks = {
          ...options.hooks,
          beforeRetry: [...options.hooks.beforeRetry, () => trace.wait(true)],
        };
      }
    }
    if (options.timeout !== undefined) kyOptions.timeout = positive(options.timeout, 'timeout');
    if (options.totalTimeout !== undefined)
      kyOptions.totalTimeout = positive(options.totalTimeout, 'totalTimeout');
    return kyOptions;
  }

  #idempotent(method: string): boolean {
    return (this.#api.retryMethods as readonly string[]).includes(method.toLowerCase());
  }
}

/** The call's error, stamped (see `Trace.finished`), and its line written at debug level. */
function failed(trace: Trace, error: unknown): unknown {
  const failure = trace.finished(error);
  if (failure instanceof ContentPlatformError && trace.client.log.enabled('debug'))
    void logLines().then((lines) => lines.failed(trace, failure));
  return failure;
}

/** The trace a retry's turn hook is for, unless the call takes its turn in a hook of its own. */
function turnOf(options: object): Trace | undefined {
  const trace = (options as { [TRACE]?: Trace })[TRACE];
  return trace?.ownRetryHook ? undefined : trace;
}

let mapping: Promise<typeof import('./call-failure.js')> | undefined;
let observing: Promise<typeof import('./observed.js').observed> | undefined;
let observed: typeof import('./observed.js').observed | undefined;

// A turn's lease in a fleet store outlives the attempt's timeout by this much (a dead process's turns come back).
const LEASE_MARGIN_MS = 1_000;

/** The client's own throttle, or, with a `rateLimit.store`, the one the store shares across the fleet. */
function clientThrottle(options: ResolvedOptions, log: Log, api: ApiConfig): ClientThrottle {
  const caps = options.rateLimit;
  if (caps === false || caps.store === undefined) return new Throttle(caps);
  const telemetry = options.telemetry;
  return caps.store.throttle({
    apiRoot: options.apiRoot,
    apiKey: options.apiKey,
    maxConcurrent: caps.maxConcurrent,
    requestsPerMinute: caps.requestsPerMinute,
    leaseMs: options.timeout + LEASE_MARGIN_MS,
    log,
    state: telemetry?.storeState && ((state) => telemetry.storeState?.(state, api.name)),
  });
}

/** Whether a derived client shares its parent's throttle: the same key, the same server, the same caps. */
function sharesThrottle(parent: ResolvedOptions, child: ResolvedOptions): boolean {
  const [a, b] = [parent.rateLimit, child.rateLimit];
  return (
    parent.apiKey === child.apiKey &&
    parent.apiRoot === child.apiRoot &&
    (a === false || b === false
      ? a === b
      : a.maxConcurrent === b.maxConcurrent &&
        a.requestsPerMinute === b.requestsPerMinute &&
        a.store === b.store)
  );
}

/** ky's error classes in the SDK's terms: this is the one module that knows them. */
function transportError(error: unknown): TransportError {
  if (isHTTPError(error)) return { kind: 'http', response: error.response, data: error.data };
  if (isTimeoutError(error)) return { kind: 'timeout' };
  if (isNetworkError(error)) return { kind: 'network', cause: error.cause };
  if (isForceRetryError(error)) return { kind: 'forced' };
  return { kind: 'other' };
}

/** The error of a call a `beforeRetry` hook stopped (`ky.stop`) before any attempt failed in a way the SDK saw. */
function stopped(label: string): ContentPlatformError {
  return new ContentPlatformError(
    `${label}: a beforeRetry hook stopped the call (ky.stop) without an answer to end it with.`,
  );
}
