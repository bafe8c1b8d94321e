import { InvalidParamsError } from './classes.js';
import { maskCode } from './redact.js';

/**
 * Refuses a key of `given` that is not in `known` (an options or params object): left unread, a typo would silently
 * fall back to a default or an env variable. The message names the nearest known name when one is close, else lists
 * them; it shows names only, never a value, never a name that holds `secret` (the API key), and a name over 16
 * characters only when it is camelCase words.
 * @throws {InvalidParamsError} naming the first unknown key, e.g. `CatalogClient: unknown option "baseUrl"; did you
 * mean siteUrl?`; or `given` is neither a (non-array) object nor `undefined` / `null`.
 */
export function checkKeys(
  given: unknown,
  known: readonly string[],
  where: string,
  noun = 'option',
  secret?: string,
): void {
  if (!isGiven(given, where, noun)) return;
  const name = Object.keys(given).find((key) => !known.includes(key));
  if (name === undefined) return;
  const near = nearest(name, known);
  // An identifier is shown (JSON-quoted) when it is short or camelCase words (`onDownloadProgress`, a typo of
  // `maxResponseBytes`); anything else, or a name holding the key, could be a pasted secret (`{ [apiKey]: 1 }`).
  const shown = /^[\w$-]{1,16}$|^[a-z]+(?:[A-Z][a-z]+)*$/.test(name) && !(secret && name.includes(secret));
  throw new InvalidParamsError(
    `${where}: unknown ${noun} ${shown ? JSON.stringify(name) : '(name not shown)'}; ${near ? `did you mean ${near}?` : `the ${noun}s are ${known.join(', ')}.`}`,
    shown ? name : undefined,
  );
}

/**
 * Whether `given` holds options: `false` for `undefined` or `null` (none, as a JavaScript caller may pass).
 * @throws {InvalidParamsError} `given` is not an object, or is an array (read, it passes for none or `{ 0: … }`).
 */
export function isGiven(given: unknown, where: string, noun = 'option'): given is object {
  if (given == null) return false;
  if (typeof given !== 'object' || Array.isArray(given))
    throw new InvalidParamsError(`${where}: the ${noun}s must be an object; got ${kindOf(given)}.`);
  return true;
}

/**
 * A value as a message shows it: a string JSON-quoted (`"5000"` is not `5000`), and past 16 characters masked to its
 * last four (`"***0001"`: a key or a purchase code pasted in the wrong place); a number, boolean or `undefined` as
 * it is (`-0` too); anything else by its kind, never its contents.
 */
export function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 16 ? maskCode(value) : value);
  if (Object.is(value, -0)) return '-0';
  if (value === undefined || /^[nb]/.test(typeof value)) return String(value);
  return kindOf(value);
}

/** A value's kind for a message (`null`, `an array`, `a string`…), never the value itself (it may be a secret). */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a${/^[aeiou]/.test(typeof value) ? 'n' : ''} ${typeof value}`;
}

// The other client's name for its URL option: what a copy from one client's setup to the other's carries.
const ALIASES: Record<string, string> = { baseurl: 'siteurl', siteurl: 'baseurl' };

/**
 * The name of `known` nearest `name` when it is close: the same in any case and without `_` or `-` (`per_page` for
 * `perPage`), an alias (`siteUrl` for `baseUrl`), or within an edit distance (a swap of two neighbours counts one)
 * of a third of its length (`timeout` for `timout`, `cache` for `cahce`); `undefined` otherwise.
 */
export function nearest(name: string, known: readonly string[]): string | undefined {
  const norm = (text: string) => text.toLowerCase().replace(/[-_]/g, '');
  const asked = norm(name);
  let best: string | undefined;
  let least = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const target = norm(candidate);
    // Edit distance with swaps (optimal string alignment), a row at a time.
    let before: number[] = [];
    let row = Array.from({ length: target.length + 1 }, (_, j) => j);
    for (let i = 1; i <= asked.length; i++) {
      const next = [i];
      for (let j = 1; j <= target.length; j++) {
        next[j] = Math.min(
          row[j]! + 1,
          next[j - 1]! + 1,
          row[j - 1]! + (asked[i - 1] === target[j - 1] ? 0 : 1),
        );
        if (asked[i - 1] === target[j - 2] && asked[i - 2] === target[j - 1])
          next[j] = Math.min(next[j]!, before[j - 2]! + 1);
      }
      [before, row] = [row, next];
    }
    const distance = ALIASES[asked] === target ? 0 : row[target.length]!;
    if (distance < least && distance <= Math.max(1, Math.floor(target.length / 3))) {
      least = distance;
      best = candidate;
    }
  }
  return best;
}
