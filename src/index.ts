export * from './catalog/index.js';
export type {
  AnyContentPlatformError,
  APIConnectionErrorInit,
  APIErrorInit,
  APIErrorName,
  CatalogErrorCode,
  CatalogErrorName,
  ContentPlatformErrorName,
  ValidationIssue,
} from './core/errors/index.js';
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
  redactUrl,
  UnprocessableEntityError,
} from './core/errors/index.js';
export type {
  ClientThrottle,
  FleetInit,
  RateLimitOptions,
  RateLimitSnapshot,
  RateLimitStore,
  ThrottleLog,
  Ticket,
} from './core/throttle/index.js';
export type {
  AppInfo,
  ClientOptions,
  FetchLike,
  HeaderInput,
  Hooks,
  Id,
  KyInstance,
  LogFields,
  Logger,
  LogLevel,
  RequestOptions,
  WithResponse,
} from './core/transport/index.js';
export { APIPromise } from './core/transport/index.js';
export * from './management/index.js';
export { VERSION } from './version.js';
