import * as z from 'zod/mini';
import { checkKeys, InvalidParamsError, shown } from '../core/errors/index.js';
import { PIXEL_TYPES, type PixelType } from './pixel-types.js';

// The real server silently replaces a bad list value by its default (a typo returns the wrong data), so
// every parameter is checked here, before any request. Each `error` text says what is allowed.

const PER_PAGE = [10, 25, 50, 100] as const;
/** The spec's largest `per_page`: the most records a page may hold when the call sets none. */
export const MAX_PER_PAGE = Math.max(...PER_PAGE);
const oneOf = (values: readonly (string | number)[]) => ({ error: `one of ${values.join(', ')}` });
const text = { error: 'a non-empty string' };
const pixelType = z.enum(PIXEL_TYPES, oneOf(PIXEL_TYPES));
const nonEmpty = z.string(text).check(z.minLength(1, text));
const whole = { error: 'a whole number of at least 1' };
/** Set it, or pass `null` to clear it (sent as an empty field, which the server stores as null). */
const page = z.nullable(z.string(text).check(z.minLength(1, text)));

const listParams = {
  /** Free text to look for. */
  search: z.optional(z.string({ error: 'a string' })),
  /** The field `search` looks in: `'name'` (the default). */
  search_by: z.optional(z.enum(['name'], oneOf(['name']))),
  /** Pixels only: keep the pixels of this type. */
  type: z.optional(pixelType),
  /** `'id'` (date created, the default) or `'name'`. */
  sort_by: z.optional(z.enum(['id', 'name'], oneOf(['id', 'name']))),
  /** `'desc'` (the default) or `'asc'`. */
  sort: z.optional(z.enum(['desc', 'asc'], oneOf(['desc', 'asc']))),
  /** 10 (the default), 25, 50 or 100. */
  per_page: z.optional(z.literal(PER_PAGE, oneOf(PER_PAGE))),
  /** The page to start from (default 1). */
  page: z.optional(z.int(whole).check(z.minimum(1, whole))),
};

// Key order is the spec's, and so the query's order.
/** Checks pixels.list's parameters. */
export const PixelListParamsSchema = z.strictObject(listParams);
/** Filters, order and page size of `pixels.list`. */
export interface PixelListParams extends DomainListParams {
  /** Keep only the pixels of this network type (one of `PIXEL_TYPES`); default: every type. */
  type?: PixelType | undefined;
}

/** Checks domains.list's parameters. */
export const DomainListParamsSchema = z.omit(PixelListParamsSchema, { type: true });
/** Filters, order and page size of `domains.list`. */
export interface DomainListParams {
  /** Free text to look for in the `search_by` field; default: no search. */
  search?: string | undefined;
  /** The field `search` looks in: `'name'`, the only one (and the default). */
  search_by?: 'name' | undefined;
  /** Order by `'id'` (date created, the default) or `'name'`. */
  sort_by?: 'id' | 'name' | undefined;
  /** `'desc'` (descending, the default) or `'asc'`. */
  sort?: 'desc' | 'asc' | undefined;
  /** Records per page: 10 (the default), 25, 50 or 100. */
  per_page?: 10 | 25 | 50 | 100 | undefined;
  /** The page to start from, counting from 1 (the default). */
  page?: number | undefined;
}

// A pixel's name: the real servers refuse one over 32 characters (REAL-SERVERS.md), so it fails here, before sending.
const name32 = { error: 'a non-empty string of at most 32 characters' };
const pixelName = z.string(name32).check(z.minLength(1, name32), z.maxLength(32, name32));
/** Checks pixels.create's fields. */
export const PixelCreateParamsSchema = z.strictObject({ name: pixelName, type: pixelType, value: nonEmpty });
/** A new pixel: `name`, `type` and `value`, all required. */
export interface PixelCreateParams {
  /** The pixel's name: a non-empty string, up to 32 characters, unique per user. */
  name: string;
  /** The network: one of `PIXEL_TYPES`. */
  type: PixelType;
  /** The pixel id on its network: a non-empty string. */
  value: string;
}

/** Checks pixels.update's fields. */
export const PixelUpdateParamsSchema = z.partial(PixelCreateParamsSchema);
/** The pixel fields to change; only the ones given are sent. */
export interface PixelUpdateParams {
  /** A new name: a non-empty string, up to 32 characters, unique per user. */
  name?: string | undefined;
  /** A new network: one of `PIXEL_TYPES`. */
  type?: PixelType | undefined;
  /** A new pixel id on its network: a non-empty string. */
  value?: string | undefined;
}

/** Checks domains.create's fields. */
export const DomainCreateParamsSchema = z.strictObject({
  name: nonEmpty,
  index_page: z.optional(page),
  not_found_page: z.optional(page),
});
/**
 * A new domain: its `name`, and optionally the pages its root and unknown paths redirect to.
 */
export interface DomainCreateParams {
  /** The domain name, e.g. `go.example.com`: a non-empty string; it cannot change later. */
  name: string;
  /** The page the domain's root redirects to (a non-empty string); `null` leaves it unset. */
  index_page?: string | null | undefined;
  /** The page unknown paths (404) redirect to (a non-empty string); `null` leaves it unset. */
  not_found_page?: string | null | undefined;
}

/** Checks domains.update's fields (the name cannot change). */
export const DomainUpdateParamsSchema = z.omit(DomainCreateParamsSchema, { name: true });
/**
 * The domain pages to change (`null` clears one); only the ones given are sent. The name cannot change.
 */
export interface DomainUpdateParams {
  /** A new page for the domain's root to redirect to (a non-empty string), or `null` to clear it. */
  index_page?: string | null | undefined;
  /** A new page for unknown paths (404) to redirect to (a non-empty string), or `null` to clear it. */
  not_found_page?: string | null | undefined;
}

/**
 * Validates `params` against `schema`, returning the fields as form/query values (`null` becomes '').
 * @throws {InvalidParamsError} naming the parameter and what it allows, e.g. `per_page must be one of 10, 25, 50, 100`,
 * or an unknown one (`unknown parameter "perPage"; did you mean per_page?`).
 */
export function checkParams<S extends z.ZodMiniObject>(
  schema: S,
  params: unknown,
  where: string,
): Record<string, string | number | undefined> {
  const parsed = schema.safeParse(params);
  if (parsed.success) {
    const fields = Object.entries(parsed.data as Record<string, string | number | null | undefined>);
    return Object.fromEntries(fields.map(([key, value]) => [key, value === null ? '' : value]));
  }
  const issue = parsed.error.issues[0]!;
  // Throws, naming the nearest parameter when one is close (`per_page` for `perPage`).
  if (issue.code === 'unrecognized_keys') checkKeys(params, Object.keys(schema.shape), where, 'parameter');
  const name = issue.path[0];
  if (name === undefined) {
    throw new InvalidParamsError(`${where}: the parameters must be an object; got ${shown(params)}.`);
  }
  const value = (params as Record<PropertyKey, unknown>)[name];
  const param = String(name);
  if (value === undefined) {
    throw new InvalidParamsError(`${where}: ${param} is required: ${issue.message}.`, param);
  }
  throw new InvalidParamsError(`${where}: ${param} must be ${issue.message}; got ${shown(value)}.`, param);
}
