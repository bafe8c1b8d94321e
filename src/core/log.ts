import type { Logger, LogLevel } from './options.js';

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** A logger that drops lines below the client's level and never sees the key. */
export type Log = (level: Exclude<LogLevel, 'off'>, message: string) => void;

/** Gates `logger` by `level` and scrubs `secret` from every line, whatever path it came through. */
export function createLog(logger: Logger, level: LogLevel, secret: string): Log {
  const max = RANK[level];
  return (lineLevel, message) => {
    if (RANK[lineLevel] > max) return;
    logger[lineLevel](`[content-platform-sdk] ${redact(message, secret)}`);
  };
}

/** Replaces every occurrence of the key (raw or URL-encoded) in a text. */
export function redact(text: string, secret: string): string {
  if (secret === '') return text;
  let out = text.split(secret).join('***');
  const encoded = encodeURIComponent(secret);
  if (encoded !== secret) out = out.split(encoded).join('***');
  return out;
}

/** A URL for a log line: the `api_key` parameter, if any, shows as `***`. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]api_key=)[^&#]*/gi, '$1***');
}
