import type { $ZodIssue, ParseContext, $ZodType as ZodType } from 'zod/v4/core';

// The schemas are built on zod/mini: zod classic's chainable classes cannot be tree-shaken (its JSON Schema
// support alone is ~18 KB minified), which tripled the bundle. See bench/RESULTS.md.

/**
 * Parse context: `abortEarly` (zod's own, the one `z.validate` sets): a body that fails stops at its first bad record
 * and field instead of collecting an issue for every one (10 000 bad items cost hundreds of MB of issues). A success
 * parses the same either way. A failure is parsed again with English messages (`schema-messages.ts`, loaded then).
 */
// `abortEarly` is in zod's internal context type only (`z.validate` sets it): the public one is widened to carry it.
export const PARSE_CONTEXT: ParseContext<$ZodIssue> = { abortEarly: true } as ParseContext<$ZodIssue>;

/**
 * A response schema named, not held: the schemas and their parsers live in the API's parsers chunk, loaded on the
 * first call (the main entry carries none of them). `T` is what the schema parses an answer to.
 */
export interface SchemaRef<T> {
  /** The schema's name in the API's parsers chunk (`PixelResponseSchema`). */
  readonly schema: string;
  /** Never set: carries `T`. */
  readonly output?: T;
}

/** Names a response schema of the API's parsers chunk (see `SchemaRef`). */
export function schemaRef<T>(schema: string): SchemaRef<T> {
  return { schema };
}

/** What a call parses its answer with: a schema, or the name of one in the API's parsers chunk. */
export type ResponseSchema<T> = ZodType<T> | SchemaRef<T>;

/**
 * An API's response schemas by name, each with the parser zod's generator wrote for it at build time installed
 * (`withParser`; scripts/generate-parsers.ts): a 100-pixel page parses ~3× faster than with zod's interpreter and
 * allocates far less, and no shipped entry carries zod's code generator. A body the parser refuses goes through
 * zod's interpreter: same result, same issues.
 */
export type Parsers = ReadonlyMap<string, ZodType>;

/** An API's parsers chunk, loaded once, on first use; a load that failed is tried again by the next call. */
export function lazyParsers(load: () => Promise<{ parsers: Parsers }>): () => Promise<Parsers> {
  let loading: Promise<Parsers> | undefined;
  return () => {
    loading ??= load().then(
      (chunk) => chunk.parsers,
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
}
