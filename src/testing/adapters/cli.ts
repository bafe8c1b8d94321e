import { parseArgs } from 'node:util';
import type { FaultSettings } from '../core/faults.js';
import type { ReferenceServerOptions } from '../server.js';
import { MAX_GENERATED } from '../store.js';
import { hostProblem } from './node.js';

/**
 * The most each number flag takes: past these the server cannot start in reasonable memory (100 000 generated
 * records of a kind take about 100 MB), or Node would clamp the timer (a latency of 2^31 ms and up fires at once).
 */
export const BOUNDS = {
  records: MAX_GENERATED,
  purchaseCodes: 1_000,
  latencyMs: 60_000,
  rateLimit: 1_000_000,
  rateWindowMs: 86_400_000,
  seed: 4_294_967_295,
} as const;

/** The bin's usage text. */
export const USAGE = `Usage: content-platform-reference-server [options]
  --port N              port to listen on, 0 to 65535 (default 4010; 0 picks a free one)
  --host H              interface: an address or a name (default 127.0.0.1); 0.0.0.0 or ::
                        for all of them, printing the loopback URL to use from this machine
  --json                print one JSON line (URLs, keys, purchase codes, settings, env)
                        instead of text, and one more as it stops
  --flavor laravel|spec wire shapes (default laravel, as the real servers send)
  --locale ar|en        Catalog message words (default ar)
  --base-path /p        serve the site under a path, like https://example.com/p
  --pixels N            generated pixels added to the first workspace (at most 100000)
  --domains N           generated domains added to the first workspace (at most 100000)
  --items N             generated Catalog items added to the main account (at most 100000)
  --purchase-code CODE  a valid purchase code to accept (repeatable, at most 1000; letters,
                        digits, - and _, up to 100 characters)
  --rate-limit N        enforce N requests a window per key (1 to 1000000), with the real
                        servers' X-RateLimit-* headers and 429 + Retry-After (default: no limit)
  --rate-window MS      the window of --rate-limit, in ms (1 to 86400000; default 60000)
  --latency MS|MIN-MAX  added latency per request, in ms (0 to 60000)
  --failure-rate R      share of requests (0-1) answered 500 or 503
  --lose-rate R         share of requests (0-1) processed (a create stored), then their
                        connection dropped unanswered; with --failure-rate at most 1 in all
  --seed N              seed of latency ranges, failures and lost answers (digits only,
                        0 to 4294967295; default 1)
  --seed FILE           add the pixels, domains and purchase codes of a seed file (JSON or
                        NDJSON; repeatable); a value that is not all digits is a file
                        (write ./2024 for a file named 2024)
  -v, --version         print the version
  -h, --help            this text
SIGINT or SIGTERM stops it, printing how many requests it served and how many met a 429.`;

/** What the command line asks for. */
export type Cli =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'usage-error'; message: string }
  | {
      kind: 'run';
      port: number;
      host: string;
      json: boolean;
      server: ReferenceServerOptions;
      /** The seed files given with `--seed FILE`, in order (absent when none): the bin reads them before it starts. */
      seedFiles?: string[];
    };

