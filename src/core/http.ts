import ky, {
  isHTTPError,
  isNetworkError,
  isTimeoutError,
  type KyInstance,
  type Options as KyOptions,
  replaceOption,
} from 'ky';
import type { $ZodType as ZodType } from 'zod/v4/core';
import { answerError, parseAnswer, type ReadError } from './answer.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import { finished, timeoutError } from './call-end.js';
import { callFetch, callRetry } from './call-policy.js';
import { APIUserAbortError, ContentPlatformError, NotFoundError } from './errors.js';
import { createLog, type Log } from './log.js';
import { extraHeaders, positive, type RequestOptions, type ResolvedOptions, retryCount } from './options.js';
import { failedRequest, readText, type Send } from './read-fetch.js';
import { redactUrl, type Scrub, scrubber } from './redact.js';
import { type Body, type Call, type Encoding, outgoing, type Query } from './request.js';
import { connectionError } from './response-errors.js';
import { connectionCode, type Failure, type Method, mayHaveActed, type RetryPolicy } from './retry.js';
import { Trace } from './trace.js';

export type { Hooks, KyInstance } from 'ky';
export type { Body, Call, Query } from './request.js';
export type { Method } from './retry.js';

/** What differs between the two APIs at the HTTP level. */
export interface ApiConfig extends Encoding {
  /** Methods safe to send twice: a POST only where the API makes it read-only. */
  retryMethods: readonly Lowercase<Method>[];
  /** Reads an API's own error envelope from any answer (2xx included); `undefined` when it is not one. */
  readError: ReadError;
}

/** The only door to the network: one ky instance per client, every failure mapped, every body validated. */
export class HttpClient {
  readonly #ky: KyInstance;
  readonly #options: ResolvedOptions;
  readonly #api: ApiConfig;
  readonly #log: Log;
  readonly #scrub: Scrub;
  readonly #root: string;
  #send: Send = (request, init) => globalThis.fetch(request, init);
  // Whether ky will clone answers (an afterResponse hook or a progress callback of the instance or client).
  #rebuild = false;

