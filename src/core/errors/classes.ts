import { isBranded, LINEAGE, lineageOf, named } from './brand.js';
import { escapeControls } from './redact.js';

/** Every error class's `name`: `switch (error.name)` on an `AnyContentPlatformError` narrows to the class. */
export type ContentPlatformErrorName =
  | 'ContentPlatformError'
  | APIErrorName
  | 'APIConnectionError'
  | 'APIConnectionTimeoutError'
  | 'APIUserAbortError'
  | 'ResponseValidationError'
  | 'ResponseTooLargeError'
  | 'InvalidParamsError';

/** The `name` of `APIError` and its subclasses. */
export type APIErrorName =
  | 'APIError'
  | 'BadRequestError'
  | 'AuthenticationError'
  | 'PermissionDeniedError'
  | 'NotFoundError'
  | 'UnprocessableEntityError'
  | 'RateLimitError'
  | 'InternalServerError'
  | CatalogErrorName;

/** The `name` of `CatalogError` and its subclasses. */
export type CatalogErrorName =
  | 'CatalogError'
  | 'AccountRequestError'
  | 'NoItemsError'
  | 'ItemNotFoundError'
  | 'InvalidPurchaseCodeError';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * Base of every error this SDK throws. Catch it to handle any failure of a call. `instanceof` holds across the
 * ESM and CommonJS builds and two installs of one major version (see `isContentPlatformError`).
 *
 * @example
 * try { await mgmt.pixels.get(1); } catch (e) { if (e instanceof ContentPlatformError) console.error(e.name, e.attempts); }
 */
export class ContentPlatformError extends Error {
  declare readonly name: ContentPlatformErrorName;
  /** How many requests the call sent: 0 when it failed before sending, 3 after two retries. */
  readonly attempts: number = 0;
  /** The server's `X-Request-Id` from the call's last answer, when it sent one: quote it to the API's support. */
  declare readonly requestId: string | undefined;

  constructor(message: string, options?: { cause?: unknown }) {
    // A server's words in a message (a reason phrase, a body, a header) keep no raw control character: shown in a
    // terminal, an ESC would steer it and a line break forge a line.
    super(escapeControls(message), options);
    Object.defineProperty(this, LINEAGE, { value: lineageOf(this) });
    given(this, { requestId: undefined });
  }

  /** True for an instance of this class from any copy of the SDK (ESM, CommonJS, a second install). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class on the right of instanceof, a subclass too.
    return isBranded(this, value);
  }

  /** A plain object for logs and JSON: class name, message and the error's own data, never the key. */
  toJSON(): Record<string, unknown> {
    return defined({ name: this.name, message: this.message, ...this.summary() });
  }

  /** The short facts `toJSON()` and `util.inspect` show beside the message; subclasses add theirs. */
  protected summary(): Record<string, unknown> {
    return { attempts: this.attempts, requestId: this.requestId };
  }

  /**
   * `util.inspect` and `console.log`: the stack and the short facts, not the answer's headers and body. (Node's
   * uncaught-error printer skips this method; it shows the enumerable own fields, which are the same facts.)
   */
  [INSPECT](_depth: number, options: object, inspect: (value: unknown, options?: object) => string): string {
    return `${this.stack ?? `${this.name}: ${this.message}`} ${inspect(defined(this.summary()), options)}`;
  }
}

/** Any error the SDK throws, as a union on `name`: `switch (error.name)` narrows it to one class. */
export type AnyContentPlatformError =
  | (ContentPlatformError & { readonly name: 'ContentPlatformError' })
  | (APIError & { readonly name: 'APIError' })
  | BadRequestError
  | AuthenticationError
  | PermissionDeniedError
  | NotFoundError
  | UnprocessableEntityError
  | RateLimitError
  | InternalServerError
  | (CatalogError & { readonly name: 'CatalogError' })
  | AccountRequestError
  | NoItemsError
  | ItemNotFoundError
  | InvalidPurchaseCodeError
  | (APIConnectionError & { readonly name: 'APIConnectionError' })
  | APIConnectionTimeoutError
  | APIUserAbortError
  | (ResponseValidationError & { readonly name: 'ResponseValidationError' })
  | ResponseTooLargeError
  | InvalidParamsError;

