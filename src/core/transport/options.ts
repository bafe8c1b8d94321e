import type { Hooks, KyInstance } from 'ky';
import { VERSION } from '../../version.js';
import {
  type ClientSetup,
  checkKeys,
  defined,
  InvalidParamsError,
  isGiven,
  kindOf,
  redactUrl,
  scrubber,
  shown,
} from '../errors/index.js';
import { type RateLimitOptions, rateLimitOption } from '../throttle/index.js';
import { consoleLogger, type Logger, type LogLevel, quietly } from './log.js';
import { MAX_RETRY_AFTER_MS } from './retry.js';
import type { Telemetry } from './telemetry.js';

/** Extra headers: an object of names to values, a `Headers`, or an array of `[name, value]` pairs. */
export type HeaderInput = Record<string, string> | Headers | readonly (readonly [string, string])[];

/** A `fetch`-compatible function, such as `globalThis.fetch` or a reference server's handler. */
export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

/** Options shared by both clients. Every field is optional; see each client for its URL option. */
export interface ClientOptions {
  /**
   * The API key. Defaults to the client's own variable: `CONTENT_PLATFORM_MANAGEMENT_API_KEY` (Management) or
   * `CONTENT_PLATFORM_CATALOG_API_KEY` (Catalog); neither client reads the other's. Server-side only.
   */
  apiKey?: string | undefined;
  /** Milliseconds to wait for each attempt before it times out. Default 60 000. */
  timeout?: number | undefined;
  /** Milliseconds for the whole call, retries and waits included. Default: no overall deadline. */
  totalTimeout?: number | undefined;
  /** How many times a failed, retryable call is retried. Default 2. */
  maxRetries?: number | undefined;
  /**
   * Longest wait in milliseconds a 429 or 503 may ask for (`Retry-After`) and still be retried after it. A
   * longer one fails at once with `RateLimitError` / `InternalServerError` and its `retryAfter`. Default 60 000.
   */
  maxRetryAfter?: number | undefined;
  /**
   * Most bytes a successful answer's body may have, counted after decompression as it streams in. Past it the
   * SDK stops reading and the call fails with `ResponseTooLargeError` (not retried). Default 16 MiB.
   */
  maxResponseBytes?: number | undefined;
  /** Allow an `http://` URL to a host that is not loopback, sending the key in clear text. Default false. */
  allowInsecureHttp?: boolean | undefined;
  /**
   * A `fetch` to use instead of the global one (a proxy agent, a test double, the reference server). It gets
   * one `Request` per attempt. Default: the `ky` instance's `fetch`, else the global one.
   */
  fetch?: FetchLike | undefined;
  /**
   * Your own ky instance (`ky.create({...})`), which the SDK extends: its hooks, headers, `fetch` and other
   * settings are kept; the SDK's URL, authentication, retry policy, timeouts and redirect policy win.
   */
  ky?: KyInstance | undefined;
  /**
   * ky hooks run on every request of this client, after the `ky` instance's and before a call's own. They see
   * each attempt (`retryCount`), its `Request` and `Response`; an error a hook throws reaches the caller as is.
   * A Catalog GET carries `api_key` in its URL (the server reads it nowhere else): log `redactUrl(request.url)`.
   */
  hooks?: Hooks | undefined;
  /**
   * Extra headers sent with every request: an object, a `Headers`, or `[name, value]` pairs. `Authorization` is
   * refused (pass the key as `apiKey`). A `user-agent` must not be a browser's: the Catalog server redirects
   * browsers to its web pages.
   */
  headers?: HeaderInput | undefined;
  /**
   * Who is calling, appended to the SDK's `User-Agent` (`content-platform-sdk/0.2.0 acme-wrapper/1.2.3
   * (+https://acme.example)`), so servers and logs can tell wrappers apart.
   */
  appInfo?: AppInfo | undefined;
  /**
   * The client-side throttle, on by default: it keeps no more requests in flight than the server's
   * `X-RateLimit-Remaining` allows, queues the rest in order, and pauses every call after a 429 until its
   * `Retry-After`. `maxConcurrent` and `requestsPerMinute` add caps of your own; `false` turns it off.
   * Clients derived with `withOptions` share it while key, URL and `rateLimit` stay the same.
   */
  rateLimit?: RateLimitOptions | false | undefined;
  /**
   * Where log lines go, each as `logger[level](message, fields)`. Default: the console, one line per record with
   * the message quoted and its fields inline (`content-platform-sdk warn: "…" method=GET url=… attempt=2`); `console`
   * itself means the same. No control character reaches a logger raw (an ESC shows as `\u001b`).
   */
  logger?: Logger | undefined;
  /**
   * How much to log. Default `process.env.CONTENT_PLATFORM_LOG`, else `'warn'`: only what the SDK works around
   * once per event. Retries and attempts are `info` lines.
   */
  logLevel?: LogLevel | undefined;
  /** Allow running in a browser, where the key would be exposed to every visitor. Default false. */
  dangerouslyAllowBrowser?: boolean | undefined;
  /**
   * Where the client reports its operations, attempts, retries and throttle waits: `openTelemetry()` from
   * `content-platform-sdk/otel` (spans and metrics), or your own `Telemetry`. Off by default; derived clients keep it.
   */
  telemetry?: Telemetry | undefined;
}

