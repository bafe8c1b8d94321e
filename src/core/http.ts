import { safeParse, type $ZodType as ZodType } from 'zod/v4/core';
import { VERSION } from '../version.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import { type Answer, decodeAnswer, statusError } from './error-map.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  type APIError,
  APIUserAbortError,
  ContentPlatformError,
  InternalServerError,
} from './errors.js';
import { createLog, type Log, loggingFetch } from './log.js';
import { positive, type RequestOptions, type ResolvedOptions, retryCount } from './options.js';
import { type Body, type Call, type Encoding, outgoing, type Query } from './request.js';
import {
  connectionError,
  isRedirect,
  notJsonError,
  redirectError,
  validationError,
} from './response-errors.js';
import { type Method, retryReason } from './retry.js';
import { compiled, PARSE_CONTEXT } from './schema.js';
import { type Answered, type Exchange, exchange, NoAnswer, type Send } from './transport.js';

export type { Body, Call, Query } from './request.js';
export type { Method } from './retry.js';

/** What differs between the two APIs at the HTTP level. */
export interface ApiConfig extends Encoding {
  /** Methods safe to retry: a POST only where the API makes it read-only. */
  retryMethods: readonly Lowercase<Method>[];
  /** Reads an API's own error envelope from any answer (2xx included); `undefined` when it is not one. */
  readError(answer: Answer, path: string): APIError | undefined;
}

/** The only door to the network: builds requests, retries, maps every failure, and validates every body. */
export class HttpClient {
  readonly #options: ResolvedOptions;
  readonly #api: ApiConfig;
  readonly #log: Log;
  readonly #logAttempts: boolean;
  readonly #noClientHeaders: boolean;
  // The same for every call, so built once: a call without extra headers sends these objects as they are.
  readonly #headers: Readonly<Record<string, string>>;
  readonly #jsonHeaders: Readonly<Record<string, string>>;

  constructor(options: ResolvedOptions, api: ApiConfig) {
    this.#options = options;
    this.#api = api;
    this.#log = createLog(options.logger, options.logLevel, options.apiKey);
    this.#logAttempts = options.logLevel === 'info' || options.logLevel === 'debug';
    this.#noClientHeaders = Object.keys(options.headers).length === 0;
    this.#headers = Object.freeze({
      accept: 'application/json',
      'user-agent': `content-platform-sdk/${VERSION}`,
      ...(api.credentials.kind === 'bearer' ? { authorization: `Bearer ${options.apiKey}` } : {}),
    });
    this.#jsonHeaders = Object.freeze({ ...this.#headers, 'content-type': 'application/json' });
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
    return new APIPromise(this.#send(method, path, schema, call));
  }

  async #send<T>(method: Method, path: string, schema: ZodType<T>, call: Call): Promise<WithResponse<T>> {
    const options = call.options ?? {};
    const label = `${method} ${path}`;
    const onRetry = (failure: NoAnswer['failure'], retry: number, retries: number) =>
      this.#log('warn', `${label}: retry ${retry} of ${retries} after ${retryReason(failure)}`);
    let answered: Answered;
    try {
      answered = await exchange(this.#exchange(method, path, call, options), this.#sender(), onRetry);
    } catch (error) {
      throw this.#logged(this.#failure(error, label, options.signal));
    }
    const { response, text } = answered;
    if (!response.ok) throw this.#logged(this.#statusFailure(response, text, label, path));
    const answer = decodeAnswer(response, text, label);
    const envelopeError = this.#api.readError(answer, path);
    if (envelopeError) throw envelopeError;
    // Failures re-read the body with the key scrubbed: a 2xx body could echo it into the error too.
    const scrubbed = () => decodeAnswer(response, text, label, this.#options.apiKey);
    if (!answer.isJson) throw notJsonError(scrubbed(), response);
    const parsed = safeParse(compiled(schema), answer.body, PARSE_CONTEXT);
    if (!parsed.success) throw validationError(scrubbed(), parsed.error.issues);
    return { data: parsed.data, response };
  }

  /** Everything one call sends, with the options that differ from the client's for this call. */
  #exchange(method: Method, path: string, call: Call, options: RequestOptions): Exchange {
    const { input, body, json } = outgoing(path, call, this.#api, this.#options.apiKey);
    const idempotent = this.#api.retryMethods.includes(method.toLowerCase() as Lowercase<Method>);
    return {
      url: `${this.#options.apiRoot}/${input}`,
      init: {
        method,
        headers: this.#headersFor(options, json !== undefined),
        body: json === undefined ? (body ?? null) : JSON.stringify(json),
        // Redirects are never followed: a 307 would carry the key (header or body) to wherever it points.
        redirect: 'manual',
      },
      idempotent,
      retries: retryCount(options.maxRetries ?? this.#options.maxRetries, 'maxRetries'),
      timeout: options.timeout === undefined ? this.#options.timeout : positive(options.timeout, 'timeout'),
      totalTimeout:
        options.totalTimeout === undefined
          ? this.#options.totalTimeout
          : positive(options.totalTimeout, 'totalTimeout'),
      signal: options.signal,
    };
  }

  /** The client's headers, then the client's extra ones, then the call's (later ones win, in any case). */
  #headersFor(options: RequestOptions, json: boolean): HeadersInit {
    const base = json ? this.#jsonHeaders : this.#headers;
    if (options.headers === undefined && this.#noClientHeaders) return base;
    const headers = new Headers(this.#headers);
    for (const [name, value] of Object.entries({ ...this.#options.headers, ...options.headers }))
      headers.set(name, value);
    if (json && !headers.has('content-type')) headers.set('content-type', 'application/json');
    return headers;
  }

  /**
   * How an attempt is sent. Looked up on each call, so a fetch replaced after construction (msw) is the one
   * used. A custom fetch gets a Request, as `FetchLike` promises; one line per attempt at `info` and below.
   */
  #sender(): Send {
    const custom = this.#options.fetch;
    if (this.#logAttempts) return loggingFetch(custom ?? ((request) => globalThis.fetch(request)), this.#log);
    return custom
      ? (url, init) => custom(new Request(url, init))
      : (url, init) => globalThis.fetch(url, init);
  }

  /** A non-2xx answer: a redirect, the API's own error envelope, or the status class. */
  #statusFailure(response: Response, text: string, label: string, path: string): APIError {
    const answer = decodeAnswer(response, text, label, this.#options.apiKey);
    if (isRedirect(response)) return redirectError(answer, response);
    return this.#api.readError(answer, path) ?? statusError(answer);
  }

  /** A call that ends with no answer or a server fault is worth an error line; 4xx answers are the caller's. */
  #logged(failure: Error): Error {
    if (failure instanceof APIConnectionError || failure instanceof InternalServerError)
      this.#log('error', failure.message);
    return failure;
  }

  /** A call that got no answer (or was refused before sending), as one of our errors. */
  #failure(error: unknown, label: string, signal: AbortSignal | undefined): Error {
    if (error instanceof ContentPlatformError) return error;
    if (signal?.aborted) return new APIUserAbortError(`${label} was aborted by the caller.`);
    if (error instanceof NoAnswer && error.failure.kind === 'timeout') {
      return new APIConnectionTimeoutError(`${label} timed out: no answer within the timeout.`);
    }
    return connectionError(label, error instanceof NoAnswer ? error.cause : error, this.#options.apiKey);
  }
}
