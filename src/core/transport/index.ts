// The transport room: the one door to ky and the network. It holds the client's ky instance (policy stated as ky
// options), the call itself (options, request, per-attempt fetch with its body limit, retries, turns under the
// throttle, the call's trace) and the promise every call returns.

export type { Hooks, KyInstance } from 'ky';
export { APIPromise, deferred, rejected, type WithResponse } from './api-promise.js';
export { HttpClient } from './http.js';
export { derivedFrom, parentOf } from './lineage.js';
export type { Log, LogFields, Logger, LogLevel } from './log.js';
export {
  type AppInfo,
  type ClientOptions,
  checkSent,
  type FetchLike,
  type HeaderInput,
  mergeOptions,
  positive,
  REQUEST_OPTIONS,
  type RequestOptions,
  resolveOptions,
} from './options.js';
export type { ReadError } from './parse.js';
export { aboutId, checkId, type Id, path } from './path.js';
export type { ApiConfig, Body, Query } from './request.js';
export type { Method } from './retry.js';
export { lazyParsers, type Parsers, type ResponseSchema, type SchemaRef, schemaRef } from './schema.js';
export type {
  ApiName,
  AttemptEnd,
  AttemptStart,
  AttemptTelemetry,
  OperationEnd,
  OperationEvent,
  OperationStart,
  OperationTelemetry,
  Telemetry,
} from './telemetry.js';
export type { CallInfo } from './trace.js';
