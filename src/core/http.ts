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
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  ContentPlatformError,
  InternalServerError,
} from './errors.js';
import { createLog, type Log, loggingFetch } from './log.js';
import { extraHeaders, positive, type RequestOptions, type ResolvedOptions, retryCount } from './options.js';
import { failedRequest, readingFetch, readText, type Send } from './read-fetch.js';
import { type Body, type Call, type Encoding, outgoing, type Query } from './request.js';
import { connectionError } from './response-errors.js';
import {
  connectionCode,
  type Failure,
  type Method,
  type RetryPolicy,
  retryPolicy,
  retryReason,
} from './retry.js';

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
  readonly #logAttempts: boolean;
  readonly #retries = new Map<number, RetryPolicy>();
  #send: Send = (request, init) => globalThis.fetch(request, init);
  // Whether ky will clone answers (an afterResponse hook or a progress callback of the instance or client).
  #rebuild = false;

  constructor(options: ResolvedOptions, api: ApiConfig) {
    this.#options = options;
    this.#api = api;
    this.#log = createLog(options.logger, options.logLevel, options.apiKey);
    this.#logAttempts = options.logLevel === 'info' || options.logLevel === 'debug';
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
        prefix: `${options.apiRoot}/`,
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
        // A user instance's `retry: 5` must not multiply ours: the whole policy is replaced, not merged.
        retry: replaceOption(this.#retry(options.maxRetries)),
        // Redirects are never followed: a 307 would carry the key (header or body) to wherever it points.
        redirect: 'manual',
        ...(options.hooks ? { hooks: options.hooks } : {}),
        fetch: readingFetch((request, init) => this.#send(request, init), this.#rebuild),
      };
    });
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

  /** DELETE `path`. */
  delete<T>(path: string, schema: ZodType<T>, options?: RequestOptions): APIPromise<T> {
    return this.request('DELETE', path, schema, { options });
  }

  /** Sends one request and resolves to the body parsed by `schema`. */
  request<T>(method: Method, path: string, schema: ZodType<T>, call: Call = {}): APIPromise<T> {
    return new APIPromise(this.#call(method, path, schema, call));
  }

  async #call<T>(method: Method, path: string, schema: ZodType<T>, call: Call): Promise<WithResponse<T>> {
    const options = call.options ?? {};
    const label = `${method} ${path}`;
    let response: Response;
    let text: string;
    try {
      const { input, body, json } = outgoing(path, call, this.#api, this.#options.apiKey);
      const kyOptions = this.#callOptions(method, options);
      if (json !== undefined) kyOptions.json = json;
      else if (body !== undefined) kyOptions.body = body;
      response = await this.#ky(input, kyOptions);
      // A hook may hand ky a Response of its own, which readingFetch did not read.
      text = readText(response) ?? (await response.text());
    } catch (error) {
      throw this.#logged(this.#failure(error, label, path, options.signal));
    }
    const data = parseAnswer(
      { response, text, label, path },
      schema,
      this.#api.readError,
      this.#options.apiKey,
    );
    return { data, response };
  }

  /** Only what differs from the client's instance: ky merges every option a call passes, on every call. */
  #callOptions(method: Method, options: RequestOptions): KyOptions {
    const kyOptions: KyOptions = { method };
    if (options.signal) kyOptions.signal = options.signal;
    if (options.headers) kyOptions.headers = extraHeaders(options.headers, 'headers');
    if (options.hooks) kyOptions.hooks = options.hooks;
    if (options.timeout !== undefined) kyOptions.timeout = positive(options.timeout, 'timeout');
    if (options.totalTimeout !== undefined)
      kyOptions.totalTimeout = positive(options.totalTimeout, 'totalTimeout');
    if (options.maxRetries !== undefined)
      kyOptions.retry = replaceOption(this.#retry(retryCount(options.maxRetries, 'maxRetries')));
    // A call's own afterResponse hook clones each answer, so it needs one with a body (see readingFetch).
    const rebuild = this.#rebuild || Boolean(options.hooks?.afterResponse?.length);
    // One line per attempt, numbered per call: a per-call fetch, only when info lines are logged at all.
    if (this.#logAttempts) kyOptions.fetch = readingFetch(loggingFetch(this.#send, this.#log), rebuild);
    else if (rebuild !== this.#rebuild) kyOptions.fetch = readingFetch(this.#send, true);
    return kyOptions;
  }

  /** The retry policy for a limit, built once: a call with its own `maxRetries` reuses it. */
  #retry(limit: number): RetryPolicy {
    let policy = this.#retries.get(limit);
    if (policy === undefined) {
      const safe = this.#api.retryMethods as readonly string[];
      const root = this.#options.apiRoot.length + 1;
      policy = retryPolicy(
        limit,
        (method) => safe.includes(method.toLowerCase()),
        failureOf,
        (failure, retry, retries, request) => {
          const label = `${request?.method} ${request?.url.slice(root).split('?')[0]}`;
          this.#log('warn', `${label}: retry ${retry} of ${retries} after ${retryReason(failure)}`);
        },
      );
      this.#retries.set(limit, policy);
    }
    return policy;
  }

  /** A call that ends with no answer or a server fault is worth an error line; 4xx answers are the caller's. */
  #logged(failure: unknown): unknown {
    if (failure instanceof APIConnectionError || failure instanceof InternalServerError)
      this.#log('error', failure.message);
    return failure;
  }

  /** Whatever ky or fetch threw, as one of our errors; a hook's own error reaches the caller unchanged. */
  #failure(error: unknown, label: string, path: string, signal: AbortSignal | undefined): unknown {
    if (error instanceof ContentPlatformError) return error;
    if (signal?.aborted) return new APIUserAbortError(`${label} was aborted by the caller.`);
    if (isHTTPError(error)) {
      // ky has read the body into `data` (parsed when JSON) unless the answer came through readingFetch.
      const { data } = error;
      const text =
        readText(error.response) ?? (typeof data === 'string' ? data : (JSON.stringify(data) ?? ''));
      return answerError(
        { response: error.response, text, label, path },
        this.#api.readError,
        this.#options.apiKey,
      );
    }
    if (isTimeoutError(error)) {
      return new APIConnectionTimeoutError(`${label} timed out: no answer within the timeout.`);
    }
    if (isNetworkError(error)) return connectionError(label, error.cause, this.#options.apiKey);
    if (failedRequest(error)) return connectionError(label, error, this.#options.apiKey);
    return error;
  }
}

/** A ky error in the retry rules' terms, with the request it failed. */
function failureOf(error: Error): { failure: Failure; request: Request | undefined } {
  const request = (error as { request?: Request }).request ?? failedRequest(error);
  if (isHTTPError(error)) {
    const { status, headers } = error.response;
    return { failure: { kind: 'status', status, headers }, request };
  }
  if (isTimeoutError(error)) return { failure: { kind: 'timeout' }, request };
  if (isNetworkError(error) || (error instanceof TypeError && failedRequest(error)))
    return { failure: { kind: 'network', code: connectionCode(error) }, request };
  return { failure: { kind: 'other', name: error.name }, request };
}
