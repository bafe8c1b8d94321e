import { ERROR_BODY_BYTES, ResponseValidationError, type Scrub, scrubParsed } from '../errors/index.js';

/** Where a list answer keeps its records, and the most it may hold (a page's `per_page`). */
export interface Records {
  /** The body's member that holds them (`data`, `items`); a body that is itself an array is the list. */
  key: string;
  /** The most records the answer may hold. */
  most: number;
  /** What holds that many, for the message: `'a page holds (per_page=10)'`. */
  why: string;
}

/** The answer being read, as far as a refusal names it. */
interface Read {
  text: string;
  response: Response;
  trace: { readonly label: string; readonly scrub: Scrub };
}

// Below this a whole parse costs a few MB at most, and a page of 100 records (~17 KB) pays nothing; above it the
// text is counted first, at about the cost of parsing it: JSON.parse gives each `{}` of a hostile list ~64 bytes.
const COUNT_TEXT_FROM = 256 * 1024;

/**
 * Refuses a list longer than the most its call can hold, before it is read: a long text is counted as text,
 * before JSON.parse (call it without `body`); a short one once parsed (pass its `body`), before the schema.
 * @throws {ResponseValidationError} naming the count and the most, its `body` without the records.
 */
export function refuseLong(read: Read, { key, most, why }: Records, ...parsed: [body: unknown] | []): void {
  const { text } = read;
  // A long text is counted before its parse, a short one after it: each list once.
  if (text.length > COUNT_TEXT_FROM === parsed.length > 0) return;
  let list: { count: number; root: boolean; rest: () => unknown } | undefined;
  if (parsed.length > 0) {
    const [body] = parsed;
    const found = Array.isArray(body) ? body : (body as Record<string, unknown> | null)?.[key];
    if (typeof found !== 'object' || found === null) return;
    const count = Array.isArray(found) ? found.length : Object.keys(found).length;
    // Nothing is built for a list that fits: this runs on every page.
    if (count > most) list = { count, root: found === body, rest: () => body };
  } else {
    const found = scan(text, key);
    // What is left of the body without the list is kept, when it is small.
    const rest = () =>
      found && text.length - found.end + found.start <= ERROR_BODY_BYTES
        ? JSON.parse(`${text.slice(0, found.start)}0${text.slice(found.end)}`)
        : {};
    if (found) list = { ...found, rest };
  }
  if (!list || list.count <= most) return;
  const { count, root } = list;
  const note = `(${count} records, not read)`;
  let body: unknown = note;
  if (!root) {
    try {
      const kept = scrubParsed({ ...(list.rest() as object), [key]: note }, read.trace.scrub);
      if (kept !== undefined && JSON.stringify(kept).length <= ERROR_BODY_BYTES) body = kept;
    } catch {
      // What is left of the body does not parse: the note alone is kept.
    }
  }
  const { status } = read.response;
  throw new ResponseValidationError({
    message:
      `${read.trace.label} answered ${status} with ${count} records in ${root ? 'the body' : JSON.stringify(key)}, ` +
      `more than the ${most} ${why}: the SDK refused them before reading them.`,
    issues: [{ path: root ? [] : [key], message: `Too many records: ${count}, the most is ${most}` }],
    body,
    status,
  });
}

/**
 * The list at `key` of a JSON object text (or the text itself, when it is an array), counted without parsing it:
 * its entries and where it starts and ends. The longest, should the key come twice. `undefined` when there is none.
 */
function scan(
  text: string,
  key: string,
): { count: number; start: number; end: number; root: boolean } | undefined {
  const first = text.search(/\S/);
  const quoted = JSON.stringify(key);
  let found: { count: number; start: number; end: number; root: boolean } | undefined;
  let depth = 0;
  let name = '';
  let at = -1;
  let start = 0;
  let commas = 0;
  let empty = true;
  for (let i = first; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Anything but a space or the closing bracket, directly inside the list, makes it non-empty.
    if (depth === at && c > 32 && c !== 93 && c !== 125) empty = false;
    if (c === 34) {
      const from = i;
      // To the closing quote (a string ends at the first one not escaped; not JSON when none does).
      do i = text.indexOf('"', i + 1);
      while (i > 0 && escaped(text, i));
      if (i < 0) break;
      // Directly inside the root object, the last string before a list opens is that list's name.
      if (depth === 1) name = text.slice(from, i + 1);
    } else if (c === 91 || c === 123) {
      depth += 1;
      if (at < 0 && (i === first ? c === 91 : depth === 2 && named(name, quoted, key))) {
        at = depth;
        start = i;
        commas = 0;
        empty = true;
      }
    } else if (c === 93 || c === 125) {
      if (depth === at) {
        const count = empty ? 0 : commas + 1;
        if (!found || count > found.count) found = { count, start, end: i + 1, root: at === 1 };
        at = -1;
      }
      depth -= 1;
      // More closing brackets than opening ones: not JSON, which its parse will say.
      if (depth < 0) break;
    } else if (c === 44 && depth === at) commas += 1;
  }
  return found;
}

/** Whether the quote at `quote` is escaped: an odd run of backslashes before it. */
function escaped(text: string, quote: number): boolean {
  let at = quote - 1;
  while (text.charCodeAt(at) === 92) at -= 1;
  return (quote - at) % 2 === 0;
}

/** Whether a member's name (`"data"`, as written in the text) is `key`, escapes read as JSON reads them. */
function named(name: string, quoted: string, key: string): boolean {
  if (name === quoted) return true;
  if (!name.includes('\\')) return false;
  try {
    return JSON.parse(name) === key;
  } catch {
    return false;
  }
}
