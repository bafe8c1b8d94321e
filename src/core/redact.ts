/** Masks what must never be shown (the key, a call's purchase code) in a text bound for a message or a log. */
export type Scrub = (text: string) => string;

/**
 * The scrub for a client's key and, in a call that carries them, its purchase codes: the key shows as `***`, a
 * code as its last four characters (`***9f3a`), and so does any `purchase_code` field a body echoes.
 */
export function scrubber(apiKey: string, codes: readonly string[] = []): Scrub {
  if (codes.length === 0) return (text) => redact(text, apiKey);
  return (text) => {
    let out = redact(text, apiKey);
    for (const code of codes) out = replaceForms(out, code, maskCode(code));
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

/** Replaces every occurrence of the key (raw, URL-encoded or form-encoded as in a query) in a text. */
export function redact(text: string, secret: string): string {
  return replaceForms(text, secret, '***');
}

function replaceForms(text: string, secret: string, mask: string): string {
  if (secret === '') return text;
  let out = text.split(secret).join(mask);
  const encoded = encodeURIComponent(secret);
  if (encoded !== secret) out = out.split(encoded).join(mask);
  // URLSearchParams also escapes !'()~ and writes a space as '+': the form a query string carries.
  const form = new URLSearchParams([['', secret]]).toString().slice(1);
  if (form !== secret && form !== encoded) out = out.split(form).join(mask);
  return out;
}

/**
 * A URL safe to log: the `api_key` parameter, if any, shows as `***`. A Catalog GET carries the key in its URL
 * (the server reads it nowhere else), so hooks that log `request.url` or `response.url` should pass it here.
 * @example redactUrl('https://market.example.com/api/items/all?api_key=k') // '…/api/items/all?api_key=***'
 */
export function redactUrl(url: string): string {
  return url.replace(/([?&]api_key=)[^&#]*/gi, '$1***');
}
