// The pages room: a Management list's `Page`, the `PagePromise` that walks it, and the guards that keep a walk
// from looping or stopping early in silence. Built on the transport's `APIPromise`.

export { checkPage } from './checks.js';
export type { Identified, PageMeta, RawPage } from './meta.js';
export {
  deferredPage,
  Page,
  type PageFetcher,
  PagePromise,
  type ToArrayOptions,
  type WalkOptions,
  type WalkProgress,
} from './page.js';
