import ky, {
  isHTTPError,
  isNetworkError,
  isTimeoutError,
  type KyInstance,
  type Options as KyOptions,
  replaceOption,
} from 'ky';
import type { $ZodType as ZodType } from 'zod/v4/core';
import { NotFoundError, ownError, redactUrl, type Scrub, scrubber, withCodes } from '../errors/index.js';
import { type RateLimitSnapshot, Throttle } from '../throttle/index.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import { finished } from './call-end.js';
import { callFetch, callRetry } from './call-policy.js';
import { callFailure, type FailureContext, failureOf, type TransportError } from './failure.js';
import { clientInstance } from './instance.js';
import { createLog, type Log } from './log.js';
import { extraHeaders, positive, type RequestOptions, type ResolvedOptions, retryCount } from './options.js';
import { parseAnswer } from './parse.js';
import { readText, type Send } from './read-fetch.js';
import { type ApiConfig, type Body, type Call, outgoing, type Query } from './request.js';
import type { Method, RetryPolicy } from './retry.js';
import { Trace } from './trace.js';
import { CallTurns, queues, sharesThrottle } from './turns.js';

/** The only door to the network: one ky instance per client, every failure mapped, every body validated. */
export class HttpClient {
  readonly #ky: KyInstance;
  readonly #options: ResolvedOptions;
  readonly #api: ApiConfig;
  readonly #log: Log;
  readonly #scrub: Scrub;
  readonly #root: string;
  readonly #throttle: Throttle;
  readonly #send: Send;
  // Whether ky will clone answers (an afterResponse hook or a progress callback of the instance or client).
  readonly #rebuild: boolean;