/**
 * Whether `value` is an error from this SDK (any copy of it): the guard to use in a `catch`.
 * @example catch (e) { if (isContentPlatformError(e)) switch (e.name) { case 'NotFoundError': return null } throw e }
 */
export function isContentPlatformError(value: unknown): value is AnyContentPlatformError {
  return value instanceof ContentPlatformError;
}

/** Fields shared by every error built from a server answer. */
export interface APIErrorInit {
  /** Answer's HTTP status. */
  status: number;
  /** Answer's headers. */
  headers: Headers;
  /** Answer's body: parsed JSON when it parses, else the raw text (`undefined` when empty). */
  body: unknown;
  /** Full, human-readable message. */
  message: string;
  /** The error this one stands for, when it wraps one (`Error.cause`). */
  cause?: unknown;
}

/**
 * An error answer from the server. Subclasses name the HTTP status or the Catalog condition.
 *
 * @example
 * try { await mgmt.pixels.get(9) } catch (e) { if (e instanceof APIError) console.log(e.status, e.body) }
 */
export class APIError extends ContentPlatformError {
  declare readonly name: APIErrorName;
  /** HTTP status of the answer (200 for a Catalog error envelope sent with 200). */
  readonly status: number;
  /** Headers of the answer, such as `X-RateLimit-Remaining` or `Retry-After`. */
  declare readonly headers: Headers;
  /**
   * Body of the answer: parsed JSON, or the raw text when it is not JSON. Only its first 64 KiB are read: a longer
   * one is that text, ending with `… [cut: the body was longer than 65536 bytes]`.
   */
  declare readonly body: unknown;

  constructor(init: APIErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    aside(this, { headers: init.headers, body: init.body });
  }

  override toJSON(): Record<string, unknown> {
    return defined({ ...super.toJSON(), body: this.body });
  }

  protected override summary(): Record<string, unknown> {
    return { status: this.status, ...super.summary() };
  }
}

/** HTTP 400: the server rejected a parameter. @example `catch (e) { if (e instanceof BadRequestError) … }` */
export class BadRequestError extends APIError {
  declare readonly name: 'BadRequestError';
}

/**
 * HTTP 401, or a redirect to a login page: the API key is missing or rejected. The message names where the key came
 * from: the `apiKey` option or the environment variable. @example `e instanceof AuthenticationError`
 */
export class AuthenticationError extends APIError {
  declare readonly name: 'AuthenticationError';
}

/** HTTP 403: the key is valid but its plan has no access to this feature. @example `e instanceof PermissionDeniedError` */
export class PermissionDeniedError extends APIError {
  declare readonly name: 'PermissionDeniedError';
}

/**
 * HTTP 404: unknown id, another workspace's id, or an unknown route. When the client's URL repeats the API path
 * (`baseUrl: 'https://x/api'`), the message says what the site root should be. @example `e instanceof NotFoundError`
 */
export class NotFoundError extends APIError {
  declare readonly name: 'NotFoundError';
}

/**
 * HTTP 422: validation failed. `fieldErrors` maps each field to the server's messages, verbatim.
 *
 * @example
 * catch (e) { if (e instanceof UnprocessableEntityError) console.log(e.fieldErrors.name?.[0]) }
 */
export class UnprocessableEntityError extends APIError {
  declare readonly name: 'UnprocessableEntityError';
  /** Field name → messages, as the server sent them (they may be translated, e.g. Arabic). */
  declare readonly fieldErrors: Record<string, string[]>;

  constructor(init: APIErrorInit & { fieldErrors?: Record<string, string[]> }) {
    super(init);
    aside(this, { fieldErrors: init.fieldErrors ?? {} });
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), fieldErrors: this.fieldErrors };
  }
}

/**
 * HTTP 429: too many requests. `retryAfter` is the wait the server asked for, in seconds, when it said.
 *
 * @example
 * catch (e) { if (e instanceof RateLimitError) await sleep((e.retryAfter ?? 60) * 1000) }
 */
