import type { ReferenceServer } from '../server.js';
import { isWildcardHost } from './node.js';

/** Where a server listens: what {@link serverInfo} needs of a `ListeningServer`. */
export interface ListeningAddress {
  /** The origin a client on this machine calls (loopback when bound to every interface). */
  url: string;
  /** The interface it is bound to, as given. */
  host: string;
  /** The port it is bound to. */
  port: number;
}

/** What `--json` prints: where each API is, its keys, the purchase codes, the settings in effect, the env. */
export interface ServerInfo {
  /** The package's version. */
  version: string;
  /** The origin to give the SDK from this machine (the loopback address when it listens on every interface). */
  url: string;
  /** The interface and port it is bound to; `allInterfaces` when the host is `0.0.0.0` or `::`. */
  listen: { host: string; port: number; allInterfaces: boolean };
  /** Wire shapes: `laravel` or `spec`. */
  flavor: string;
  /** Catalog message words: `ar` or `en`. */
  locale: string;
  /** The per-key limit it enforces (`windowMs` in ms), or `false` for none. */
  rateLimit: { limit: number; windowMs: number } | false;
  /**
   * Standing faults: latency in ms (fixed or `[min, max]`), share of requests failed and with which statuses, share
   * processed and then left unanswered (the connection dropped), seed.
   */
  faults: {
    latencyMs: number | readonly [number, number];
    failureRate: number;
    failureStatuses: readonly number[];
    loseResponseRate: number;
    seed: number;
  };
  /** The Management API: the `baseUrl` to give the SDK, the API root it calls, the accepted keys. */
  management: { baseUrl: string; apiRoot: string; keys: string[] };
  /** The Catalog API: the `siteUrl` to give the SDK, the API root it calls, the accepted keys. */
  catalog: { siteUrl: string; apiRoot: string; keys: string[] };
  /** Purchase codes the Catalog accepts, and one it refuses. */
  purchaseCodes: { valid: string[]; invalid: string };
  /** The environment variables the SDK reads, set to reach this server. */
  env: Record<string, string>;
}

/** The facts about a running server, for people (`describeText`) and scripts (`--json`). */
export function serverInfo(server: ReferenceServer, at: ListeningAddress, version: string): ServerInfo {
  const site = `${at.url}${server.basePath}`;
  const { latencyMs, failureRate, failureStatuses, loseResponseRate, seed } = server.faults.settings;
  return {
    version,
    url: at.url,
    listen: { host: at.host, port: at.port, allInterfaces: isWildcardHost(at.host) },
    flavor: server.flavor,
    locale: server.locale,
    rateLimit: server.rateLimit ? { ...server.rateLimit } : false,
    faults: { latencyMs, failureRate, failureStatuses, loseResponseRate, seed },
    management: { baseUrl: site, apiRoot: `${site}/api/v1`, keys: [...server.keys.management] },
    catalog: { siteUrl: site, apiRoot: `${site}/api`, keys: [...server.keys.catalog] },
    purchaseCodes: {
      valid: server.store.purchases().map((p) => p.purchase_code),
      invalid: server.fixtures.purchaseCodes.invalid,
    },
    env: {
      CONTENT_PLATFORM_BASE_URL: site,
      CONTENT_PLATFORM_MANAGEMENT_API_KEY: server.keys.management[0] ?? '',
      CONTENT_PLATFORM_SITE_URL: site,
      CONTENT_PLATFORM_CATALOG_API_KEY: server.keys.catalog[0] ?? '',
    },
  };
}

