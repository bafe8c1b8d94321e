export { AccountResource } from './account.js';
export {
  CATALOG_MESSAGES,
  type CatalogCondition,
  catalogStatus,
  type LicenseKind,
  licenseKind,
  matchCatalogMessage,
  normalizeCatalogText,
} from './arabic.js';
export type { CacheSnapshot, CacheState, CacheStore, PurchaseCacheOptions } from './cache-types.js';
export { CatalogClient, type CatalogClientOptions } from './client.js';
export {
  type AudioItem,
  type ImageItem,
  isAudioItem,
  isImageItem,
  isVideoItem,
  type VideoItem,
} from './guards.js';
export { Items } from './items.js';
export { Purchases, type ValidateOptions } from './purchases.js';
export type { Account, AudioMedia, ImageMedia, Item, ItemMedia, Purchase, VideoMedia } from './schemas.js';
