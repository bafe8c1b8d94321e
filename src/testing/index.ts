/**
 * The in-memory reference server of the Content Platform API, for tests, examples and demos:
 * `createReferenceServer()` gives a fetch-style handler; `listen()` serves it over node:http.
 * The msw adapter lives in `content-platform-sdk/testing/msw`.
 * @module
 */
export type { Params as CatalogParams } from './catalog-params.js';
export { CATALOG_WORDS } from './catalog-words.js';
export {
  FaultController,
  type FaultDecision,
  type FaultSettings,
  isDroppedConnection,
  type ScriptedFault,
} from './faults.js';
export { encodePhpJson } from './json.js';
export type { LaravelPage, PageLink } from './laravel-page.js';
export type { FieldErrors } from './laravel-validation.js';
export { type ListeningServer, type ListenOptions, listen } from './node.js';
export type { RateLimitOptions } from './rate-limit.js';
export { type MediaKind, makeItem, SEED_CATALOG_KEYS, SEED_PURCHASE_CODES } from './seed-catalog.js';
export { type DomainSeed, type PixelSeed, SEED_MANAGEMENT_KEYS } from './seed-management.js';
export {
  createReferenceServer,
  type RecordedRequest,
  type ReferenceServer,
  type ReferenceServerOptions,
  SEED_FIXTURES,
} from './server.js';
export { ReferenceStore, type SeedOptions } from './store.js';
export {
  type Account,
  type Domain,
  type FetchHandler,
  type Flavor,
  type Item,
  type ItemMedia,
  type Locale,
  PIXEL_TYPES,
  type Pixel,
  type Purchase,
} from './types.js';