/** The lines the bin prints for people: where it is, the settings in effect, and `export` lines to paste. */
export function describeText(info: ServerInfo): string[] {
  const { listen, faults } = info;
  const where = listen.allInterfaces
    ? `port ${listen.port} of all interfaces (${listen.host}); use ${info.url}`
    : info.url;
  const lines = [
    `Content Platform reference server ${info.version} (${info.flavor} flavor) listening on ${where}`,
  ];
  const insecure = 'the SDK calls http:// to a host that is not loopback only with allowInsecureHttp: true';
  if (listen.allInterfaces)
    lines.push(`  Other machines reach it at http://<this machine's address>:${listen.port}; ${insecure}.`);
  else if (!isLoopbackHost(new URL(info.url).hostname)) lines.push(`  Note: ${insecure}.`);
  const limit = info.rateLimit;
  const seeded = ` (seed ${faults.seed})`;
  lines.push(
    `  Management API: ${info.management.apiRoot}   keys: ${info.management.keys.join(', ')}`,
    `  Catalog API:    ${info.catalog.apiRoot}      keys: ${info.catalog.keys.join(', ')}`,
    `  Purchase codes: valid ${validCodes(info.purchaseCodes.valid)}; invalid ${info.purchaseCodes.invalid}`,
    `  Rate limit:     ${
      limit
        ? `${plural(limit.limit, 'request')} per key every ${duration(limit.windowMs)}, then 429 with Retry-After`
        : 'none (--rate-limit N enforces one)'
    }`,
    `  Latency:        ${
      typeof faults.latencyMs === 'number'
        ? faults.latencyMs === 0
          ? 'none'
          : `${faults.latencyMs} ms a request`
        : `${faults.latencyMs[0]}-${faults.latencyMs[1]} ms a request${seeded}`
    }`,
    `  Failures:       ${failures(faults, seeded)}`,
    '',
    'Point the SDK and the examples at it (paste into a shell):',
    ...Object.entries(info.env).map(([name, value]) => `export ${name}=${shellWord(value)}`),
    '',
    'Ctrl+C stops it and prints a summary.',
  );
  return lines;
}

/** What the bin prints as it stops: the requests it served since it started, and how many met a 429. */
export interface ServedSummary {
  /** The signal that stopped it. */
  stopped: string;
  /** Requests received. */
  requests: number;
  /** Requests answered 429 (over the rate limit). */
  rateLimited: number;
  /** Requests answered with an injected failure (`--failure-rate`). */
  injectedFailures: number;
  /** Requests processed and then left unanswered, their connection dropped (`--lose-rate`). */
  lostResponses: number;
}

/** Counts the server's request log for the summary printed on exit. */
export function summarize(server: ReferenceServer, signal: string): ServedSummary {
  let rateLimited = 0;
  let injectedFailures = 0;
  let lostResponses = 0;
  for (const request of server.requests) {
    if (request.status === 429) rateLimited += 1;
    if (typeof request.fault === 'object') injectedFailures += 1;
    if (request.fault === 'lose-response') lostResponses += 1;
  }
  return { stopped: signal, requests: server.requests.length, rateLimited, injectedFailures, lostResponses };
}

/** The summary as one line for people; injected failures and lost answers are named only when there were some. */
export function describeSummary(summary: ServedSummary): string {
  const failures =
    summary.injectedFailures > 0 ? `, ${plural(summary.injectedFailures, 'injected failure')}` : '';
  const lost = summary.lostResponses > 0 ? `, ${plural(summary.lostResponses, 'answer')} lost` : '';
  return `Stopped (${summary.stopped}): served ${plural(summary.requests, 'request')}, ${summary.rateLimited} answered 429${failures}${lost}.`;
}

/** The Failures line: the share answered with a status, and the share processed then left unanswered. */
function failures(faults: ServerInfo['faults'], seeded: string): string {
  const parts: string[] = [];
  if (faults.failureRate > 0)
    parts.push(`${percent(faults.failureRate)} of requests answered ${faults.failureStatuses.join(' or ')}`);
  if (faults.loseResponseRate > 0)
    parts.push(
      `${percent(faults.loseResponseRate)}${parts.length > 0 ? '' : ' of requests'} processed, then the connection dropped unanswered`,
    );
  return parts.length === 0 ? 'none' : `${parts.join(', ')}${seeded}`;
}

/** At most 10 codes written out: a seed file of a thousand would make a line of 37 000 characters. */
function validCodes(codes: readonly string[]): string {
  if (codes.length <= 10) return codes.join(', ');
  return `${codes.slice(0, 4).join(', ')}, … (${codes.length} in all; --json lists every one)`;
}

// As the SDK decides it: http:// to these never leaves the machine, so the SDK calls them without a flag.
function isLoopbackHost(hostname: string): boolean {
  return /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i.test(hostname);
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const percent = (rate: number) => `${Number((rate * 100).toFixed(2))}%`;
const duration = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);
// A value a POSIX shell reads back unchanged: bare when it is plain, else single-quoted.
const shellWord = (value: string) =>
  /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
