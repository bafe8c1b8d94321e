import { InvalidParamsError } from '../errors/index.js';

/** An identifier of a pixel, domain or item: a whole number, or its decimal string. */
export type Id = number | string;

/**
 * Checks an identifier before it reaches a URL: only non-negative whole numbers pass, so an empty
 * string, `'../x'`, `'1/2'` or `-1` can never change which resource a request names.
 * @throws {InvalidParamsError} when the id is not a non-negative whole number.
 */
export function checkId(id: unknown, name = 'id'): string {
  if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) return String(id);
  if (typeof id === 'string' && /^\d{1,15}$/.test(id)) return id;
  throw new InvalidParamsError(
    `${name} must be a non-negative whole number (such as 42 or '42'); got ${describe(id)}.`,
    name,
  );
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value);
  return value === null ? 'null' : typeof value;
}

/**
 * Tag for request paths: each interpolated value is checked as an id and URL-encoded.
 * @example path`pixels/${id}` // 'pixels/42'
 */
export function path(strings: TemplateStringsArray, ...ids: Id[]): string {
  let out = strings[0] ?? '';
  ids.forEach((id, i) => {
    out += encodeURIComponent(checkId(id)) + (strings[i + 1] ?? '');
  });
  return out;
}
