import ky, {
  HTTPError,
  type KyInstance,
  type Options as KyOptions,
  NetworkError,
  type RetryOptions,
  TimeoutError,
} from 'ky';
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
import { connectionCode, type Failure, type Method, retryReason, retrySettings } from './retry.js';
import { PARSE_CONTEXT } from './schema.js';

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
  readonly #ky: KyInstance;
  readonly #options: ResolvedOptions;
  readonly #api: ApiConfig;
  readonly #log: Log;
  readonly #logAttempts: boolean;
  readonly #noClientHeaders: boolean;
  readonly #retryPolicies = new Map<string, RetryOptions>();

  constructor(options: ResolvedOptions, api: ApiConfig) {
    this.#options = options;
    this.#api = api;
    this.#log = createLog(options.logger, options.logLevel, options.apiKey);
    this.#logAttempts = options.logLevel === 'info' || options.logLevel === 'debug';
    this.#noClientHeaders = Object.keys(options.headers).length === 0;
    // Whatever is the same for every call is set once here, not merged in on each call (bench/RESULTS.md).
    this.#ky = ky.create({
      prefix: `${options.apiRoot}/`,
      headers: {
        accept: 'application/json',
        'user-agent': `content-platform-sdk/${VERSION}`,
        ...(api.credentials.kind === 'bearer' ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      // Keep error bodies as raw text: ky would drop a truncated JSON body, and we must keep it.
      parseJson: (text) => text,
      timeout: options.timeout,
      ...(options.totalTimeout === undefined ? {} : { totalTimeout: options.totalTimeout }),
      // Redirects are never followed: a 307 would carry the key (header or body) to wherever it points.
      redirect: 'manual',
      hooks: {
        beforeRetry: [
          ({ request, options: { retry }, error, retryCount }) => {
            // The calls' label: method and path below the API root, without the query (it may hold the key).
            const label = `${request.method} ${request.url.slice(options.apiRoot.length + 1).split('?')[0]}`;
            this.#log(
              'warn',
              `${label}: retry ${retryCount} of ${retry.limit} after ${retryReason(failureOf(error))}`,
            );
          },
        ],
      },
      // Looked up on each call, so a fetch replaced after construction (a test double) is still the one used.
      fetch: (input, init) =>
        (options.fetch ?? globalThis.fetch)(
          input instanceof Request ? input : new Request(input, init),
          init,
        ),
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
    return new APIPromise(this.#send(method, path, schema, call));
  }

  async #send<T>(method: Method, path: string, schema: ZodType<T>, call: Call): Promise<WithResponse<T>> {
    const options = call.options ?? {};
    const label = `${method} ${path}`;
    let response: Response;
    let text: string;
    try {
      const [input, kyOptions] = this.#kyOptions(method, path, call, options);
      const pending = this.#ky(input, kyOptions);
      text = await pending.text();
      response = await pending;
    } catch (error) {
      const failure = this.#failure(error, method, path, options.signal);
      // A call that ends with no answer or a server fault is worth an error line; 4xx answers are the caller's.
      if (failure instanceof APIConnectionError || failure instanceof InternalServerError)
        this.#log('error', failure.message);
      throw failure;
    }
    const answer = decodeAnswer(response, text, label);
    const envelopeError = this.#api.readError(answer, path);
    if (envelopeError) throw envelopeError;
    // Failures re-read the body with the key scrubbed: a 2xx body could echo it into the error too.
    const scrubbed = () => decodeAnswer(response, text, label, this.#options.apiKey);
    if (!answer.isJson) throw notJsonError(scrubbed(), response);
    const parsed = safeParse(schema, answer.body, PARSE_CONTEXT);
    if (!parsed.success) throw validationError(scrubbed(), parsed.error.issues);
    return { data: parsed.data, response };
  }

  /** The input (path and query) and the options that differ from the instance's, for one call. */
  #kyOptions(method: Method, path: string, call: Call, options: RequestOptions): [string, KyOptions] {
    const { input, ...body } = outgoing(path, call, this.#api, this.#options.apiKey);
    const limit = retryCount(options.maxRetries ?? this.#options.maxRetries, 'maxRetries');
    const kyOptions: KyOptions = {
      method,
      ...body,
      ...(options.headers === undefined && this.#noClientHeaders
        ? {}
        : { headers: { ...this.#options.headers, ...options.headers } }),
      ...(options.timeout === undefined ? {} : { timeout: positive(options.timeout, 'timeout') }),
      ...(options.totalTimeout === undefined
        ? {}
        : { totalTimeout: positive(options.totalTimeout, 'totalTimeout') }),
      ...(options.signal ? { signal: options.signal } : {}),
      // One attempt line per try, numbered per call: only when info lines are logged at all.
      ...(this.#logAttempts
        ? { fetch: loggingFetch(this.#options.fetch ?? globalThis.fetch, this.#log) }
        : {}),
      retry: this.#retry(method, limit),
    };
    return [input, kyOptions];
  }

  /** Retry settings per method and limit, built once: ky normalizes the object on every call. */
  #retry(method: Method, limit: number): RetryOptions {
    const key = `${method} ${limit}`;
    const idempotent = this.#api.retryMethods.includes(method.toLowerCase() as Lowercase<Method>);
    const policy = this.#retryPolicies.get(key) ?? retrySettings(method, limit, idempotent, failureOf);
    this.#retryPolicies.set(key, policy);
    return policy;
  }

  #failure(error: unknown, method: Method, path: string, signal: AbortSignal | undefined): Error {
    const label = `${method} ${path}`;
    if (error instanceof ContentPlatformError) return error;
    if (signal?.aborted) return new APIUserAbortError(`${label} was aborted by the caller.`);
    if (error instanceof HTTPError) {
      const text = typeof error.data === 'string' ? error.data : '';
      const answer = decodeAnswer(error.response, text, label, this.#options.apiKey);
      if (isRedirect(error.response)) return redirectError(answer, error.response);
      return this.#api.readError(answer, path) ?? statusError(answer);
    }
    if (error instanceof TimeoutError) {
      return new APIConnectionTimeoutError(`${label} timed out: no answer within the timeout.`);
    }
    return connectionError(label, error instanceof NetworkError ? error.cause : error, this.#options.apiKey);
  }
}

/** A ky error in the retry rules' terms. */
function failureOf(error: Error): Failure {
  if (error instanceof HTTPError)
    return { kind: 'status', status: error.response.status, headers: error.response.headers };
  if (error instanceof TimeoutError) return { kind: 'timeout' };
  if (error instanceof NetworkError) return { kind: 'network', code: connectionCode(error) };
  return { kind: 'other', name: error.name };
}
