/**
 * Base of every error this SDK throws. Catch it to handle any failure of a call.
 *
 * @example
 * try { await mgmt.pixels.get(1); } catch (e) { if (e instanceof ContentPlatformError) console.error(e.name); }
 */
export class ContentPlatformError extends Error {
  override name = 'ContentPlatformError';

  /** A plain object for logs and JSON: class name, message and the error's own data, never the key. */
  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message };
  }
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
  override name = 'APIError';
  /** HTTP status of the answer (200 for a Catalog error envelope sent with 200). */
  readonly status: number;
  /** Headers of the answer, such as `X-RateLimit-Remaining` or `Retry-After`. */
  readonly headers: Headers;
  /** Body of the answer: parsed JSON, or the raw text when it is not JSON. */
  readonly body: unknown;

  constructor(init: APIErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.headers = init.headers;
    this.body = init.body;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), status: this.status, body: this.body };
  }
}

/** HTTP 400: the server rejected a parameter. @example `catch (e) { if (e instanceof BadRequestError) … }` */
export class BadRequestError extends APIError {
  override name = 'BadRequestError';
}

/** HTTP 401, or a redirect to a login page: the API key is missing or rejected. @example `e instanceof AuthenticationError` */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}

/** HTTP 403: the key is valid but its plan has no access to this feature. @example `e instanceof PermissionDeniedError` */
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}

/** HTTP 404: unknown id, another workspace's id, or an unknown route. @example `e instanceof NotFoundError` */
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}

/**
 * HTTP 422: validation failed. `fieldErrors` maps each field to the server's messages, verbatim.
 *
 * @example
 * catch (e) { if (e instanceof UnprocessableEntityError) console.log(e.fieldErrors.name?.[0]) }
 */
export class UnprocessableEntityError extends APIError {
  override name = 'UnprocessableEntityError';
  /** Field name → messages, as the server sent them (they may be translated, e.g. Arabic). */
  readonly fieldErrors: Record<string, string[]>;

  constructor(init: APIErrorInit & { fieldErrors?: Record<string, string[]> }) {
    super(init);
    this.fieldErrors = init.fieldErrors ?? {};
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
  override name = 'RateLimitError';
  /** Seconds to wait, from `Retry-After` (seconds or HTTP date) or `X-RateLimit-Reset`; undefined if absent. */
  readonly retryAfter: number | undefined;

  constructor(init: APIErrorInit & { retryAfter?: number | undefined }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), retryAfter: this.retryAfter };
  }
}

/** HTTP 500 or above: the server failed. @example `e instanceof InternalServerError` */
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
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
  override name = 'CatalogError';
  /** Stable condition code, independent of the server's language. */
  readonly code: CatalogErrorCode;
  /** The envelope's `msg`, exactly as sent (often Arabic). */
  readonly msg: string;

  constructor(init: APIErrorInit & { code: CatalogErrorCode; msg: string }) {
    super(init);
    this.code = init.code;
    this.msg = init.msg;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), code: this.code, msg: this.msg };
  }
}

/** Catalog: account details were refused (`طلب غير ناجح`, code `request_unsuccessful`). @example `e instanceof AccountRequestError` */
export class AccountRequestError extends CatalogError {
  override name = 'AccountRequestError';
}

/** Catalog: the key has no items (`لا يوجد أى منتجات`, code `no_items`). @example `e instanceof NoItemsError` */
export class NoItemsError extends CatalogError {
  override name = 'NoItemsError';
}

/** Catalog: no item has that id (`المنتج غير موجود`, code `item_not_found`). @example `e instanceof ItemNotFoundError` */
export class ItemNotFoundError extends CatalogError {
  override name = 'ItemNotFoundError';
}

/** Catalog: the purchase code is not valid (`كود الشراء غير صحيح`, code `invalid_purchase_code`). @example `e instanceof InvalidPurchaseCodeError` */
export class InvalidPurchaseCodeError extends CatalogError {
  override name = 'InvalidPurchaseCodeError';
}

/** No answer: the connection failed (refused, reset, DNS). @example `e instanceof APIConnectionError` */
export class APIConnectionError extends ContentPlatformError {
  override name = 'APIConnectionError';
}

/** No answer within the timeout (per attempt, or the overall deadline). @example `e instanceof APIConnectionTimeoutError` */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = 'APIConnectionTimeoutError';
}

/** The caller aborted the call through its `signal`. It is never retried. @example `e instanceof APIUserAbortError` */
export class APIUserAbortError extends ContentPlatformError {
  override name = 'APIUserAbortError';
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
  override name = 'ResponseValidationError';
  /** What did not fit; empty when the body was not JSON at all. */
  readonly issues: ValidationIssue[];
  /** The body as received: parsed JSON, or the raw text when it was not JSON. */
  readonly body: unknown;
  /** HTTP status of the answer. */
  readonly status: number;

  constructor(init: { message: string; issues: ValidationIssue[]; body: unknown; status: number }) {
    super(init.message);
    this.issues = init.issues;
    this.body = init.body;
    this.status = init.status;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), status: this.status, issues: this.issues, body: this.body };
  }
}

/**
 * Bad input, caught before any request was sent (a `per_page` of 30, an id of `'../x'`, a missing key).
 *
 * @example
 * catch (e) { if (e instanceof InvalidParamsError) console.log(e.param) }
 */
export class InvalidParamsError extends ContentPlatformError {
  override name = 'InvalidParamsError';
  /** The offending parameter or option, when there is one. */
  readonly param: string | undefined;

  constructor(message: string, param?: string) {
    super(message);
    this.param = param;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), param: this.param };
  }
}