/** The names of `ClientOptions`, for the check of unknown ones (a type test keeps the two the same). */
export const CLIENT_OPTIONS = [
  'apiKey',
  'timeout',
  'totalTimeout',
  'maxRetries',
  'maxRetryAfter',
  'maxResponseBytes',
  'headers',
  'appInfo',
  'logger',
  'logLevel',
  'rateLimit',
  'hooks',
  'ky',
  'fetch',
  'telemetry',
  'allowInsecureHttp',
  'dangerouslyAllowBrowser',
] as const;

/** A wrapper's or an application's name for the `User-Agent`: `name/version (+url)`. */
export interface AppInfo {
  /** A product token: letters, digits and `!#$%&'*+.^_\`|~-`, e.g. `acme-wrapper`. */
  name: string;
  /** Its version, same characters, e.g. `1.2.3`. */
  version?: string | undefined;
  /** Where to learn about it, e.g. `https://acme.example/sdk`. */
  url?: string | undefined;
}

/** Options for one call; they override the client's for that call only. */
export interface RequestOptions {
  /** Aborts the call, including any wait between retries; the call rejects with `APIUserAbortError`. */
  signal?: AbortSignal | undefined;
  /** Milliseconds per attempt, for this call. */
  timeout?: number | undefined;
  /** Milliseconds for this whole call, retries and waits included. */
  totalTimeout?: number | undefined;
  /** Retries for this call. */
  maxRetries?: number | undefined;
  /**
   * Longest server-asked wait (ms) this call sleeps through (see `ClientOptions.maxRetryAfter`); a rate-limit pause
   * longer than this fails it at once, unsent.
   */
  maxRetryAfter?: number | undefined;
  /** Most bytes this call's answer may have (see `ClientOptions.maxResponseBytes`). */
  maxResponseBytes?: number | undefined;
  /** Extra headers for this call, in any form `headers` takes (`Authorization` is refused: `apiKey` authenticates). */
  headers?: HeaderInput | undefined;
  /** ky hooks for this call only, run after the client's (see `ClientOptions.hooks`). */
  hooks?: Hooks | undefined;
  /**
   * `false` sends this call at once, past the client's throttle queue (a health check, say). Its answer still
   * informs the throttle, but it is not counted among the requests in flight.
   */
  rateLimit?: false | undefined;
}

/**
 * The names of `RequestOptions`: a call refuses any other key (ky's own options such as `retry` or `json` are not
 * passed through per call; a client's `ky` instance carries those). A type test keeps the two the same.
 */
export const REQUEST_OPTIONS = [
  'signal',
  'timeout',
  'totalTimeout',
  'maxRetries',
  'maxRetryAfter',
  'maxResponseBytes',
  'headers',
  'hooks',
  'rateLimit',
] as const;

