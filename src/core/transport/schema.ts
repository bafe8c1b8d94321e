import { type $ZodRawIssue, compile, util, type $ZodType as ZodType } from 'zod/v4/core';

// The schemas are built on zod/mini: zod classic's chainable classes cannot be tree-shaken (its JSON Schema
// support alone is ~18 KB minified), which tripled the bundle. See bench/RESULTS.md.

/**
 * Parse context: English issue messages, as zod classic gives, without changing zod's global config; and
 * `abortEarly` (zod's own, the one `z.validate` sets): a body that fails stops at its first bad record and field
 * instead of collecting an issue for every one (10 000 bad items cost hundreds of MB of issues). A success parses
 * the same either way.
 */
export const PARSE_CONTEXT = { error: englishIssue, abortEarly: true };

// What a size is counted in, per kind of value (zod's English locale's words).
const UNITS: Record<string, string> = {
  string: 'characters',
  file: 'bytes',
  array: 'items',
  set: 'items',
  map: 'entries',
};

/**
 * An issue's message in English, word for word as zod's English locale (`zod/v4/locales/en`) says it, for every issue
 * a schema of ours can raise; the kinds none raises (a string format other than a pattern, a multiple, unknown keys,
 * a discriminator) say `Invalid input` or name their format by its code, where the locale carries words and a
 * dictionary of 30 formats that would only weigh on the bundle.
 */
export function englishIssue(issue: $ZodRawIssue): string {
  const any = issue as $ZodRawIssue & Record<string, never>;
  switch (issue.code) {
    case 'invalid_type':
      return `Invalid input: expected ${typeName(any.expected)}, received ${typeName(util.parsedType(issue.input), issue.input)}`;
    case 'invalid_value':
      return any.values.length === 1
        ? `Invalid input: expected ${util.stringifyPrimitive(any.values[0])}`
        : `Invalid option: expected one of ${util.joinValues(any.values, '|')}`;
    case 'too_big':
    case 'too_small': {
      const big = issue.code === 'too_big';
      const adj = any.exact ? 'exactly ' : any.inclusive ? (big ? '<=' : '>=') : big ? '<' : '>';
      const origin = big ? (any.origin ?? 'value') : any.origin;
      const bound = String((big ? any.maximum : any.minimum) as unknown);
      const head = `Too ${big ? 'big' : 'small'}: expected ${origin}`;
      const unit = UNITS[any.origin];
      return unit === undefined ? `${head} to be ${adj}${bound}` : `${head} to have ${adj}${bound} ${unit}`;
    }
    case 'invalid_format':
      return any.format === 'regex'
        ? `Invalid string: must match pattern ${any.pattern}`
        : `Invalid ${any.format}`;
    case 'invalid_key':
      return `Invalid key in ${any.origin}`;
    default:
      // A union's issue (no schema here is discriminated or exclusive), and kinds no schema here raises.
      return 'Invalid input';
  }
}

/** A type's name in a message: `NaN` and the infinities by their value. */
function typeName(type: string, input?: unknown): string {
  if (type === 'number' && typeof input === 'number' && !Number.isFinite(input)) return String(input);
  return type === 'nan' ? 'NaN' : type;
}

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
