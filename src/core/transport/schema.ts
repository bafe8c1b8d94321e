import { type $ZodIssue, compile, type ParseContext, type $ZodType as ZodType } from 'zod/v4/core';

// The schemas are built on zod/mini: zod classic's chainable classes cannot be tree-shaken (its JSON Schema
// support alone is ~18 KB minified), which tripled the bundle. See bench/RESULTS.md.

/**
 * Parse context: `abortEarly` (zod's own, the one `z.validate` sets): a body that fails stops at its first bad record
 * and field instead of collecting an issue for every one (10 000 bad items cost hundreds of MB of issues). A success
 * parses the same either way. A failure is parsed again with English messages (`schema-messages.ts`, loaded then).
 */
// `abortEarly` is in zod's internal context type only (`z.validate` sets it): the public one is widened to carry it.
export const PARSE_CONTEXT: ParseContext<$ZodIssue> = { abortEarly: true } as ParseContext<$ZodIssue>;

const parsers = new WeakMap<ZodType, ZodType>();

/**
 * The schema zod has compiled to one generated function (`z.compile`): a 100-pixel page parses ~3× faster
 * and allocates far less. Compiled on first use, so importing the SDK compiles nothing. A body that fails,
 * or a runtime without `new Function` (Workers), goes through zod's own parser: same result, same issues.
 */
export function compiled<T>(schema: ZodType<T>): ZodType<T> {
  let parser = parsers.get(schema);
  if (parser === undefined) {
    parser = compile(schema);
    parsers.set(schema, parser);
  }
  return parser as ZodType<T>;
}
