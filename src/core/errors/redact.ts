/** Masks what must never be shown (the key, a call's purchase code) in a text bound for a message or a log. */
export type Scrub = (text: string) => string;

/** The scrub for a client's key, which shows as `***` (`withCodes` adds a call's purchase codes). */
export function scrubber(apiKey: string): Scrub {
  return masking(apiKey, '***');
}

/** `scrub` (a client's, built once) that also masks a call's purchase codes, and any `purchase_code` field. */
export function withCodes(scrub: Scrub, codes: readonly string[]): Scrub {
  if (codes.length === 0) return scrub;
  // A code's pattern of every form costs more to build than most calls (0.4 ms: 2 s to abort 5 000 queued
  // validations, whose messages name only the URL; kept, it holds tens of kB), so it is built for the first text
  // that may hold the code: one with a percent or form encoding, a backslash escape that may be one of a printable
  // ASCII character (`\u0063`, `\/`; not the `\u0643` of an Arabic word), or the code itself in any case. Only a
  // code of printable ASCII is looked for with `includes`: lower-casing matches the pattern's `i` flag there.
  let masks: Scrub[] | undefined;
  return (text) => {
    let out = scrub(text);
    if (
      /[%+]|\\(?:[^u]|u00[2-7])/i.test(out) ||
      codes.some((code) => /[^ -~]/.test(code) || out.toLowerCase().includes(code.toLowerCase()))
    ) {
      // Any case: a server's lookup may match the code whatever its case and echo it upper-cased.
      masks ??= codes.map((code) => masking(code, maskCode(code)));
      out = masks.reduce((masked, mask) => mask(masked), out);
    }
    return maskCodeFields(out);
  };
}

/** Every `purchase_code` field of a JSON or form text, masked to its last four characters. */
export function maskCodeFields(text: string): string {
  return text
    .replace(
      /("purchase_code"\s*:\s*")((?:[^"\\]|\\.)*)"/g,
      (_, head: string, code: string) => `${head}${maskCode(code)}"`,
    )
    .replace(
      /(^|&)(purchase_code=)([^&]*)/g,
      (_, amp: string, head: string, code: string) => `${amp}${head}${maskCode(code)}`,
    );
}

/** A purchase code as it may be shown: its last four characters (`***9f3a`), or `***` when it is that short. */
export function maskCode(code: string): string {
  if (code.startsWith('***')) return code;
  return code.length > 4 ? `***${code.slice(-4)}` : '***';
}

/**
 * Replaces every occurrence of the key in a text: raw, escaped inside a JSON string (`\/` or `\u00XX`, as PHP's
 * `json_encode` writes it), and URL- or form-encoded once or twice (a `Location: /login?next=…` carries a URL
 * that carried the key).
 */
export function redact(text: string, secret: string): string {
  return masking(secret, '***')(text);
}

/**
 * Replaces every form of `secret` by `mask`, in any case (a server's lookup may match a code whatever its case and
 * echo it upper-cased; hex digits and `\u` come in either; a key in another case is masked too, which costs nothing);
 * the pattern is built once, since a scrub runs on every log line.
 */
function masking(secret: string, mask: string): Scrub {
  if (secret === '') return (text) => text;
  const pattern = formsOf(secret);
  return (text) => text.replace(pattern, () => mask);
}

/** One pattern for every form of `secret`. */
function formsOf(secret: string): RegExp {
  const once = [encodeURIComponent(secret), formEncoded(secret)];
  const encoded = new Set([
    ...once,
    ...once.flatMap((form) => [encodeURIComponent(form), formEncoded(form)]),
  ]);
  encoded.delete(secret);
  const alternatives = [jsonEscaped(secret), ...[...encoded].map(escapeRegExp)];
  return new RegExp(alternatives.join('|'), 'gi');
}

/** As a query string carries it: URLSearchParams also escapes !'()~ and writes a space as '+'. */
function formEncoded(text: string): string {
  return new URLSearchParams([['', text]]).toString().slice(1);
}

/**
 * The secret as it may appear inside a JSON string: each UTF-16 unit raw, backslash-escaped, or as `\uXXXX` (JSON
 * writes a character outside the BMP as two escapes, one per unit).
 */
function jsonEscaped(secret: string): string {
  return secret
    .split('')
    .map((unit) => {
      const raw = escapeRegExp(unit);
      const unicode = `\\\\u${hex4(unit)}`;
      return /\w/.test(unit) ? `(?:${raw}|${unicode})` : `(?:\\\\?${raw}|${unicode})`;
    })
    .join('');
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

// Every C0 and C1 control (ESC, BEL, backspace, CR, LF, NEL…), DEL, and the line and paragraph separators.
const CONTROLS = /[\p{Cc}\u2028\u2029]/gu;

/**
 * `text` with every control character written out as `\uXXXX` text (ESC as `\u001b`): a server's words (a reason
 * phrase, a body, an `X-Request-Id`) reach messages and log lines, and a raw ESC or line break there would steer a
 * terminal or forge a line.
 */
export function escapeControls(text: string): string {
  // A text without one comes back as it is (the same string).
  return text.replace(CONTROLS, (char) => `\\u${hex4(char)}`);
}

/** A UTF-16 unit's four hex digits, as `\uXXXX` writes them. */
function hex4(unit: string): string {
  return unit.charCodeAt(0).toString(16).padStart(4, '0');
}

/**
 * A URL safe to log: the `api_key` parameter, if any, shows as `***`. A Catalog GET carries the key in its URL
 * (the server reads it nowhere else), so hooks that log `request.url` or `response.url` should pass it here.
 * @example redactUrl('https://market.example.com/api/items/all?api_key=k') // '…/api/items/all?api_key=***'
 */
export function redactUrl(url: string): string {
  return url.replace(/([?&]api_key=)[^&#]*/gi, '$1***');
}
