import { escapeControls, type Scrub } from '../errors/index.js';

/** How much the client logs: each level includes the ones before it. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/**
 * Where log lines go: each method gets a readable message and the line's {@link LogFields}. `console`, winston and
 * pino fit as they are (pino then drops the fields: adapt it as `warn: (msg, fields) => pino.warn(fields, msg)`).
 */
export interface Logger {
  /** Logs at level `error`. */
  error(message: string, fields?: LogFields): void;
  /** Logs at level `warn`: once per event the SDK works around (a cache store or Redis outage, a stale answer). */
  warn(message: string, fields?: LogFields): void;
  /** Logs at level `info`: one line per attempt and one per retry, and the waits under the rate limit. */
  info(message: string, fields?: LogFields): void;
  /** Logs at level `debug`: each request's and answer's headers and body (secrets masked), each call's failure. */
  debug(message: string, fields?: LogFields): void;
}

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/**
 * The fields every SDK log line carries as its second argument, for pino, winston or any structured logger.
 * `attempt` is 1 for a call's first request; the others are there when known.
 */
export interface LogFields {
  /** HTTP method. */
  method?: string | undefined;
  /** Full URL, the key shown as `***`. */
  url?: string | undefined;
  /** Which request of the call: 1 for the first, 2 for the first retry. */
  attempt?: number | undefined;
  /** The answer's HTTP status. */
  status?: number | undefined;
  /** How long the attempt (or, on a call's failure line, the whole call) took. */
  durationMs?: number | undefined;
  /** How long the SDK waits before the retry this line announces. */
  retryInMs?: number | undefined;
  /** The server's `X-Request-Id`. */
  requestId?: string | undefined;
  /** The SDK error class the failure maps to, or the error fetch threw. */
  errorName?: string | undefined;
  /** Anything else a line is about (an environment variable, for instance). */
  [field: string]: string | number | undefined;
}

const PREFIX = '[content-platform-sdk] ';

/**
 * The default logger: the console, one line per record, the message quoted and the fields inline
 * (`content-platform-sdk warn: "<message>" method=GET url=… attempt=2 status=503`), each level to the console method
 * of its name.
 */
export const consoleLogger: Logger = {
  error: (message, fields) => console.error(logLine('error', message, fields)),
  warn: (message, fields) => console.warn(logLine('warn', message, fields)),
  info: (message, fields) => console.info(logLine('info', message, fields)),
  debug: (message, fields) => console.debug(logLine('debug', message, fields)),
};

/**
 * One record as one line: `content-platform-sdk <level>: "<message>" name=value …`. The message is always quoted as
 * JSON, so no text in it (a server's reason phrase `Busy status=200`) reads as a field; a value with a space, a quote
 * or a control character (or none at all) is quoted too. A message on several lines is joined into one, and no
 * control character is left raw.
 */
export function logLine(level: string, message: string, fields: LogFields = {}): string {
  const text = message.startsWith(PREFIX) ? message.slice(PREFIX.length) : message;
  let line = `content-platform-sdk ${level}: ${quoted(text.replace(/\s*[\r\n\u0085\u2028\u2029]+\s*/g, ' '))}`;
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const shown = typeof value === 'string' ? value : String(value);
    line += ` ${name}=${shown === '' || /[\s"\p{Cc}]/u.test(shown) ? quoted(shown) : shown}`;
  }
  return line;
}

/** `text` as a JSON string, with the controls JSON leaves raw (DEL, C1, U+2028/2029) escaped as well. */
function quoted(text: string): string {
  return escapeControls(JSON.stringify(text));
}

/**
 * A logger that drops lines below the client's level and never sees the key. A line about one call passes the
 * call's `scrub`, which also masks its purchase codes. `verbose`: debug lines pass.
 */
export type Log = ((
  level: Exclude<LogLevel, 'off'>,
  message: string,
  fields: LogFields,
  scrub?: Scrub,
) => void) & {
  readonly verbose: boolean;
  /** Whether lines of this level are logged at all (to skip building them). */
  readonly enabled: (level: Exclude<LogLevel, 'off'>) => boolean;
};

/**
 * Gates `logger` by `level` and scrubs every line and text field (the key, and a call's purchase codes when its
 * scrub is passed), whatever path it came through; no control character reaches any logger raw (`\u001b` text).
 */
export function createLog(logger: Logger, level: LogLevel, clientScrub: Scrub): Log {
  const max = RANK[level];
  const log = (
    lineLevel: Exclude<LogLevel, 'off'>,
    message: string,
    fields: LogFields,
    scrub = clientScrub,
  ) => {
    if (RANK[lineLevel] > max) return;
    const clean: LogFields = {};
    for (const [name, value] of Object.entries(fields)) {
      if (value !== undefined) clean[name] = typeof value === 'string' ? escapeControls(scrub(value)) : value;
    }
    // Called as a method: a pino logger's methods need their `this`.
    quietly(() => logger[lineLevel](`${PREFIX}${escapeControls(scrub(message))}`, clean));
  };
  return Object.assign(log, {
    verbose: max >= RANK.debug,
    enabled: (lineLevel: Exclude<LogLevel, 'off'>) => RANK[lineLevel] <= max,
  });
}

/**
 * Runs `write` (a call into the user's logger) so that nothing it does can change a call's outcome: a log line is
 * a bystander. Lines are written from inside ky's retry decision and hooks, where a throw would replace the call's
 * error and stop its retries; an async logger's rejection would be unhandled, which ends a Node process.
 */
export function quietly(write: () => unknown): void {
  try {
    const written = write();
    if (typeof (written as PromiseLike<unknown> | undefined)?.then === 'function')
      (written as PromiseLike<unknown>).then(undefined, () => {});
  } catch {
    // Dropped on purpose: there is nowhere safe left to report a failing logger.
  }
}
