// Response validation's English messages: loaded the first time a body does not fit its schema (see `parse.ts`),
// so the main entry carries none of them.
import type { $ZodRawIssue } from 'zod/v4/core';

// zod's own helpers (its `util.parsedType`, `stringifyPrimitive`, `joinValues`), written again here: importing zod's
// `util` namespace into a chunk of its own would pull all of it into the main entry.
function parsedType(data: unknown): string {
  const type = typeof data;
  if (type === 'number') return Number.isNaN(data) ? 'nan' : 'number';
  if (type === 'object') {
    if (data === null) return 'null';
    if (Array.isArray(data)) return 'array';
    const proto = Object.getPrototypeOf(data);
    const ctor = (data as { constructor?: { name?: string } }).constructor;
    if (proto !== Object.prototype && ctor) return String(ctor.name);
  }
  return type;
}

function stringifyPrimitive(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') return `"${value}"`;
  return `${String(value)}`;
}

function joinValues(values: readonly unknown[], separator: string): string {
  return values.map(stringifyPrimitive).join(separator);
}

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
      return `Invalid input: expected ${typeName(any.expected)}, received ${typeName(parsedType(issue.input), issue.input)}`;
    case 'invalid_value':
      return any.values.length === 1
        ? `Invalid input: expected ${stringifyPrimitive(any.values[0])}`
        : `Invalid option: expected one of ${joinValues(any.values, '|')}`;
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
