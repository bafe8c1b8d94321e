/**
 * The in-memory reference server of the Content Platform API, for tests, examples and demos:
 * `createReferenceServer()` gives a fetch-style handler; `listen()` serves it over node:http.
 * The msw adapter lives in `content-platform-sdk/testing/msw`.
 * @module
 */
export { type ListeningServer, type ListenOptions, listen } from './adapters/node.js';
export type { Params as CatalogParams } from './catalog/params.js';
export type { StoredAccount, StoredItem, StoredItemMedia, StoredPurchase } from './catalog/records.js';
export { type MediaKind, makeItem, SEED_CATALOG_KEYS, SEED_PURCHASE_CODES } from './catalog/seed.js';
export { CATALOG_WORDS } from './catalog/words.js';
export {
  type ActiveFaultSettings,
  FaultController,
  type FaultDecision,
  type FaultSettings,
  isDroppedConnection,
  type ScriptedFault,
} from './core/faults.js';
export { encodePhpJson } from './core/json.js';
export type { ServerRateLimitOptions } from './core/rate-limit.js';
export type { FetchHandler, Flavor, Locale } from './core/types.js';
export type { LaravelPage, PageLink } from './management/laravel-page.js';
export type { FieldErrors } from './management/laravel-validation.js';
export { ACCEPTED_PIXEL_TYPES, type StoredDomain, type StoredPixel } from './management/records.js';
export { type DomainSeed, type PixelSeed, SEED_MANAGEMENT_KEYS } from './management/seed.js';
export {
  parseSeedFile,
  readSeedFile,
  type SeedDomain,
  type SeedFileFormat,
  type SeedFileOptions,
  type SeedOrigin,
  type SeedPixel,
  type SeedPurchase,
  SeedRecordError,
  type SeedRecords,
} from './seed-records.js';
export {
  createReferenceServer,
  type RecordedRequest,
  type ReferenceServer,
  type ReferenceServerOptions,
  SEED_FIXTURES,
} from './server.js';
export { ReferenceStore, type SeedOptions } from './store.js';
