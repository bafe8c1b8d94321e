/** Masks what must never be shown (the key, a call's purchase code) in a text bound for a message or a log. */
export type Scrub = (text: string) => string;

/**
 * The scrub for a client's key and, in a call that carries them, its purchase codes: the key shows as `***`, a
 * code as its last four characters (`***9f3a`), and so does any `purchase_code` field a body echoes.
 */
export function scrubber(apiKey: string, codes: readonly string[] = []): Scrub {
  return withCodes(masking(apiKey, '***'), codes);
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
      masks ??= codes.map((code) => masking(code, maskCode(code), 'gi'));
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
 * Replaces every form of `secret` by `mask` (`flags`: `gi` to match any case); the pattern is built once, since a
 * scrub runs on every log line.
 */
function masking(secret: string, mask: string, flags = 'g'): Scrub {
  if (secret === '') return (text) => text;
  const pattern = formsOf(secret, flags);
  return (text) => text.replace(pattern, () => mask);
}

/** One pattern for every form of `secret`. */
function formsOf(secret: string, flags: string): RegExp {
  const once = [encodeURIComponent(secret), formEncoded(secret)];
  const encoded = new Set([
    ...once,
    ...once.flatMap((form) => [encodeURIComponent(form), formEncoded(form)]),
  ]);
  encoded.delete(secret);
  const alternatives = [
    jsonEscaped(secret),
    ...[...encoded].map((form) =>
      escapeRegExp(form).replace(/%([0-9A-F]{2})/g, (_, hex) => `%${hexCase(hex)}`),
    ),
  ];
  return new RegExp(alternatives.join('|'), flags);
}

/** As a query string carries it: URLSearchParams also escapes !'()~ and writes a space as '+'. */
function formEncoded(text: string): string {
  return new URLSearchParams([['', text]]).toString().slice(1);
}

/** The secret as it may appear inside a JSON string: each character raw, backslash-escaped, or as `\uXXXX`. */
function jsonEscaped(secret: string): string {
  return [...secret]
    .map((char) => {
      // JSON writes a character outside the BMP as two escapes, one per UTF-16 unit.
      const units = Array.from({ length: char.length }, (_, i) =>
        char.charCodeAt(i).toString(16).padStart(4, '0'),
      );
      const unicode = units.map((unit) => `\\\\u${hexCase(unit)}`).join('');
      const raw = escapeRegExp(char);
      return /[\w]/.test(char) ? `(?:${raw}|${unicode})` : `(?:\\\\?${raw}|${unicode})`;
    })
    .join('');
}

/** Hex digits matched whatever their case: a server may write `%2b` or `\u002B`. */
function hexCase(hex: string): string {
  return hex.replace(/[a-fA-F]/g, (digit) => `[${digit.toLowerCase()}${digit.toUpperCase()}]`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

// Every C0 and C1 control (ESC, BEL, backspace, CR, LF, NEL…), DEL, and the line and paragraph separators.
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
const CONTROLS = new RegExp(CONTROL.source, 'gu');

/**
 * `text` with every control character written out as `\uXXXX` text (ESC as `\u001b`): a server's words (a reason
 * phrase, a body, an `X-Request-Id`) reach messages and log lines, and a raw ESC or line break there would steer a
 * terminal or forge a line.
 */
export function escapeControls(text: string): string {
  if (!CONTROL.test(text)) return text;
  return text.replace(CONTROLS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A URL safe to log: the `api_key` parameter, if any, shows as `***`. A Catalog GET carries the key in its URL
 * (the server reads it nowhere else), so hooks that log `request.url` or `response.url` should pass it here.
 * @example redactUrl('https://market.example.com/api/items/all?api_key=k') // '…/api/items/all?api_key=***'
 */
export function redactUrl(url: string): string {
  return url.replace(/([?&]api_key=)[^&#]*/gi, '$1***');
}