/** The options a client actually runs with, after defaults, env fallbacks and checks. */
export interface ResolvedOptions {
  apiKey: string;
  /** Absolute URL of the API root, without a trailing slash, e.g. `https://x.test/api/v1`. */
  apiRoot: string;
  timeout: number;
  totalTimeout: number | undefined;
  maxRetries: number;
  maxRetryAfter: number;
  maxResponseBytes: number;
  fetch: FetchLike | undefined;
  ky: KyInstance | undefined;
  hooks: Hooks | undefined;
  headers: Record<string, string>;
  /** The throttle's caps, or `false` when it is off. */
  rateLimit: RateLimitOptions | false;
  /** `content-platform-sdk/<version>`, then the app's product token and URL when `appInfo` is given. */
  userAgent: string;
  logger: Logger;
  logLevel: LogLevel;
  /** Where the key and URL came from, for the advice in an error's message. */
  setup: ClientSetup;
  telemetry: Telemetry | undefined;
}

/** What differs between the two clients when options are resolved. */
export interface ClientKind {
  /** Class name, for messages. */
  client: string;
  /** Option holding the URL (`baseUrl` / `siteUrl`). */
  urlOption: string;
  /** Environment variable holding the URL. */
  urlEnv: string;
  /** Environment variable holding this API's key (never the other API's). */
  keyEnv: string;
  /** Path the SDK appends (`/api/v1` / `/api`). */
  apiPath: string;
  /** The client's options beyond the shared ones and `urlOption` (Catalog: `cache`). */
  own?: readonly string[] | undefined;
}

const LOG_LEVELS: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];

/** Reads the environment where there is one (Node, Bun, Deno); edge runtimes have none. */
function env(name: string): string | undefined {
  let value: string | undefined;
  try {
    value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  } catch {
    // Deno without --allow-env throws on reading a variable: treat it as unset.
    return undefined;
  }
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** `true` in a real browser page (not in Node, Bun, Deno or a worker runtime). */
function inBrowser(): boolean {
  const g = globalThis as { window?: { document?: unknown }; navigator?: unknown };
  return typeof g.window !== 'undefined' && typeof g.window.document !== 'undefined';
}

/**
 * Applies defaults and env fallbacks, and fails fast on anything that would only fail later.
 * @throws {InvalidParamsError} an unknown option (`baseUrl` given to the Catalog client, whose option is `siteUrl`,
 * would silently use its env variable), a missing key or URL, a malformed URL or one on a port fetch refuses, a bad
 * timeout or retry count, a browser.
 */
export function resolveOptions(
  given: ClientOptions | Record<string, unknown>,
  kind: ClientKind,
): ResolvedOptions {
  // As given: a string or a number is refused here, where a copy would have made it `{ 0: 'h', … }` or `{}`.
  const options = { ...given } as ClientOptions & Record<string, unknown>;
  checkKeys(
    given,
    [kind.urlOption, ...CLIENT_OPTIONS, ...(kind.own ?? [])],
    kind.client,
    'option',
    options.apiKey ?? env(kind.keyEnv),
  );
  // A flag that is not a boolean (`'yes'`, `1`) would read as false without a word; null is unset.
  for (const name of ['allowInsecureHttp', 'dangerouslyAllowBrowser'] as const) {
    const value = options[name];
    if (value != null && typeof value !== 'boolean')
      throw new InvalidParamsError(`${name} must be a boolean; got ${kindOf(value)}.`, name);
  }
  if (inBrowser() && options.dangerouslyAllowBrowser !== true) {
    throw new InvalidParamsError(
      `${kind.client} refuses to run in a browser: the API key would be visible to every visitor. ` +
        'Call the API from your server, or pass `dangerouslyAllowBrowser: true` if you understand the risk.',
      'dangerouslyAllowBrowser',
    );
  }
  const apiKey = options.apiKey ?? env(kind.keyEnv);
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    throw new InvalidParamsError(
      // A key by its kind, never its value: one given as a number is still a secret.
      apiKey == null || typeof apiKey === 'string'
        ? `${kind.client} needs an API key: pass \`apiKey\` or set ${kind.keyEnv}.`
        : `apiKey must be a string; got ${kindOf(apiKey)}.`,
      'apiKey',
    );
  }
  if (UNSENDABLE.test(apiKey)) {
    throw new InvalidParamsError(
      `${options.apiKey === undefined ? kind.keyEnv : 'apiKey'} ${UNSENDABLE_TEXT} (not shown).`,
      'apiKey',
    );
  }
  const givenUrl = options[kind.urlOption] as string | undefined;
  const url = givenUrl ?? env(kind.urlEnv);
  if (options.logLevel !== undefined && !LOG_LEVELS.includes(options.logLevel)) {
    throw new InvalidParamsError(
      `logLevel must be one of ${LOG_LEVELS.join(', ')}; got ${shown(options.logLevel)}.`,
      'logLevel',
    );
  }
  const { telemetry } = options;
  // What the client calls on these: a value without it would fail later, as something else (a bad fetch as a lost
  // connection, a bad ky as a TypeError) or not at all (a logger's lines dropped).
  for (const [name, needs, method] of [
    ['telemetry', 'an operation() method', 'operation'],
    ['ky', 'to be a ky instance', 'extend'],
    ['logger', 'to be a Logger', 'debug'],
    ['fetch', 'to be a function', 'call'],
  ] as const) {
    const value = options[name] as Record<string, unknown> | undefined;
    if (value !== undefined && typeof value?.[method] !== 'function')
      throw new InvalidParamsError(`${name} needs ${needs}; got ${kindOf(value)}.`, name);
  }
  const logger =
    options.logger === undefined || options.logger === globalThis.console ? consoleLogger : options.logger;
  const logLevel = options.logLevel ?? envLogLevel(logger);
  const root = apiRoot(url, kind, options.allowInsecureHttp === true, apiKey.trim(), givenUrl === undefined);
  return {
    apiKey: apiKey.trim(),
    apiRoot: root,
    timeout: positive(options.timeout ?? 60_000, 'timeout'),
    totalTimeout:
      options.totalTimeout === undefined ? undefined : positive(options.totalTimeout, 'totalTimeout'),
    maxRetries: retryCount(options.maxRetries ?? 2, 'maxRetries'),
    maxRetryAfter: retryAfterCap(options.maxRetryAfter ?? MAX_RETRY_AFTER_MS),
    maxResponseBytes: byteCount(options.maxResponseBytes ?? MAX_RESPONSE_BYTES, 'maxResponseBytes'),
    fetch: options.fetch,
    ky: options.ky,
    hooks: checkHooks(options.hooks, 'hooks'),
    headers: extraHeaders(options.headers, 'headers'),
    rateLimit: rateLimitOption(options.rateLimit),
    userAgent: userAgent(options.appInfo),
    logger,
    logLevel,
    telemetry,
    setup: {
      keyFrom: options.apiKey === undefined ? kind.keyEnv : 'apiKey',
      urlOption: kind.urlOption,
      urlEnv: givenUrl === undefined ? kind.urlEnv : undefined,
      apiRoot: root,
      apiPath: kind.apiPath,
    },
  };
}

