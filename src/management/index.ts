export type {
  Identified,
  PageFetcher,
  PageMeta,
  RawPage,
  ToArrayOptions,
  WalkOptions,
  WalkProgress,
} from '../core/pages/index.js';
export { Page, PagePromise } from '../core/pages/index.js';
export { ManagementClient, type ManagementClientOptions } from './client.js';
export { Domains } from './domains.js';
export type {
  DomainCreateParams,
  DomainListParams,
  DomainUpdateParams,
  PixelCreateParams,
  PixelListParams,
  PixelUpdateParams,
} from './params.js';
export { isKnownPixelType, PIXEL_TYPES, type PixelType } from './pixel-types.js';
export { Pixels } from './pixels.js';
export type { DeleteReceipt, Domain, Pixel } from './schemas.js';
