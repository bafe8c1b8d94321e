import { maskCode, type Scrub } from './redact.js';

/**
 * Deepest nesting of a JSON body the SDK keeps on an error. No API answer nests past a handful of levels; a
 * deeper one would overflow the stack of whoever describes it (`JSON.stringify`, `String`, a logger).
 */
export const MAX_JSON_DEPTH = 64;

/** Thrown inside `scrubParsed` only, to unwind a body nested past the limit. */
const TOO_DEEP = Symbol('too deep');

/**
 * A parsed JSON body with `scrub` applied to every string in it, keys included: a key the server escaped
 * (`\/`, `\u00XX`) is whole again once parsed, whatever the raw text showed. A `purchase_code` field shows its
 * last four characters. `undefined` when the body nests deeper than `MAX_JSON_DEPTH`.
 */
export function scrubParsed(body: unknown, scrub: Scrub): unknown {
  try {
    return scrubbed(body, scrub, 0);
  } catch (error) {
    if (error === TOO_DEEP) return undefined;
    throw error;
  }
}

function scrubbed(value: unknown, scrub: Scrub, depth: number): unknown {
  if (typeof value === 'string') return scrub(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_JSON_DEPTH) throw TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => scrubbed(item, scrub, depth + 1));
  // fromEntries defines own properties: a key named "__proto__" stays a key instead of replacing the prototype.
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [
      scrub(name),
      // Any purchase code a body echoes shows by its last four characters, whichever code it is.
      name === 'purchase_code' && typeof item === 'string'
        ? maskCode(scrub(item))
        : scrubbed(item, scrub, depth + 1),
    ]),
  );
}