export class RateLimitError extends APIError {
  declare readonly name: 'RateLimitError';
  /** Seconds to wait, from `Retry-After` (seconds or HTTP date), else `X-RateLimit-Reset` or its kin; undefined if absent. */
  declare readonly retryAfter: number | undefined;

  constructor(init: APIErrorInit & { retryAfter?: number | undefined }) {
    super(init);
    given(this, { retryAfter: init.retryAfter });
  }

  protected override summary(): Record<string, unknown> {
    return { ...super.summary(), retryAfter: this.retryAfter };
  }
}

/**
 * HTTP 500 or above: the server failed. A 503 says in `retryAfter` how many seconds to wait, when it said. A 502 or
 * 504 answering a create says `mayHaveSucceeded: true`: check before sending the create again.
 * @example catch (e) { if (e instanceof InternalServerError && e.retryAfter) await sleep(e.retryAfter * 1000) }
 */
export class InternalServerError extends APIError {
  declare readonly name: 'InternalServerError';
  /** Seconds to wait, from a 503's `Retry-After` (seconds or HTTP date); undefined if absent or not a 503. */
  declare readonly retryAfter: number | undefined;
  /**
   * `true` when a gateway answered a create (502, 504): it gave up on the server behind it, which may have created
   * the record all the same. Undefined for any other status or call.
   */
  declare readonly mayHaveSucceeded: boolean | undefined;

  constructor(
    init: APIErrorInit & { retryAfter?: number | undefined; mayHaveSucceeded?: boolean | undefined },
  ) {
    super(init);
    given(this, { retryAfter: init.retryAfter, mayHaveSucceeded: init.mayHaveSucceeded });
  }

  protected override summary(): Record<string, unknown> {
    return { ...super.summary(), retryAfter: this.retryAfter, mayHaveSucceeded: this.mayHaveSucceeded };
  }
}

/** Machine-readable condition of a Catalog error; branch on this, never on `msg`. */
export type CatalogErrorCode =
  | 'request_unsuccessful'
  | 'no_items'
  | 'item_not_found'
  | 'invalid_purchase_code'
  | 'bad_request'
  | 'unknown';

/**
 * The Catalog error envelope `{ status: 'خطأ', msg }`. `msg` is kept byte-for-byte; `code` is stable.
 *
 * @example
 * catch (e) { if (e instanceof CatalogError) console.log(e.code, e.msg) }
 */
export class CatalogError extends APIError {
  declare readonly name: CatalogErrorName;
  /** Stable condition code, independent of the server's language. */
  readonly code: CatalogErrorCode;
  /** The envelope's `msg` as sent (often Arabic), a secret in it masked, and cut at 64 KiB (marked so) when longer. */
  declare readonly msg: string;

  constructor(init: APIErrorInit & { code: CatalogErrorCode; msg: string }) {
    super(init);
    this.code = init.code;
    aside(this, { msg: init.msg });
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), msg: this.msg };
  }

  protected override summary(): Record<string, unknown> {
    return { ...super.summary(), code: this.code };
  }
}

/**
 * Catalog: account details were refused (`طلب غير ناجح`, code `request_unsuccessful`). Answered with 401 (a wrong
 * key), the message names where the key came from, as every 401's does. @example `e instanceof AccountRequestError`
 */
export class AccountRequestError extends CatalogError {
  declare readonly name: 'AccountRequestError';
}

/**
 * Catalog: the key has no items (`لا يوجد أى منتجات`, code `no_items`). A wrong key gets this answer too: until a
 * call has succeeded with the key, the message says so and names `verifyCredentials()`.
 * @example `e instanceof NoItemsError`
 */
export class NoItemsError extends CatalogError {
  declare readonly name: 'NoItemsError';
}

/**
 * Catalog: no item has that id (`المنتج غير موجود`, code `item_not_found`). A wrong key gets this answer too: until
 * a call has succeeded with the key, the message says so and names `verifyCredentials()`.
 * @example `e instanceof ItemNotFoundError`
 */
export class ItemNotFoundError extends CatalogError {
  declare readonly name: 'ItemNotFoundError';
}