/** Reads the bin's arguments; never throws (a bad argument is a `usage-error` with a one-line message). */
export function parseCli(argv: readonly string[]): Cli {
  let values: ReturnType<typeof read>;
  try {
    values = read(argv);
  } catch (error) {
    return { kind: 'usage-error', message: (error as Error).message.split('\n')[0] as string };
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  try {
    return { kind: 'run', ...options(values) };
  } catch (error) {
    return { kind: 'usage-error', message: (error as Error).message };
  }
}

function read(argv: readonly string[]) {
  const text = { type: 'string' } as const;
  return parseArgs({
    args: [...argv],
    strict: true,
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      json: { type: 'boolean', default: false },
      flavor: { type: 'string', default: 'laravel' },
      locale: { type: 'string', default: 'ar' },
      'base-path': text,
      pixels: text,
      domains: text,
      items: text,
      'purchase-code': { type: 'string', multiple: true },
      'rate-limit': text,
      'rate-window': text,
      latency: text,
      'failure-rate': text,
      'lose-rate': text,
      seed: { type: 'string', multiple: true },
      version: { type: 'boolean', short: 'v', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }).values;
}

function options(v: ReturnType<typeof read>): Omit<Extract<Cli, { kind: 'run' }>, 'kind'> {
  if (v.flavor !== 'laravel' && v.flavor !== 'spec') throw new Error(`--flavor must be laravel or spec`);
  if (v.locale !== 'ar' && v.locale !== 'en') throw new Error(`--locale must be ar or en`);
  const faults: FaultSettings = {};
  if (v.latency !== undefined) faults.latencyMs = latency(v.latency);
  if (v['failure-rate'] !== undefined) faults.failureRate = rate('--failure-rate', v['failure-rate']);
  if (v['lose-rate'] !== undefined) {
    faults.loseResponseRate = rate('--lose-rate', v['lose-rate']);
    const sum = (faults.failureRate ?? 0) + faults.loseResponseRate;
    if (faults.loseResponseRate > 0 && sum > 1 + 1e-9)
      throw new Error(
        `--failure-rate and --lose-rate are shares of the same requests: together at most 1, got ${v['failure-rate']} + ${v['lose-rate']}`,
      );
  }
  // `--seed` is the PRNG's seed when it is all digits, else a seed file (the last number wins, every file loads).
  const seedFiles: string[] = [];
  for (const value of v.seed ?? []) {
    if (/^\d+$/.test(value)) faults.seed = whole('--seed', value, 0, BOUNDS.seed);
    else if (value === '')
      throw new Error('--seed must be a whole number (the fault seed) or a seed file, got ""');
    else seedFiles.push(value);
  }
  const server: ReferenceServerOptions = {
    flavor: v.flavor,
    locale: v.locale,
    seed: {
      pixels: whole('--pixels', v.pixels ?? '0', 0, BOUNDS.records),
      domains: whole('--domains', v.domains ?? '0', 0, BOUNDS.records),
      items: whole('--items', v.items ?? '0', 0, BOUNDS.records),
      purchaseCodes: purchaseCodes(v['purchase-code'] ?? []),
    },
    faults,
  };
  if (v['rate-limit'] !== undefined) {
    server.rateLimit = { limit: whole('--rate-limit', v['rate-limit'], 1, BOUNDS.rateLimit) };
    if (v['rate-window'] !== undefined)
      server.rateLimit.windowMs = whole('--rate-window', v['rate-window'], 1, BOUNDS.rateWindowMs);
  } else if (v['rate-window'] !== undefined) throw new Error('--rate-window needs --rate-limit');
  if (v['base-path'] !== undefined) server.basePath = basePath(v['base-path']);
  const port = whole('--port', v.port, 0, 65_535);
  return { port, host: host(v.host), json: v.json, server, ...(seedFiles.length > 0 ? { seedFiles } : {}) };
}

/** A whole number from `min` to `max`, written in decimal digits (no sign, fraction, exponent or spaces). */
function whole(flag: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d{1,16}$/.test(text) || n < min || n > max)
    throw new Error(`${flag} must be a whole number from ${min} to ${max}, got ${shown(text)}`);
  return n;
}

function latency(text: string): number | [number, number] {
  const [min, max, more] = text.split('-');
  if (max === undefined) return whole('--latency', text, 0, BOUNDS.latencyMs);
  if (more !== undefined) throw new Error(`--latency range must be MIN-MAX, got ${shown(text)}`);
  const range: [number, number] = [
    whole('--latency', min ?? '', 0, BOUNDS.latencyMs),
    whole('--latency', max, 0, BOUNDS.latencyMs),
  ];
  if (range[0] > range[1]) throw new Error(`--latency range must be MIN-MAX, got ${shown(text)}`);
  return range;
}

/**
 * The interface to bind, refused when empty or not an address or a name a URL can carry (Node would bind every
 * interface for `''`), and when it is a spelling of the wildcard address other than `0.0.0.0` or `::` (`0`, `0.0`,
 * `::ffff:0.0.0.0`): those bind every interface too, and the bin would not say so.
 */
function host(text: string): string {
  const problem = hostProblem(text);
  if (problem === 'not a host') {
    throw new Error(
      `--host must be an interface address or name, such as 127.0.0.1, ::1, localhost, or 0.0.0.0 for all of them; got ${shown(text)}`,
    );
  }
  if (problem === 'wildcard') {
    throw new Error(
      `--host ${text} means every interface: write 0.0.0.0 (or ::) to listen on all of them, or 127.0.0.1 for this machine only`,
    );
  }
  return text;
}

function basePath(text: string): string {
  // A `.` or `..` segment would be resolved away by every client's URL: nothing could reach the site.
  if (text.length > 200 || !/^(\/[\w.~-]+)+\/*$/.test(text) || /\/\.{1,2}(\/|$)/.test(text))
    throw new Error(
      `--base-path must look like /market (segments of letters, digits and . _ ~ -), got ${shown(text)}`,
    );
  return text;
}

function purchaseCodes(codes: readonly string[]): string[] {
  if (codes.length > BOUNDS.purchaseCodes)
    throw new Error(`--purchase-code is given ${codes.length} times; at most ${BOUNDS.purchaseCodes}`);
  for (const code of codes) {
    if (!/^[A-Za-z0-9_-]{1,100}$/.test(code))
      throw new Error(
        `--purchase-code must be 1 to 100 letters, digits, - or _ (such as a UUID), got ${shown(code)}`,
      );
  }
  return [...codes];
}

/** A value as a message shows it: quoted when it is empty or has spaces or controls, and cut at 60 characters. */
function shown(text: string): string {
  const cut = text.length > 60 ? `${text.slice(0, 60)}…` : text;
  return cut === '' || /[\s"'\p{Cc}]/u.test(cut) ? JSON.stringify(cut) : cut;
}

function rate(flag: string, text: string): number {
  const r = Number(text);
  if (!/^(\d+\.?\d*|\.\d+)$/.test(text) || !(r >= 0 && r <= 1))
    throw new Error(`${flag} must be between 0 and 1, got ${shown(text)}`);
  return r;
}
