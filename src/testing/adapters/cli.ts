import { parseArgs } from 'node:util';
import type { FaultSettings } from '../core/faults.js';
import type { ReferenceServerOptions } from '../server.js';

/** The bin's usage text. */
export const USAGE = `Usage: content-platform-reference-server [options]
  --port N              port to listen on (default 4010; 0 picks a free one)
  --host H              interface (default 127.0.0.1; 0.0.0.0 or :: for all of them,
                        printing the loopback URL to use from this machine)
  --json                print one JSON line (URLs, keys, purchase codes, settings, env)
                        instead of text, and one more as it stops
  --flavor laravel|spec wire shapes (default laravel, as the real servers send)
  --locale ar|en        Catalog message words (default ar)
  --base-path /p        serve the site under a path, like https://example.com/p
  --pixels N            generated pixels added to the first workspace
  --domains N           generated domains added to the first workspace
  --items N             generated Catalog items added to the main account
  --purchase-code CODE  a valid purchase code to accept (repeatable)
  --rate-limit N        enforce N requests a window per key, with the real servers'
                        X-RateLimit-* headers and 429 + Retry-After (default: no limit)
  --rate-window MS      the window of --rate-limit, in ms (default 60000, a minute)
  --latency MS|MIN-MAX  added latency per request, in ms
  --failure-rate R      share of requests (0-1) answered 500 or 503
  --seed N              seed of latency ranges and failures (default 1)
  -v, --version         print the version
  -h, --help            this text
SIGINT or SIGTERM stops it, printing how many requests it served and how many met a 429.`;

/** What the command line asks for. */
export type Cli =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'usage-error'; message: string }
  | { kind: 'run'; port: number; host: string; json: boolean; server: ReferenceServerOptions };

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
      seed: text,
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
  if (v['failure-rate'] !== undefined) faults.failureRate = rate(v['failure-rate']);
  if (v.seed !== undefined) faults.seed = whole('--seed', v.seed);
  const server: ReferenceServerOptions = {
    flavor: v.flavor,
    locale: v.locale,
    seed: {
      pixels: whole('--pixels', v.pixels ?? '0'),
      domains: whole('--domains', v.domains ?? '0'),
      items: whole('--items', v.items ?? '0'),
      purchaseCodes: v['purchase-code'] ?? [],
    },
    faults,
  };
  if (v['rate-limit'] !== undefined) {
    server.rateLimit = { limit: whole('--rate-limit', v['rate-limit'], 1) };
    if (v['rate-window'] !== undefined)
      server.rateLimit.windowMs = whole('--rate-window', v['rate-window'], 1);
  } else if (v['rate-window'] !== undefined) throw new Error('--rate-window needs --rate-limit');
  if (v['base-path'] !== undefined) server.basePath = v['base-path'];
  const port = whole('--port', v.port);
  if (port > 65_535) throw new Error(`--port must be 0 to 65535, got ${v.port}`);
  return { port, host: v.host, json: v.json, server };
}

function whole(flag: string, text: string, min = 0): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min) throw new Error(`${flag} must be a whole number ≥ ${min}, got ${text}`);
  return n;
}

function latency(text: string): number | [number, number] {
  const [min, max] = text.split('-');
  if (max === undefined) return whole('--latency', text);
  const range: [number, number] = [whole('--latency', min ?? ''), whole('--latency', max)];
  if (range[0] > range[1]) throw new Error(`--latency range must be MIN-MAX, got ${text}`);
  return range;
}

function rate(text: string): number {
  const r = Number(text);
  if (text.trim() === '' || !(r >= 0 && r <= 1))
    throw new Error(`--failure-rate must be between 0 and 1, got ${text}`);
  return r;
}