// Loggers told already: each client reads the variable (a derived one too), but a logger hears of it once.
const told = new WeakSet<Logger>();

/**
 * `CONTENT_PLATFORM_LOG`, any case. A value that is not a level must not take a running service down, so it
 * falls back to `'warn'` and says so, once per logger (not once per client: `withOptions` per call is common).
 */
function envLogLevel(logger: Logger): LogLevel {
  const raw = env('CONTENT_PLATFORM_LOG');
  if (raw === undefined) return 'warn';
  const level = raw.toLowerCase() as LogLevel;
  if (LOG_LEVELS.includes(level)) return level;
  if (typeof logger === 'object' && logger !== null) {
    if (told.has(logger)) return 'warn';
    told.add(logger);
  }
  quietly(() =>
    logger.warn(
      `[content-platform-sdk] CONTENT_PLATFORM_LOG=${JSON.stringify(raw)} is not one of ${LOG_LEVELS.join(', ')}; using warn.`,
      { variable: 'CONTENT_PLATFORM_LOG' },
    ),
  );
  return 'warn';
}

/**
 * Accepts the site root with or without the API path and trailing slashes; returns `root + apiPath`. A URL it
 * refuses is quoted with `apiKey` and any `api_key` parameter masked (a Catalog URL pasted whole carries it), and
 * named as read from its variable when `fromEnv` (no option in the code to look for).
 */