/**
 * Catalog: the purchase code is not valid (`كود الشراء غير صحيح`, code `invalid_purchase_code`). A wrong key gets
 * this answer too: until a call has succeeded with the key, the message says so and names `verifyCredentials()`.
 * @example `e instanceof InvalidPurchaseCodeError`
 */
export class InvalidPurchaseCodeError extends CatalogError {
  declare readonly name: 'InvalidPurchaseCodeError';
}

/** What a connection error knows beyond its message. */
export interface APIConnectionErrorInit {
  /** The error behind it: fetch's own (key scrubbed), or the last answer's error behind a timeout. */
  cause?: unknown;
  /** The system error code, such as `ECONNREFUSED`, when there is one. */
  code?: string | undefined;
  /** Whether a request left and may have been acted on. Default true: only a proof that nothing left says no. */
  mayHaveSucceeded?: boolean | undefined;
}

/**
 * No answer: the connection failed (refused, reset, DNS). `mayHaveSucceeded` says whether the server may
 * have acted anyway (a create cut mid-flight may have created): check before sending a create again.
 * @example catch (e) { if (e instanceof APIConnectionError && !e.mayHaveSucceeded) await retryLater() }
 */
export class APIConnectionError extends ContentPlatformError {
  declare readonly name: 'APIConnectionError' | 'APIConnectionTimeoutError';
  /** The system error code, such as `ECONNREFUSED` or `ECONNRESET`, when there is one. */
  declare readonly code: string | undefined;
  /** `false` when no request reached the server (refused, DNS); `true` when one left and got no answer. */
  declare readonly mayHaveSucceeded: boolean;

  constructor(message: string, init: APIConnectionErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    given(this, { code: init.code });
    this.mayHaveSucceeded = init.mayHaveSucceeded ?? true;
  }

  protected override summary(): Record<string, unknown> {
    return { ...super.summary(), code: this.code, mayHaveSucceeded: this.mayHaveSucceeded };
  }
}

/** No answer within the timeout (per attempt, or the overall deadline). @example `e instanceof APIConnectionTimeoutError` */
export class APIConnectionTimeoutError extends APIConnectionError {
  declare readonly name: 'APIConnectionTimeoutError';
}

/** The caller aborted the call through its `signal`. It is never retried. @example `e instanceof APIUserAbortError` */
export class APIUserAbortError extends ContentPlatformError {
  declare readonly name: 'APIUserAbortError';
}

/** One problem found in a response body, with the path to the offending field. */
export interface ValidationIssue {
  /** Where in the body, e.g. `['data', 0, 'id']`. */
  path: PropertyKey[];
  /** What was wrong. */
  message: string;
}

/**
 * A 2xx answer whose body is not JSON or does not fit the expected shape. `body` is the raw body.
 *
 * @example
 * catch (e) { if (e instanceof ResponseValidationError) console.log(e.issues, e.body) }
 */
export class ResponseValidationError extends ContentPlatformError {
  declare readonly name: 'ResponseValidationError' | 'ResponseTooLargeError';
  /** What did not fit, the first 20 (the message counts the rest); empty when the body was not JSON at all. */
  declare readonly issues: ValidationIssue[];
  /**
   * The body as received: parsed JSON, or the raw text when it was not JSON; over 64 KiB, its first 64 KiB as
   * text ending with `… [cut: the body was longer than 65536 bytes]`.
   */
  declare readonly body: unknown;
  /** HTTP status of the answer. */
  readonly status: number;

  constructor(init: { message: string; issues: ValidationIssue[]; body: unknown; status: number }) {
    super(init.message);
    aside(this, { issues: init.issues, body: init.body });
    this.status = init.status;
  }

  override toJSON(): Record<string, unknown> {
    return defined({ ...super.toJSON(), issues: this.issues, body: this.body });
  }

  protected override summary(): Record<string, unknown> {
    return { status: this.status, ...super.summary() };
  }
}

/**
 * A 2xx answer whose body grew past `maxResponseBytes` (counted after decompression): the SDK stopped reading
 * it there and did not retry. `limit` is the limit that applied; nothing of the body is kept.
 *
 * @example
 * catch (e) { if (e instanceof ResponseTooLargeError) console.log(`over ${e.limit} bytes`) }
 */
