import type { Logger, LogLevel } from './options.js';
import type { Send } from './read-fetch.js';

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** A logger that drops lines below the client's level and never sees the key. `verbose`: debug lines pass. */
export type Log = ((level: Exclude<LogLevel, 'off'>, message: string) => void) & {
  readonly verbose?: boolean;
};

/** Gates `logger` by `level` and scrubs `secret` from every line, whatever path it came through. */
export function createLog(logger: Logger, level: LogLevel, secret: string): Log {
  const max = RANK[level];
  const log = (lineLevel: Exclude<LogLevel, 'off'>, message: string) => {
    if (RANK[lineLevel] > max) return;
    // Called as a method: a pino logger's methods need their `this`.
    logger[lineLevel](`[content-platform-sdk] ${redact(message, secret)}`);
  };
  return Object.assign(log, { verbose: max >= RANK.debug });
}

/** Replaces every occurrence of the key (raw, URL-encoded or form-encoded as in a query) in a text. */
export function redact(text: string, secret: string): string {
  if (secret === '') return text;
  let out = text.split(secret).join('***');
  const encoded = encodeURIComponent(secret);
  if (encoded !== secret) out = out.split(encoded).join('***');
  // URLSearchParams also escapes !'()~ and writes a space as '+': the form a query string carries.
  const form = new URLSearchParams([['', secret]]).toString().slice(1);
  if (form !== secret && form !== encoded) out = out.split(form).join('***');
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

/**
 * Wraps a fetch to log one line per attempt: method, redacted URL, status or failure, duration, retry number.
 * Built per call, so attempts are numbered per call.
 */
export function loggingFetch(send: Send, log: Log): Send {
  let attempt = 0;
  return async (input, init) => {
    attempt += 1;
    const started = performance.now();
    const line = `${input.method} ${redactUrl(input.url)}`;
    const retry = attempt > 1 ? ` (retry ${attempt - 1})` : '';
    // Reading a clone of the body costs a copy: only at debug level.
    if (log.verbose) log('debug', `${line} request ${headerText(input.headers)}${await bodyText(input)}`);
    try {
      const response = await send(input, init);
      log('info', `${line} → ${response.status} in ${Math.round(performance.now() - started)} ms${retry}`);
      if (log.verbose) log('debug', `${line} response ${headerText(response.headers)}`);
      return response;
    } catch (error) {
      const ms = Math.round(performance.now() - started);
      log('info', `${line} → no answer after ${ms} ms${retry}: ${(error as Error)?.message}`);
      throw error;
    }
  };
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

/** Headers for a debug line, credentials shown as `***`. */
function headerText(headers: Headers): string {
  const parts: string[] = [];
  headers.forEach((value, name) => {
    parts.push(`${name}: ${SECRET_HEADERS.has(name) ? '***' : value}`);
  });
  return `headers {${parts.join(', ')}}`;
}

/** A request body for a debug line, with any `api_key` field (JSON or form) shown as `***`. */
async function bodyText(request: Request): Promise<string> {
  if (!request.body) return '';
  const text = await request.clone().text();
  const masked = text
    .replace(/("api_key"\s*:\s*)"(?:[^"\\]|\\.)*"/g, '$1"***"')
    .replace(/(^|&)(api_key=)[^&]*/gi, '$1$2***');
  return ` body ${masked}`;
}