function apiRoot(
  url: string | undefined,
  kind: ClientKind,
  allowInsecureHttp: boolean,
  apiKey: string,
  fromEnv: boolean,
): string {
  if (typeof url !== 'string' || url.trim() === '') {
    throw new InvalidParamsError(
      url == null || typeof url === 'string'
        ? `${kind.client} needs a URL: pass \`${kind.urlOption}\` or set ${kind.urlEnv}.`
        : `${kind.urlOption} must be a string; got ${kindOf(url)}.`,
      kind.urlOption,
    );
  }
  const name = fromEnv ? `${kind.urlOption} (from ${kind.urlEnv})` : kind.urlOption;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    // Quoted only when it was meant as a URL (it has a scheme): without one it may be a key pasted in the wrong
    // place (options swapped, a variable mixed up), shown as any refused value is (`shown`).
    const quoted = scrubber(apiKey)(redactUrl(url));
    throw new InvalidParamsError(
      `${name} is not a valid URL: ${
        url.includes('://')
          ? JSON.stringify(quoted.length > MAX_SHOWN ? `${quoted.slice(0, MAX_SHOWN)}…` : quoted)
          : `${shown(url.trim())} has no scheme`
      }.`,
      kind.urlOption,
    );
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new InvalidParamsError(`${name} must use http or https; got ${parsed.protocol}`, kind.urlOption);
  }
  if (parsed.search || parsed.hash || parsed.username || parsed.password) {
    throw new InvalidParamsError(
      `${name} must not carry a query, fragment or credentials: give the site root, e.g. ${parsed.origin}.`,
      kind.urlOption,
    );
  }
  // An explicit port only: the scheme's default (80, 443) is never a bad port, and URL drops it.
  if (parsed.port !== '' && BAD_PORTS.has(Number(parsed.port))) {
    throw new InvalidParamsError(
      `${name} uses port ${parsed.port}, which fetch refuses to call (a "bad port" of the fetch ` +
        'standard, reserved for other protocols): every request would fail. Serve the API on another port (such ' +
        'as 443 or 8080), or reach it through a proxy on one.',
      kind.urlOption,
    );
  }
  if (parsed.protocol === 'http:' && !allowInsecureHttp && !isLoopback(parsed.hostname)) {
    throw new InvalidParamsError(
      `${name} uses http:// to ${parsed.hostname}: the API key would travel in clear text. ` +
        'Use https://, or pass `allowInsecureHttp: true` if the network is trusted.',
      kind.urlOption,
    );
  }
  let path = parsed.pathname.replace(/\/+$/, '');
  if (path.endsWith(kind.apiPath)) path = path.slice(0, -kind.apiPath.length);
  return `${parsed.origin}${path}${kind.apiPath}`;
}

// Most characters of a refused URL a message quotes.
const MAX_SHOWN = 200;

// The fetch standard's "bad ports" (https://fetch.spec.whatwg.org/#bad-port), which Node's fetch refuses like a
// browser does: a URL on one of them fails every call as a lost connection that may have acted.
const BAD_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104,
  109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
  526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** `localhost`, `*.localhost`, 127.0.0.0/8 and ::1: traffic that never leaves the machine. */
function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127(\.\d{1,3}){3}$/.test(host) ||
    host === '[::1]'
  );
}

// What fetch refuses in a header value (undici and browsers alike): CR, LF, NUL, and anything beyond Latin-1.
// Refused when the option is given: fetch would refuse it on every attempt, echoing the value in its message.
const UNSENDABLE = /[\0\n\r\u0100-\uffff]/;
const UNSENDABLE_TEXT = 'has a CR, LF or NUL, or a character beyond U+00FF, which no HTTP request can carry';

/**
 * Extra headers, checked: `Authorization` would silently replace the key, so it is refused, without echoing it; a
 * name that is not an HTTP token, or a value fetch cannot send (an object, a CR), is refused without echoing either.
 * A `null` value, like `undefined` (ky's rule), sends no such header.
 * @throws {InvalidParamsError} naming `param`.
 */