export class ResponseTooLargeError extends ResponseValidationError {
  declare readonly name: 'ResponseTooLargeError';
  /** The `maxResponseBytes` the call ran with. */
  readonly limit: number;

  constructor(init: { message: string; status: number; limit: number }) {
    super({ message: init.message, issues: [], body: undefined, status: init.status });
    this.limit = init.limit;
  }

  protected override summary(): Record<string, unknown> {
    return { ...super.summary(), limit: this.limit };
  }
}

/**
 * Bad input, caught before any request was sent (a `per_page` of 30, an id of `'../x'`, a missing key).
 *
 * @example
 * catch (e) { if (e instanceof InvalidParamsError) console.log(e.param) }
 */
export class InvalidParamsError extends ContentPlatformError {
  declare readonly name: 'InvalidParamsError';
  /** The offending parameter or option, when there is one. */
  declare readonly param: string | undefined;

  constructor(message: string, param?: string) {
    super(message);
    given(this, { param });
  }

  protected override summary(): Record<string, unknown> {
    return { ...super.summary(), param: this.param };
  }
}

// Each class's `name` on its prototype (as the built-in errors have it), set here rather than in a static block:
// a bundler renames a class that refers to itself in its body (`class _NotFoundError`), changing `Class.name`.
// Explicit strings, not `type.name`: a minifier may rename the classes themselves.
const NAMES: [{ prototype: object }, string][] = [
  [ContentPlatformError, 'ContentPlatformError'],
  [APIError, 'APIError'],
  [BadRequestError, 'BadRequestError'],
  [AuthenticationError, 'AuthenticationError'],
  [PermissionDeniedError, 'PermissionDeniedError'],
  [NotFoundError, 'NotFoundError'],
  [UnprocessableEntityError, 'UnprocessableEntityError'],
  [RateLimitError, 'RateLimitError'],
  [InternalServerError, 'InternalServerError'],
  [CatalogError, 'CatalogError'],
  [AccountRequestError, 'AccountRequestError'],
  [NoItemsError, 'NoItemsError'],
  [ItemNotFoundError, 'ItemNotFoundError'],
  [InvalidPurchaseCodeError, 'InvalidPurchaseCodeError'],
  [APIConnectionError, 'APIConnectionError'],
  [APIConnectionTimeoutError, 'APIConnectionTimeoutError'],
  [APIUserAbortError, 'APIUserAbortError'],
  [ResponseValidationError, 'ResponseValidationError'],
  [ResponseTooLargeError, 'ResponseTooLargeError'],
  [InvalidParamsError, 'InvalidParamsError'],
];
for (const [type, name] of NAMES) named(type, name);

/**
 * Sets an error's bulky fields (an answer's headers and body, details its message already states) as own fields
 * that are not enumerable. Node prints an uncaught error with `util.inspect(error, { customInspect: false })`
 * (Node 22 and 24), which skips `[INSPECT]` and shows every enumerable own field: only the short facts stay so.
 */
function aside(error: object, fields: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(fields))
    Object.defineProperty(error, name, { value, enumerable: false, configurable: true });
}

/**
 * Sets the short facts as own fields, enumerable only when they have a value: Node's uncaught-error printer shows the
 * enumerable ones, and so no `requestId: undefined`; an undefined one is still there to read (`'code' in error`).
 */
function given(error: object, fields: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(fields))
    Object.defineProperty(error, name, {
      value,
      enumerable: value !== undefined,
      configurable: true,
      writable: true,
    });
}

/**
 * `fields` without those that are undefined: what `toJSON()` and `util.inspect` show, and the overrides a derived
 * client takes over its parent's options.
 */
export function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/**
 * Records what the call went through on its error (the fields are read-only to users, set once here); a request id
 * keeps no raw control character (`\u001b` text), since logs and terminals show it. An unknown one is not shown.
 */
export function recordCall<E extends ContentPlatformError>(
  error: E,
  attempts: number,
  requestId: string | undefined,
): E {
  (error as { attempts: number }).attempts = attempts;
  given(error, { requestId: requestId && escapeControls(requestId) });
  return error;
}