  constructor(options: ResolvedOptions, api: ApiConfig) {
    this.#options = options;
    this.#api = api;
    this.#scrub = scrubber(options.apiKey);
    this.#log = createLog(options.logger, options.logLevel, this.#scrub);
    this.#root = `${options.apiRoot}/`;
    const custom = options.fetch;
    // Everything the same for every call is set here once: ky re-merges whatever a call passes.
    this.#ky = (options.ky ?? ky).extend((parent) => {
      const inherited = parent.fetch;
      // The global fetch is looked up per attempt, so one replaced after construction (msw) is used.
      if (custom) this.#send = (request) => custom(request);
      else if (inherited) this.#send = (request, init) => inherited(request, init);
      this.#rebuild = Boolean(
        options.hooks?.afterResponse?.length ||
          parent.hooks?.afterResponse?.length ||
          parent.onDownloadProgress,
      );
      return {
        prefix: this.#root,
        headers: {
          accept: 'application/json',
          'user-agent': options.userAgent,
          ...options.headers,
          ...(api.credentials.kind === 'bearer' ? { authorization: `Bearer ${options.apiKey}` } : {}),
        },
        timeout: options.timeout,
        // Set only where needed: every default key is merged again into each call.
        ...(options.totalTimeout !== undefined || parent.totalTimeout !== undefined
          ? { totalTimeout: options.totalTimeout ?? false }
          : {}),
        ...(parent.throwHttpErrors === undefined ? {} : { throwHttpErrors: true }),
        // Redirects are never followed: a 307 would carry the key (header or body) to wherever it points.
        redirect: 'manual',
        ...(options.hooks ? { hooks: options.hooks } : {}),
      };
    });
  }

  /** GET `path` (relative to the API root), with an optional query; resolves to the body parsed by `schema`. */
  get<T>(path: string, schema: ZodType<T>, options?: RequestOptions, query?: Query): APIPromise<T> {
    return this.request('GET', path, schema, { options, query });
  }

  /** POST `body` (form or JSON, per API) to `path`; `secrets` are values to mask in errors (a purchase code). */
  post<T>(
    path: string,
    schema: ZodType<T>,
    body: Body,
    options?: RequestOptions,
    secrets?: string[],
  ): APIPromise<T> {
    return this.request('POST', path, schema, { options, body, secrets });
  }

  /** PUT `body` to `path`. */
  put<T>(path: string, schema: ZodType<T>, body: Body, options?: RequestOptions): APIPromise<T> {
    return this.request('PUT', path, schema, { options, body });
  }

  /** DELETE `path`; `gone` is the result when a retry finds it gone after an attempt that got no answer. */
  delete<T>(path: string, schema: ZodType<T>, options?: RequestOptions, gone?: () => T): APIPromise<T> {
    return this.request('DELETE', path, schema, { options, gone });
  }

  /** Sends one request and resolves to the body parsed by `schema`. */
  request<T>(method: Method, path: string, schema: ZodType<T>, call: Call<T> = {}): APIPromise<T> {
    return new APIPromise(this.#call(method, path, schema, call));
  }

  async #call<T>(method: Method, path: string, schema: ZodType<T>, call: Call<T>): Promise<WithResponse<T>> {
    const options = call.options ?? {};
    const scrub = call.secrets ? scrubber(this.#options.apiKey, call.secrets) : this.#scrub;
    // Bad input throws here, before anything is sent (attempts: 0).
    const { input, body, json } = outgoing(path, call, this.#api, this.#options.apiKey);
    const trace = new Trace(method, scrub(redactUrl(this.#root + input)));
    const kyOptions = this.#callOptions(trace, options);
    if (json !== undefined) kyOptions.json = json;
    else if (body !== undefined) kyOptions.body = body;
    let response: Response;
    let text: string;
    try {
      response = await this.#ky(input, kyOptions);
      // A hook may hand ky a Response of its own, which readingFetch did not read.
      text = readText(response) ?? (await response.text());
    } catch (error) {
      const failure = this.#failure(error, trace, path, options.signal, scrub);
      // A DELETE whose earlier attempt got no answer, and whose retry finds nothing: the first one deleted it.
      if (call.gone && trace.lost && failure instanceof NotFoundError && trace.answer)
        return { data: call.gone(), response: trace.answer };
      throw finished(failure, trace, this.#log);
    }
    try {
      const label = `${method} ${trace.url}`;
      const data = parseAnswer({ response, text, label, path }, schema, this.#api.readError, scrub);
      call.accept?.(data, label);
      return { data, response };
    } catch (error) {
      throw finished(error, trace, this.#log);
    }
  }

  /** Only what differs from the client's instance: ky merges every option a call passes, on every call. */
  #callOptions(trace: Trace, options: RequestOptions): KyOptions {
    const kyOptions: KyOptions = { method: trace.method, retry: replaceOption(this.#retry(trace, options)) };
    if (options.signal) kyOptions.signal = options.signal;
    if (options.headers) kyOptions.headers = extraHeaders(options.headers, 'headers');
    if (options.hooks) kyOptions.hooks = options.hooks;
    if (options.timeout !== undefined) kyOptions.timeout = positive(options.timeout, 'timeout');
    if (options.totalTimeout !== undefined)
      kyOptions.totalTimeout = positive(options.totalTimeout, 'totalTimeout');
    // A call's own afterResponse hook clones each answer, so it needs one with a body (see readingFetch).
    const rebuild = this.#rebuild || Boolean(options.hooks?.afterResponse?.length);
    kyOptions.fetch = callFetch(this.#send, trace, this.#log, rebuild);
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
    return callRetry(trace, limits, failureOf, this.#log);
  }

  #idempotent(method: string): boolean {
    return (this.#api.retryMethods as readonly string[]).includes(method.toLowerCase());
  }

  /** Whatever ky or fetch threw, as one of our errors; a hook's own error reaches the caller unchanged. */
  #failure(
    error: unknown,
    trace: Trace,
    path: string,
    signal: AbortSignal | undefined,
    scrub: Scrub,
  ): unknown {
    if (error instanceof ContentPlatformError) return error;
    const label = `${trace.method} ${trace.url}`;
    if (signal?.aborted)
      return new APIUserAbortError(`${label} was aborted by the caller.`, { cause: signal.reason });
    if (isHTTPError(error)) {
      // ky has read the body into `data` (parsed when JSON) unless the answer came through readingFetch.
      const { data } = error;
      const text =
        readText(error.response) ?? (typeof data === 'string' ? data : (JSON.stringify(data) ?? ''));
      return answerError({ response: error.response, text, label, path }, this.#api.readError, scrub);
    }
    if (isTimeoutError(error)) {
      // Cut mid-attempt (more requests sent than answers read), or during the wait after an answer.
      if (trace.attempts > trace.answers) trace.lost = true;
      const last = trace.answer && !trace.answer.ok ? trace.answer : undefined;
      const cause =
        last &&
        answerError({ response: last, text: readText(last) ?? '', label, path }, this.#api.readError, scrub);
      return timeoutError(label, cause, trace.lost);
    }
    const cause = isNetworkError(error) ? error.cause : failedRequest(error) ? error : undefined;
    if (cause === undefined) return error;
    if (mayHaveActed({ kind: 'network', code: connectionCode(cause) })) trace.lost = true;
    const create = !this.#idempotent(trace.method);
    return connectionError(label, cause, scrub, { mayHaveSucceeded: trace.lost, create });
  }
}

/** A ky error in the retry rules' terms. */
function failureOf(error: Error): Failure {
  if (isHTTPError(error)) {
    const { status, headers } = error.response;
    return { kind: 'status', status, headers };
  }
  if (isTimeoutError(error)) return { kind: 'timeout' };
  if (isNetworkError(error) || (error instanceof TypeError && failedRequest(error)))
    return { kind: 'network', code: connectionCode(error) };
  return { kind: 'other', name: error.name };
}
