import * as z from 'zod/mini';
import type { RawPage } from '../core/pages/index.js';
import type { PixelType } from './pixel-types.js';

/**
 * An id, a count or a page number: a whole number; a numeric string (some proxies and PHP setups send one) is read
 * as its number.
 */
const WholeSchema = z.union([
  z.int().check(z.nonnegative()),
  z.pipe(z.string().check(z.regex(/^\d{1,15}$/)), z.transform(Number)),
]);

/** A timestamp as sent, e.g. `2025-01-15T10:20:30.000000Z` (microseconds), kept as the string. */
const TimestampSchema = z.string();

/**
 * A type newer than this SDK is kept as sent rather than rejected; the type still offers the known ones.
 */
const PixelTypeSchema = z.pipe(
  z.string(),
  z.transform((type: string): PixelType | (string & {}) => type),
);

/** A tracking pixel: an ad or analytics network and its pixel id. */
export const PixelSchema = z.object({
  id: WholeSchema,
  /** Up to 32 characters, unique per user. */
  name: z.string(),
  /** One of `PIXEL_TYPES`, or a newer type kept as sent. */
  type: PixelTypeSchema,
  /** The pixel id on its network. */
  value: z.string(),
  /** Sent by the real servers; absent from a server that only follows the spec. */
  created_at: z.optional(TimestampSchema),
  updated_at: z.optional(TimestampSchema),
});
/** A tracking pixel: an ad or analytics network and its pixel id. */
export interface Pixel {
  /** The pixel's id, assigned by the server (a numeric string as sent is read as its number). */
  id: number;
  /** The pixel's name: up to 32 characters, unique per user. */
  name: string;
  /** The network: one of `PIXEL_TYPES`, or a type newer than this SDK, kept as sent. */
  type: PixelType | (string & {});
  /** The pixel id on its network. */
  value: string;
  /** When it was created, as sent (e.g. `2025-01-15T10:20:30.000000Z`); absent from a server that only follows the spec. */
  created_at?: string | undefined;
  /** When it last changed, as sent (e.g. `2025-01-15T10:20:30.000000Z`); absent from a server that only follows the spec. */
  updated_at?: string | undefined;
}

/** A custom domain, with the pages its root and unknown paths redirect to. */
export const DomainSchema = z.object({
  id: WholeSchema,
  /** The domain name; it cannot change. */
  name: z.string(),
  /** Protocol and name, e.g. `https://go.example.com`; sent by the real servers. */
  url: z.optional(z.string()),
  /** Where the domain's root redirects; `null` when not set. */
  index_page: z._default(z.nullable(z.string()), null),
  /** Where unknown paths redirect; `null` when not set. */
  not_found_page: z._default(z.nullable(z.string()), null),
  created_at: z.optional(TimestampSchema),
  updated_at: z.optional(TimestampSchema),
});
/** A custom domain, with the pages its root and unknown paths redirect to. */
export interface Domain {
  /** The domain's id, assigned by the server (a numeric string as sent is read as its number). */
  id: number;
  /** The domain name, e.g. `go.example.com`; it cannot change after creation. */
  name: string;
  /** Protocol and name, e.g. `https://go.example.com`; sent by the real servers, absent from a spec-only one. */
  url?: string | undefined;
  /** The page the domain's root redirects to; `null` when not set. */
  index_page: string | null;
  /** The page unknown paths (404) redirect to; `null` when not set. */
  not_found_page: string | null;
  /** When it was created, as sent (e.g. `2025-01-15T10:20:30.000000Z`); absent from a server that only follows the spec. */
  created_at?: string | undefined;
  /** When it last changed, as sent (e.g. `2025-01-15T10:20:30.000000Z`); absent from a server that only follows the spec. */
  updated_at?: string | undefined;
}

/** The answer to a delete: which record went away. */
export const DeleteReceiptSchema = z.object({
  id: WholeSchema,
  /** `'pixel'` or `'domain'`. */
  object: z.string(),
  deleted: z.boolean(),
});
/** The answer to a delete: which record went away. */
export interface DeleteReceipt {
  /** The id of the deleted record. */
  id: number;
  /** What was deleted: `'pixel'` or `'domain'`. */
  object: string;
  /** `true` when the record was deleted. */
  deleted: boolean;
}

/** Accepts `{ data: entity, status }` (show, store, update) or the bare entity; gives the entity. */
export function entityResponse<T>(entity: z.ZodMiniType<T>): z.ZodMiniType<T> {
  return z.union([
    z.pipe(
      z.object({ data: entity }),
      z.transform((body: { data: T }): T => body.data),
    ),
    entity,
  ]);
}

/** Laravel's `meta`; each field optional, so a partial one still reads. Its `links` and `path` are ignored. */
const PageMetaSchema = z.object({
  current_page: z.optional(WholeSchema),
  last_page: z.optional(WholeSchema),
  per_page: z.optional(WholeSchema),
  total: z.optional(WholeSchema),
  from: z.optional(z.nullable(WholeSchema)),
  to: z.optional(z.nullable(WholeSchema)),
});

/**
 * A list answer: Laravel's `{ data, links, meta }`, `{ data }` alone, or a bare array (one page).
 * `links` are never read: the next page is built from our own path and query.
 */
export function listResponse<T>(item: z.ZodMiniType<T>): z.ZodMiniType<RawPage<T>> {
  return z.union([
    z.pipe(
      z.array(item),
      z.transform((data: T[]): RawPage<T> => ({ data })),
    ),
    z.pipe(
      z.object({ data: z.array(item), meta: z.optional(z.nullable(PageMetaSchema)) }),
      z.transform(
        ({
          data,
          meta,
        }: {
          data: T[];
          meta?: z.output<typeof PageMetaSchema> | null | undefined;
        }): RawPage<T> => (meta ? { data, meta: strip(meta) } : { data }),
      ),
    ),
  ]);
}

/** Drops the keys the server left out, so `exactOptionalPropertyTypes` holds. */
function strip<T extends object>(meta: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(meta).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}

/** Show / store / update answer of a pixel. */
export const PixelResponseSchema = entityResponse(PixelSchema);
/** Show / store / update answer of a domain. */
export const DomainResponseSchema = entityResponse(DomainSchema);
/** One page of pixels. */
export const PixelPageSchema = listResponse(PixelSchema);
/** One page of domains. */
export const DomainPageSchema = listResponse(DomainSchema);
