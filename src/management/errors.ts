import type { APIError } from '../core/errors/index.js';
import { type Answer, type ErrorDetail, statusError } from '../core/errors/index.js';

/**
 * Reads a Laravel error body: `{ message: '…' }`, or on 422 the field map the real server puts under
 * `message` (`{ message: { name: ['…'] } }`), or the usual `{ message, errors: { … } }`. Messages stay
 * verbatim (they follow the user's locale). `undefined` for a success, or a body that is not such a shape.
 */
export function readManagementError(answer: Answer): APIError | undefined {
  if (answer.status < 400) return undefined;
  const { body } = answer;
  if (!answer.isJson || !isRecord(body)) return undefined;
  const detail: ErrorDetail = {};
  const fromMessage = fieldMap(body.message);
  const fieldErrors = fromMessage ?? fieldMap(body.errors);
  if (typeof body.message === 'string') detail.detail = body.message;
  else if (fieldErrors) {
    const first = Object.values(fieldErrors).find((messages) => messages.length > 0)?.[0];
    if (first !== undefined) detail.detail = first;
  }
  if (fieldErrors) detail.fieldErrors = fieldErrors;
  if (detail.detail === undefined && detail.fieldErrors === undefined) return undefined;
  return statusError(answer, detail);
}

/** A map of field name to messages; a single string message is taken as a list of one. */
function fieldMap(value: unknown): Record<string, string[]> | undefined {
  if (!isRecord(value)) return undefined;
  const out: [string, string[]][] = [];
  for (const [field, messages] of Object.entries(value)) {
    if (typeof messages === 'string') out.push([field, [messages]]);
    else if (Array.isArray(messages) && messages.every((m) => typeof m === 'string'))
      out.push([field, messages]);
    else return undefined;
  }
  // fromEntries defines own properties: a field named "__proto__" stays a field instead of replacing the prototype.
  return Object.fromEntries(out);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
