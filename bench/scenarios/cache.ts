// Section 1e: license checks through the purchase cache (issue 27), over the socket on the server of sections 1–1c.
// First one call at a time, interleaved in a rotating order: a validation answered by a fresh entry (a hit), one
// that asks the server and rewrites the entry (`{ cache: false }`), the same SDK without a cache, and bare ky. Then
// a burst: 1 000 validations of 50 codes started at once, with and without the cache, the requests counted.
import { CatalogClient } from 'content-platform-sdk';
import ky from 'ky';
import type { Call } from '../lib/calls.ts';
import type { Context, Section } from '../lib/env.ts';
import { fx, median, pairedRatio, us } from '../lib/stats.ts';
import { interleaved, type Samples } from './latency.ts';

export interface CacheFigures {
  /** Hit / bare ky: ratio of the wall-time medians. */
  hitKy: number;
  /** Hit / the SDK without a cache: ratio of the wall-time medians. */
  hitUncached: number;
  /** The same, median of the per-round ratios. */
  pairedHitUncached: number;
  /** `{ cache: false }` (asks, writes the entry) / the SDK without a cache: what the cache adds to a request. */
  refreshUncached: number;
  /** The same, median of the per-round ratios. */
  pairedRefreshUncached: number;
  /** Client CPU, hit / the SDK without a cache. */
  cpuHitUncached: number;
  burst: { cached: Burst; uncached: Burst };
}

export interface Burst {
  validations: number;
  codes: number;
  /** Requests that reached fetch. */
  requests: number;
  wallMs: number;
}

const ROUNDS = 3000;
const BURST = 1000;

export async function cache({ info, quick }: Context): Promise<Section<CacheFigures>> {
  const lines = [
    '## 1e. License checks through the purchase cache (interleaved, rotating order, medians)',
    '',
    '`purchases.validate(code)` on a client with `cache: { ttl: 3_600_000 }` (in-memory store): answered by a',
    'fresh entry (hit), and with `{ cache: false }` (asks the server, rewrites the entry); the same call on a client',
    'without a cache; bare ky posting the same body. One call at a time, over the socket.',
    '',
    '| call | hit | `cache: false` | no cache | bare ky | hit / no cache | (paired) | hit / bare ky | `cache: false` / no cache | (paired) | client CPU hit · `cache: false` · no cache · ky |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const options = { siteUrl: info.small, apiKey: info.catalogKey };
  const cached = new CatalogClient({ ...options, cache: { ttl: 3_600_000 } });
  const plain = new CatalogClient(options);
  const bare = ky.create({
    prefix: `${info.small}/api/`,
    headers: { accept: 'application/json', 'user-agent': 'content-platform-sdk/bench' },
  });
  const code = info.purchaseCode;
  const body = { purchase_code: code, api_key: info.catalogKey };

  // Each variant is what it claims to be, before it is timed.
  const first = await cached.purchases.validate(code).withResponse();
  const second = await cached.purchases.validate(code).withResponse();
  const refreshed = await cached.purchases.validate(code, { cache: false }).withResponse();
  const states = [
    first.cache,
    second.cache,
    refreshed.cache,
    (await plain.purchases.validate(code).withResponse()).cache,
  ];
  if (states.join() !== 'miss,hit,miss,' || second.data.purchase_code !== code) {
    throw new Error(`cache: unexpected cache states ${JSON.stringify(states)}`);
  }

  const calls: Call[] = [
    () => cached.purchases.validate(code),
    () => cached.purchases.validate(code, { cache: false }),
    () => plain.purchases.validate(code),
    () => bare.post('purchases/validation', { json: body }).json(),
  ];
  const rounds = Math.max(100, Math.round(ROUNDS * (quick ? 0.2 : 1)));
  const warmup = Math.round(rounds / 10);
  const before = cached.cache?.hits ?? 0;
  const [hit, refresh, none, k] = (await interleaved(calls, rounds, warmup)) as [
    Samples,
    Samples,
    Samples,
    Samples,
  ];
  const hits = (cached.cache?.hits ?? 0) - before;
  if (hits !== rounds + warmup) throw new Error(`cache: ${hits} hits for ${rounds + warmup} cached calls`);

  const m = (r: Samples) => median(r.wall);
  const burst = { cached: await runBurst(info, true), uncached: await runBurst(info, false) };
  const figures: CacheFigures = {
    hitKy: m(hit) / m(k),
    hitUncached: m(hit) / m(none),
    pairedHitUncached: pairedRatio(hit.wall, none.wall),
    refreshUncached: m(refresh) / m(none),
    pairedRefreshUncached: pairedRatio(refresh.wall, none.wall),
    cpuHitUncached: median(hit.cpu) / median(none.cpu),
    burst,
  };
  const cpu = [hit, refresh, none, k].map((r) => us(median(r.cpu))).join(' · ');
  lines.push(
    `| purchases.validate | ${us(m(hit))} | ${us(m(refresh))} | ${us(m(none))} | ${us(m(k))} | ` +
      `${fx(figures.hitUncached, 3)}× | ${fx(figures.pairedHitUncached, 3)}× | ${fx(figures.hitKy, 3)}× | ` +
      `${fx(figures.refreshUncached)}× | ${fx(figures.pairedRefreshUncached)}× | ${cpu} |`,
    '',
    `A burst: ${BURST} validations of ${burst.cached.codes} codes (each code ${BURST / burst.cached.codes} times), ` +
      'all started at once on a new client; requests counted at its `fetch`.',
    '',
    '| client | requests | wall |',
    '|---|---:|---:|',
    `| \`cache: { ttl: 3_600_000 }\` | ${burst.cached.requests} | ${fx(burst.cached.wallMs, 1)} ms |`,
    `| no cache | ${burst.uncached.requests} | ${fx(burst.uncached.wallMs, 1)} ms |`,
    '',
  );
  return { figures, lines };
}

/** 1 000 validations of the server's 50 extra codes, all at once, on a new client whose fetch counts requests. */
async function runBurst(info: Context['info'], withCache: boolean): Promise<Burst> {
  let requests = 0;
  const counting = (input: Request | string | URL, init?: RequestInit) => {
    requests += 1;
    return fetch(input, init);
  };
  const client = new CatalogClient({
    siteUrl: info.small,
    apiKey: info.catalogKey,
    fetch: counting,
    ...(withCache ? { cache: { ttl: 3_600_000 } } : {}),
  });
  const codes = info.purchaseCodes;
  const t0 = performance.now();
  const answers = await Promise.all(
    Array.from({ length: BURST }, (_, i) => client.purchases.validate(codes[i % codes.length] as string)),
  );
  const wallMs = performance.now() - t0;
  const wrong = answers.filter((p, i) => p.purchase_code !== codes[i % codes.length]).length;
  if (wrong > 0) throw new Error(`cache: ${wrong} answers about another code in the burst`);
  return { validations: BURST, codes: codes.length, requests, wallMs };
}
