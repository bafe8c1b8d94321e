import { InvalidParamsError, ResponseValidationError, shown } from '../errors/index.js';

/** An identifier of a pixel, domain or item: a whole number, or its decimal string. */
export type Id = number | string;

/**
 * Checks an identifier before it reaches a URL: only positive whole numbers pass (ids start at 1), so an empty
 * string, `'../x'`, `'1/2'`, `0` or `-1` can never change which resource a request names, nor be sent at all.
 * @throws {InvalidParamsError} when the id is not a positive whole number.
 */
export function checkId(id: unknown, name = 'id'): string {
  if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) return String(id);
  if (typeof id === 'string' && /^\d{1,15}$/.test(id) && /[1-9]/.test(id)) return id;
  throw new InvalidParamsError(
    `${name} must be a positive whole number (such as 42 or '42'); got ${shown(id)}.`,
    name,
  );
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

/**
 * The `accept` check of a call about one record (get, update or delete by id): fails an answer about another id,
 * as a cache or proxy that ignores the path would serve another record. Ids compare as whole numbers, exactly
 * (`'007'` is 7; an answer's id past 2^53 matches none); `what` names the record in the message (`pixel`, `item`).
 * @throws {ResponseValidationError} when the answer's `id` is not the one asked for.
 */
export function aboutId(asked: Id, what: string) {
  const expected = Number(asked);
  return (record: { readonly id: number }, call: { readonly label: string }, response: Response): void => {
    // Only a safe integer stands for one id: a larger number is rounded, and could equal the one asked.
    if (Number.isSafeInteger(record.id) && record.id === expected) return;
    throw new ResponseValidationError({
      message: `${call.label}: the answer is about ${what} ${record.id}, not ${what} ${expected}.`,
      issues: [{ path: ['id'], message: `expected ${expected}, got ${record.id}` }],
      body: record,
      status: response.status,
    });
  };
}