export function extraHeaders(headers: HeaderInput | undefined, param: string): Record<string, string> {
  const out = headerRecord(headers, param);
  const names = Object.keys(out);
  if (names.some((name) => name.toLowerCase() === 'authorization')) {
    throw new InvalidParamsError(
      `${param} must not set Authorization: pass the key as \`apiKey\`, which the SDK sends the way each API expects.`,
      param,
    );
  }
  names.forEach((name, index) => {
    if (!TOKEN.test(name)) {
      throw new InvalidParamsError(
        `${param}: header name ${index + 1} of ${names.length} is not an HTTP token (not shown).`,
        param,
      );
    }
    // `null` is a header not sent, as ky takes `undefined`: as text it would go as "null".
    out[name] ??= undefined as never;
    const kind = typeof out[name];
    // An object would go as "[object Object]"; a symbol makes fetch throw a TypeError.
    if (kind === 'object' || kind === 'function' || kind === 'symbol')
      throw new InvalidParamsError(
        `${param}: the value of ${JSON.stringify(name)} must be text; got ${kindOf(out[name])}.`,
        param,
      );
    if (UNSENDABLE.test(String(out[name]))) {
      throw new InvalidParamsError(
        `${param}: the value of ${JSON.stringify(name)} ${UNSENDABLE_TEXT} (not shown: it may be a secret).`,
        param,
      );
    }
  });
  return out;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Headers in any form `headers` takes, as one object (a later pair of the same name wins).
 * @throws {InvalidParamsError} for anything else (a string would be sent as headers `0`, `1`, …).
 */
function headerRecord(headers: unknown, param: string): Record<string, string> {
  if (headers === undefined) return {};
  if (headers instanceof Headers) return Object.fromEntries(headers);
  if (Array.isArray(headers)) {
    if (headers.every((pair) => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string'))
      return Object.fromEntries(headers);
  } else if (typeof headers === 'object' && headers !== null) {
    const proto = Object.getPrototypeOf(headers);
    if (proto === Object.prototype || proto === null) return { ...(headers as Record<string, string>) };
  }
  throw new InvalidParamsError(
    `${param} must be an object of header names to values, a Headers, or an array of [name, value] pairs; ` +
      `got ${Array.isArray(headers) ? 'an array that is not all [name, value] pairs' : kindOf(headers)}.`,
    param,
  );
}

/** The SDK's product token, then the caller's (RFC 9110 tokens, so the header stays one valid value). */
function userAgent(app: AppInfo | undefined): string {
  const sdk = `content-platform-sdk/${VERSION}`;
  if (app === undefined) return sdk;
  if (typeof app !== 'object' || app === null)
    throw new InvalidParamsError('appInfo must be an object: { name, version?, url? }.', 'appInfo');
  checkKeys(app, ['name', 'version', 'url'], 'appInfo');
  const bad = (what: string) =>
    new InvalidParamsError(
      `appInfo.${what} must be a product token (letters, digits, . _ - and the like).`,
      'appInfo',
    );
  if (typeof app.name !== 'string' || !TOKEN.test(app.name)) throw bad('name');
  if (app.version !== undefined && (typeof app.version !== 'string' || !TOKEN.test(app.version)))
    throw bad('version');
  let product = app.version === undefined ? app.name : `${app.name}/${app.version}`;
  if (app.url !== undefined) {
    if (typeof app.url !== 'string' || !/^https?:\/\/[^\s()]+$/.test(app.url)) {
      throw new InvalidParamsError(
        'appInfo.url must be an http(s) URL without spaces or parentheses.',
        'appInfo',
      );
    }
    product += ` (+${app.url})`;
  }
  return `${sdk} ${product}`;
}

/**
 * The options of a derived client: `overrides` over `base`, key by key, except `headers` (merged, an override
 * wins per header) and `hooks` (each list appended after the base's, so a derived client keeps its parent's hooks).
 * `null` or `undefined` overrides are none, and so is a key given as `undefined` (the parent's stays).
 * @throws {InvalidParamsError} `overrides` is not an object (`where` names the method, e.g.
 * `ManagementClient.withOptions`).
 */
export function mergeOptions<T extends ClientOptions>(
  base: T,
  overrides: T | null | undefined,
  where: string,
): T {
  if (!isGiven(overrides, where)) return { ...base };
  // A key given as `undefined` is not given: the parent's key, URL or setting stays (not the env's or the default).
  const merged = { ...base, ...defined(overrides as Record<string, unknown>) } as T;
  if (base.headers || overrides.headers)
    merged.headers = {
      ...headerRecord(base.headers, 'headers'),
      ...headerRecord(overrides.headers, 'headers'),
    };
  if (base.hooks && overrides.hooks) {
    checkHooks(overrides.hooks, 'hooks');
    const hooks: Record<string, unknown[]> = { ...base.hooks } as Record<string, unknown[]>;
    for (const [name, list] of Object.entries(overrides.hooks))
      hooks[name] = [...(hooks[name] ?? []), ...(list ?? [])];
    merged.hooks = hooks as Hooks;
  }
  return merged;
}

/** The hooks ky runs, in the order of a request's life. */
const HOOK_NAMES: readonly string[] = [
  'init',
  'beforeRequest',
  'beforeRetry',
  'beforeError',
  'afterResponse',
];

/**
 * Checks `hooks` (a client's or a call's) before any request: an object of ky hook lists, each an array of
 * functions. Anything else would be dropped unseen, or spread letter by letter into calls that throw mid-request.
 * @throws {InvalidParamsError} for any other value, a list that is not an array of functions, or an unknown name.
 */
export function checkHooks(hooks: unknown, param: string): Hooks | undefined {
  if (hooks === undefined) return undefined;
  const proto = typeof hooks === 'object' && hooks !== null ? Object.getPrototypeOf(hooks) : undefined;
  if (proto !== Object.prototype && proto !== null) {
    throw new InvalidParamsError(
      `${param} must be an object of ky hook lists, such as { beforeRequest: [(request) => {…}] }; got ${kindOf(hooks)}.`,
      param,
    );
  }
  checkKeys(hooks, HOOK_NAMES, param, 'hook');
  for (const [name, list] of Object.entries(hooks as object)) {
    if (list === undefined) continue;
    const bad = Array.isArray(list) ? list.findIndex((hook) => typeof hook !== 'function') : -1;
    if (!Array.isArray(list) || bad >= 0) {
      throw new InvalidParamsError(
        `${param}.${name} must be an array of functions; got ${Array.isArray(list) ? `${kindOf(list[bad])} at index ${bad}` : kindOf(list)}.`,
        param,
      );
    }
  }
  return hooks as Hooks;
}

/**
 * Checks what a call's options hold that the transport reads before sending (its keys, `signal` and `hooks`): a call
 * that sends nothing (a cache hit) checks them here too, so no bad option passes unseen.
 * @throws {InvalidParamsError} naming the option: an unknown one (with the nearest known name when one is close).
 */
export function checkSent(options: RequestOptions): void {
  checkKeys(options, REQUEST_OPTIONS, 'request options');
  const { signal } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new InvalidParamsError(
      `signal must be an AbortSignal (e.g. AbortSignal.timeout(5_000) or an AbortController's signal); got ${kindOf(signal)}.`,
      'signal',
    );
  }
  checkHooks(options.hooks, 'hooks');
}

/**
 * Checks a `maxRetryAfter` (a client's or a call's): 0 (never sleep through a server's wait), or a positive number.
 * @throws {InvalidParamsError} naming `maxRetryAfter`.
 */
export function retryAfterCap(value: number): number {
  return value === 0 ? 0 : positive(value, 'maxRetryAfter');
}

/** Checks a per-call option the same way as the client option of the same name. */
export function positive(value: number, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 2_147_483_647) {
    throw new InvalidParamsError(
      `${name} must be a positive number of milliseconds${value > 2_147_483_647 ? ', at most 2147483647 (24.8 days)' : ''}; got ${shown(value)}.`,
      name,
    );
  }
  return value;
}

/** The default `maxResponseBytes`: 16 MiB, far above any page the APIs send (about 3 KB per item). */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** Checks a byte limit: a whole number from 1 to 2^31 - 1 (a body the SDK would hold in one string). */
export function byteCount(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1 || value > 2_147_483_647) {
    throw new InvalidParamsError(
      `${name} must be a whole number of bytes above 0; got ${shown(value)}.`,
      name,
    );
  }
  return value;
}

/** Checks a retry count: a whole number from 0 to 10. */
export function retryCount(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0 || value > 10) {
    throw new InvalidParamsError(`${name} must be a whole number from 0 to 10; got ${shown(value)}.`, name);
  }
  return value;
}
