export * from './catalog/index.js';
export type { WithResponse } from './core/transport/api-promise.js';
export { APIPromise } from './core/transport/api-promise.js';
export type {
  AnyContentPlatformError,
  APIConnectionErrorInit,
  APIErrorInit,
  APIErrorName,
  CatalogErrorCode,
  CatalogErrorName,
  ContentPlatformErrorName,
  ValidationIssue,
} from './core/errors/classes.js';
export {
  AccountRequestError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  CatalogError,
  ContentPlatformError,
  InternalServerError,
  InvalidParamsError,
  InvalidPurchaseCodeError,
  ItemNotFoundError,
  isContentPlatformError,
  NoItemsError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseTooLargeError,
  ResponseValidationError,
  UnprocessableEntityError,
} from './core/errors/classes.js';
export type { Hooks, KyInstance } from './core/transport/http.js';
export type { LogFields } from './core/transport/log.js';
export type { AppInfo, ClientOptions, FetchLike, Logger, LogLevel, RequestOptions } from './core/transport/options.js';
export type { Id } from './core/transport/path.js';
export { redactUrl } from './core/errors/redact.js';
export type { RateLimitOptions, RateLimitSnapshot } from './core/throttle/throttle.js';
export * from './management/index.js';
export { VERSION } from './version.js';
