export * from './catalog/index.js';
export type { WithResponse } from './core/api-promise.js';
export { APIPromise } from './core/api-promise.js';
export type {
  AnyContentPlatformError,
  APIConnectionErrorInit,
  APIErrorInit,
  APIErrorName,
  CatalogErrorCode,
  CatalogErrorName,
  ContentPlatformErrorName,
  ValidationIssue,
} from './core/errors.js';
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
} from './core/errors.js';
export type { Hooks, KyInstance } from './core/http.js';
export type { LogFields } from './core/log.js';
export type { AppInfo, ClientOptions, FetchLike, Logger, LogLevel, RequestOptions } from './core/options.js';
export type { Id } from './core/path.js';
export { redactUrl } from './core/redact.js';
export type { RateLimitOptions, RateLimitSnapshot } from './core/throttle.js';
export * from './management/index.js';
export { VERSION } from './version.js';