  /** `parent`: the client this one derives from (`withOptions`); same key, URL and `rateLimit` share its throttle. */
  constructor(options: ResolvedOptions, api: ApiConfig, parent?: HttpClient) {
    this.#options = options;
    this.#api = api;
    const shared = parent && sharesThrottle(parent.#options, options) ? parent.#throttle : undefined;
    this.#throttle = shared ?? new Throttle(options.rateLimit);
    this.#scrub = scrubber(options.apiKey);
    this.#log = createLog(options.logger, options.logLevel, this.#scrub);
    this.#root = `${options.apiRoot}/`;
    const built = clientInstance(options.ky ?? ky, options, api);
    this.#ky = built.ky;
    // The global fetch is looked up per attempt, so one replaced after construction (msw) is used.
    this.#send = built.send ?? ((request, init) => globalThis.fetch(request, init));
    this.#rebuild = built.rebuild;
  }

  /** GET `path` (relative to the API root), with an optional query; resolves to the body parsed by `schema`. */
  get<T>(path: string, schema: ZodType<T>, options?: RequestOptions, query?: Query): APIPromise<T> {
    return this.request('GET', path, schema, { options, query });
  }

  /** POST `body` (form or JSON, per API) to `path`. */
  post<T>(path: string, schema: ZodType<T>, body: Body, options?: RequestOptions): APIPromise<T> {
    return this.request('POST', path, schema, { options, body });
  }

  /** PUT `body` to `path`. */
  put<T>(path: string, schema: ZodType<T>, body: Body, options?: RequestOptions): APIPromise<T> {
    return this.request('PUT', path, schema, { options, body });
  }

  /** DELETE `path`; `gone` is the result when the server sends none (a 204, or a retry finds it already gone). */
  delete<T>(path: string, schema: ZodType<T>, options?: RequestOptions, gone?: () => T): APIPromise<T> {
    return this.request('DELETE', path, schema, { options, gone });
  }

  /** Sends one request and resolves to the body parsed by `schema`. */
  request<T>(method: Method, path: string, schema: ZodType<T>, call: Call<T> = {}): APIPromise<T> {
    return new APIPromise(this.#call(method, path, schema, call));
  }

  async #call<T>(method: Method, path: string, schema: ZodType<T>, call: Call<T>): Promise<WithResponse<T>> {
    const options = call.options ?? {};
    const scrub = call.secrets ? withCodes(this.#scrub, call.secrets) : this.#scrub;
    // Bad input throws here, before anything is sent (attempts: 0).
    const { input, body, json } = outgoing(path, call, this.#api, this.#options.apiKey);
    const trace = new Trace(method, scrub(redactUrl(this.#root + input)));
    const turns = new CallTurns(this.#throttle, trace, {
      queues: this.#throttle.enabled && queues(options.rateLimit),
      log: this.#log,
      maxPauseMs: this.#options.maxRetryAfter,
      signal: options.signal,
      total: options.totalTimeout ?? this.#options.totalTimeout,
    });
    const kyOptions = this.#callOptions(trace, options, turns);
    if (json !== undefined) kyOptions.json = json;
    else if (body !== undefined) kyOptions.body = body;
    let response: Response;
    let text: string;
    try {
      // The first attempt's turn: time in the queue counts against totalTimeout, not against `timeout`.
      const turn = turns.wait(false);
      if (turn) {
        await turn;
        const left = turns.timeLeft();
        if (left !== undefined) kyOptions.totalTimeout = Math.max(1, left);
      }
      response = await this.#ky(input, kyOptions);
      // A hook may hand ky a Response of its own, which readingFetch did not read.
      text = readText(response) ?? (await response.text());
    } catch (error) {
      const { readError } = this.#api;
      const create = !this.#idempotent(method);
      const context: FailureContext = { trace, path, signal: options.signal, scrub, readError, create };
      const failure = callFailure(error, transportError(error), context);
      // A DELETE whose earlier attempt got no answer, and whose retry finds nothing: the first one deleted it.
      if (call.gone && trace.lost && failure instanceof NotFoundError && trace.answer)
        return { data: call.gone(), response: trace.answer };
      throw finished(failure, trace, this.#log);
    } finally {
      // A turn no request used (a hook answered, or the deadline passed before sending) goes back.
      turns.end();
    }
    // No Content has nothing to parse: the receipt is the one the DELETE would have sent.
    if (call.gone && response.status === 204) return { data: call.gone(), response };
    const label = `${method} ${trace.url}`;
    try {
      const data = parseAnswer({ response, text, label, path }, schema, this.#api.readError, scrub);
      call.accept?.(data, label, response);
      return { data, response };
    } catch (error) {
      // Only SDK code runs here: anything but our own error is a body it failed to read.
      throw finished(ownError(error, label, response.status, scrub), trace, this.#log);
    }
  }

  /** What the client's throttle knows now (queue, in flight, the server's budget). */
  get rateLimit(): RateLimitSnapshot {
    return this.#throttle.snapshot();
  }

  /** Only what differs from the client's instance: ky merges every option a call passes, on every call. */
  #callOptions(trace: Trace, options: RequestOptions, turns: CallTurns): KyOptions {
    const kyOptions: KyOptions = { method: trace.method, retry: replaceOption(this.#retry(trace, options)) };
    if (options.signal) kyOptions.signal = options.signal;
    if (options.headers) kyOptions.headers = extraHeaders(options.headers, 'headers');
    // A retry waits for its turn last of all beforeRetry hooks, outside the attempt's `timeout`.
    kyOptions.hooks = {
      ...options.hooks,
      beforeRetry: [...(options.hooks?.beforeRetry ?? []), () => turns.wait(true)],
    };
    if (options.timeout !== undefined) kyOptions.timeout = positive(options.timeout, 'timeout');
    if (options.totalTimeout !== undefined)
      kyOptions.totalTimeout = positive(options.totalTimeout, 'totalTimeout');
    // A call's own afterResponse hook clones each answer, so it needs one with a body (see readingFetch).
    const rebuild = this.#rebuild || Boolean(options.hooks?.afterResponse?.length);
    const maxBytes = options.maxResponseBytes ?? this.#options.maxResponseBytes;
    kyOptions.fetch = callFetch(this.#send, trace, this.#log, { rebuild, maxBytes }, turns);
    return kyOptions;
  }

  /** The call's retry rules: its limit, its method's safety, its deadline, and a warn line per retry. */
  #retry(trace: Trace, options: RequestOptions): RetryPolicy {
    const { maxRetries, totalTimeout, maxRetryAfter } = this.#options;
    const limits = {
      limit: options.maxRetries === undefined ? maxRetries : retryCount(options.maxRetries, 'maxRetries'),
      idempotent: this.#idempotent(trace.method),
      total: options.totalTimeout ?? totalTimeout,
      maxRetryAfter,
    };
    return callRetry(trace, limits, (error) => failureOf(error, transportError(error)), this.#log);
  }

  #idempotent(method: string): boolean {
    return (this.#api.retryMethods as readonly string[]).includes(method.toLowerCase());
  }
}

/** ky's error classes in the SDK's terms: this is the one module that knows them. */
function transportError(error: unknown): TransportError {
  if (isHTTPError(error)) return { kind: 'http', response: error.response, data: error.data };
  if (isTimeoutError(error)) return { kind: 'timeout' };
  if (isNetworkError(error)) return { kind: 'network', cause: error.cause };
  return { kind: 'other' };
}
