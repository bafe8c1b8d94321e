import type { RequestOptions } from './options.js';
import type { ReadError } from './parse.js';
import type { Records } from './records.js';
import type { Method } from './retry.js';
import type { Parsers } from './schema.js';
import type { ApiName, OperationTelemetry } from './telemetry.js';

/** Query values; `undefined` ones are left out. */
export type Query = Record<string, string | number | boolean | undefined>;
/** Body fields; `undefined` ones are left out. */
export type Body = Record<string, string | number | boolean | undefined>;

/** One request: what to send, beyond method, path and schema. */
export interface Call<T = unknown> {
  /** The operation, as its caller named it (`pixels.get`): for telemetry and the trace hooks read. */
  op?: string | undefined;
  /** An operation already started by the caller (a cached validation): attempts go under it; the caller ends it. */
  within?: OperationTelemetry | undefined;
  /** A list walk's pages: each is an operation, linked to the first (kept here once started). */
  walk?: { first?: OperationTelemetry | undefined } | undefined;
  query?: Query | undefined;
  body?: Body | undefined;
  options?: RequestOptions | undefined;
  /** Values the call sends that must never be shown whole (a purchase code): masked to their last four. */
  secrets?: string[] | undefined;
  /**
   * The result of a DELETE when the server sends none: it answered 204 No Content, or the retry of an attempt that
   * got no answer finds nothing (that attempt deleted it).
   */
  gone?: (() => T) | undefined;
  /**
   * Checks a parsed answer against what was asked (a list's page number, a purchase code); throws a
   * `ContentPlatformError`, or returns a promise that rejects with one, to fail the call. `call.label` is the call's
   * method and redacted URL, for the message: read it only to fail, since it is built when first read.
   */
  accept?: ((data: T, call: { readonly label: string }, response: Response) => unknown) | undefined;
  /** A list: where its records are and the most it may hold; a longer one is refused before it is read. */
  records?: Records | undefined;
}

/** How an API authenticates and encodes bodies. */
export interface Encoding {
  /** `bearer`: `Authorization` header. `param`: a named parameter, in the query of a GET, else in the body. */
  credentials: { kind: 'bearer' } | { kind: 'param'; name: string };
  /** How bodies are encoded. */
  body: 'form' | 'json';
}

/** The call-specific parts of a request: the input (path and query) and the body, if any. */
export interface Outgoing {
  input: string;
  body?: URLSearchParams;
  json?: Record<string, string | number | boolean>;
}

/** Builds the path-and-query input and the encoded body of one call. */
export function outgoing<T>(path: string, call: Call<T>, encoding: Encoding, apiKey: string): Outgoing {
  // The common call (a bearer GET or DELETE by id) has nothing to encode.
  if (call.query === undefined && call.body === undefined && encoding.credentials.kind === 'bearer')
    return { input: path };
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(call.query ?? {})) {
    if (value !== undefined) query.append(key, String(value));
  }
  let body = call.body;
  // Set last, so no caller-supplied field of the same name can replace or drop the key.
  if (encoding.credentials.kind === 'param') {
    if (body === undefined) query.set(encoding.credentials.name, apiKey);
    else body = { ...body, [encoding.credentials.name]: apiKey };
  }
  const search = query.toString();
  // The query goes in the URL string itself: one string, built once, re-sent as is by each retry.
  const input = search === '' ? path : `${path}?${search}`;
  if (body === undefined) return { input };
  const fields = Object.entries(body).filter(
    (entry): entry is [string, string | number | boolean] => entry[1] !== undefined,
  );
  if (encoding.body === 'json') return { input, json: Object.fromEntries(fields) };
  return { input, body: new URLSearchParams(fields.map(([key, value]) => [key, String(value)])) };
}

/** What differs between the two APIs at the HTTP level. */
export interface ApiConfig extends Encoding {
  /** The API's name, for telemetry. */
  name: ApiName;
  /** Methods safe to send twice: a POST only where the API makes it read-only. */
  retryMethods: readonly Lowercase<Method>[];
  /** Reads an API's own error envelope from any answer (2xx included); `undefined` when it is not one. */
  readError: ReadError;
  /** The API's response schemas with their generated parsers (`lazyParsers`): loaded by the first client. */
  parsers: () => Promise<Parsers>;
}
