/**
 * Soak test (`npm run soak`): 10 000 calls at concurrency 64 against the reference server over a real
 * 127.0.0.1 socket, with a seeded 2 % of requests meeting an injected fault (5xx, 429, a reset connection, or a
 * create whose answer is lost after it was stored). Mixed reads and creates, both APIs.
 *
 * Checks: zero unexpected errors (a read must always end well; a create may fail only when its own request met
 * a fault after reaching the server, and then with the matching error class), zero lost creates (a create that
 * resolved is in the store) and zero duplicates (no name stored twice). Reports heap growth. Exits 1 on any
 * violation.
 *
 * Options (env): SOAK_CALLS (10000), SOAK_CONCURRENCY (64), SOAK_FAILURE_RATE (0.02), SOAK_SEED (42).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  CatalogClient,
  InternalServerError,
  ManagementClient,
  RateLimitError,
} from '../src/index.js';
// The reference server's own PRNG: the same seed gives the same run.
import { prng } from '../src/testing/core/faults.js';
import {
  createReferenceServer,
  type FetchHandler,
  listen,
  type ScriptedFault,
} from '../src/testing/index.js';

const CALLS = Number(process.env.SOAK_CALLS ?? 10_000);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 64);
const FAILURE_RATE = Number(process.env.SOAK_FAILURE_RATE ?? 0.02);
const SEED = Number(process.env.SOAK_SEED ?? 42);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

type Kind = 'status-500' | 'status-503' | 'status-429' | 'reset' | 'lose-response';
const FAULTS: Record<Kind, ScriptedFault> = {
  'status-500': { status: 500 },
  'status-503': { status: 503 },
  'status-429': { status: 429, body: { message: 'Too Many Attempts.' }, headers: { 'retry-after': '0' } },
  reset: 'reset',
  'lose-response': 'lose-response',
};
const KINDS = Object.keys(FAULTS) as Kind[];

const MGMT_KEY = 'soak-management-key-0001';
const CATALOG_KEY = 'soak-catalog-key-0001';
const server = createReferenceServer({ managementKeys: [MGMT_KEY], catalogKeys: [CATALOG_KEY] });
const random = prng(SEED);
const injected: Record<Kind, number> = {
  'status-500': 0,
  'status-503': 0,
  'status-429': 0,
  reset: 0,
  'lose-response': 0,
};
/** Faults met by each create, by pixel name. */
const createFaults = new Map<string, Kind[]>();
let requests = 0;

// In front of the server: decides each request's fate from the seeded PRNG and scripts it just before the
// server's own decide() runs (synchronously, so no other request can take it).
const front: FetchHandler = {
  async fetch(request) {
    requests += 1;
    const kind = random() < FAILURE_RATE ? KINDS[Math.floor(random() * KINDS.length)] : undefined;
    let name: string | null = null;
    if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/v1/pixels')) {
      name = new URLSearchParams(await request.clone().text()).get('name');
    }
    if (kind) {
      injected[kind] += 1;
      if (name) createFaults.set(name, [...(createFaults.get(name) ?? []), kind]);
      server.faults.script([FAULTS[kind]]);
    }
    return server.fetch(request);
  },
};

const retries = { count: 0 };
const logger = {
  error: () => {},
  warn: (line: string) => {
    if (line.includes(': retry ')) retries.count += 1;
  },
  info: () => {},
  debug: () => {},
};

interface Outcome {
  op: string;
  ms: number;
  error?: unknown;
  name?: string;
}

async function main() {
  const live = await listen(front, { port: 0 });
  const common = { apiKey: MGMT_KEY, maxRetries: 3, timeout: 10_000, logger, logLevel: 'warn' as const };
  const mgmt = new ManagementClient({ ...common, baseUrl: live.url });
  const catalog = new CatalogClient({ ...common, apiKey: CATALOG_KEY, siteUrl: live.url });
  const seededIds = server.store.pixels(MGMT_KEY).map((p) => p.id);
  const codes = server.fixtures.purchaseCodes;

  const operations: [string, number, (i: number) => Promise<unknown>][] = [
    ['pixels.get', 30, (i) => mgmt.pixels.get(seededIds[i % seededIds.length] ?? 1)],
    ['pixels.list', 15, (i) => mgmt.pixels.list({ per_page: 25, page: (i % 3) + 1 })],
    ['domains.list', 10, () => mgmt.domains.list()],
    [
      'pixels.create',
      20,
      (i) => mgmt.pixels.create({ name: `soak-${i}`, type: 'facebook', value: String(i) }),
    ],
    ['items.get', 10, (i) => catalog.items.get(101 + (i % 9))],
    ['items.list', 5, () => catalog.items.list()],
    ['purchases.validate', 10, () => catalog.purchases.validate(codes.supported)],
  ];
  const weights = operations.reduce((sum, [, w]) => sum + w, 0);
  const pick = prng(SEED + 1);
  const plan = Array.from({ length: CALLS }, () => {
    let roll = pick() * weights;
    for (const op of operations) {
      roll -= op[1];
      if (roll < 0) return op;
    }
    return operations[0] as (typeof operations)[number];
  });

  // Warm up (JIT, sockets), then measure the heap from a collected baseline.
  await Promise.all(
    Array.from({ length: 64 }, (_, i) => mgmt.pixels.get(seededIds[i % seededIds.length] ?? 1)),
  );
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const outcomes: Outcome[] = [];
  let next = 0;
  async function worker() {
    while (next < plan.length) {
      const i = next++;
      const [op, , run] = plan[i] as (typeof plan)[number];
      const t0 = performance.now();
      const outcome: Outcome = { op, ms: 0 };
      if (op === 'pixels.create') outcome.name = `soak-${i}`;
      try {
        await run(i);
      } catch (error) {
        outcome.error = error;
      }
      outcome.ms = performance.now() - t0;
      outcomes.push(outcome);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  gc();
  const heapAfter = process.memoryUsage().heapUsed;
  await live.close();

  // Reconcile against the store.
  const violations: string[] = [];
  const stored = new Map<string, number>();
  for (const pixel of server.store.pixels(MGMT_KEY))
    stored.set(pixel.name, (stored.get(pixel.name) ?? 0) + 1);
  let expectedFailures = 0;
  let createsOk = 0;
  let createsFailed = 0;
  for (const o of outcomes) {
    if (o.name === undefined) {
      if (o.error) violations.push(`${o.op} failed: ${describe(o.error)}`);
      continue;
    }
    const count = stored.get(o.name) ?? 0;
    const faults = createFaults.get(o.name) ?? [];
    if (count > 1) violations.push(`${o.name} stored ${count} times (duplicated)`);
    if (!o.error) {
      createsOk += 1;
      if (count !== 1) violations.push(`${o.name} resolved but is not stored (lost)`);
      continue;
    }
    createsFailed += 1;
    const [kind] = faults;
    const expected =
      (kind === 'status-500' || kind === 'status-503') && o.error instanceof InternalServerError
        ? 0
        : kind === 'status-429' && o.error instanceof RateLimitError
          ? 0
          : kind === 'reset' &&
              o.error instanceof APIConnectionError &&
              !(o.error instanceof APIConnectionTimeoutError)
            ? 0
            : kind === 'lose-response' && o.error instanceof APIConnectionError
              ? 1
              : undefined;
    if (expected === undefined)
      violations.push(
        `${o.name} failed unexpectedly (faults ${faults.join(',') || 'none'}): ${describe(o.error)}`,
      );
    else if (count !== expected)
      violations.push(`${o.name} failed after ${kind} but is stored ${count} times, not ${expected}`);
    else expectedFailures += 1;
    if (faults.length > 1)
      violations.push(`${o.name} was sent ${faults.length} times (a create was retried)`);
  }
  const soakNames = [...stored.keys()].filter((n) => n.startsWith('soak-'));
  const known = new Set(outcomes.map((o) => o.name).filter(Boolean));
  for (const name of soakNames) if (!known.has(name)) violations.push(`${name} stored but never created`);

  const latencies = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  const totalInjected = Object.values(injected).reduce((a, b) => a + b, 0);
  const summary = [
    `soak: ${outcomes.length} calls, concurrency ${CONCURRENCY}, over ${live.url} in ${seconds.toFixed(1)} s (${Math.round(outcomes.length / seconds)} calls/s)`,
    `  requests received ${requests}; faults injected ${totalInjected} (${((100 * totalInjected) / requests).toFixed(2)} %): ${KINDS.map((k) => `${k} ${injected[k]}`).join(', ')}`,
    `  retries ${retries.count}; latency p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms, max ${pct(100).toFixed(1)} ms`,
    `  creates: ${createsOk} resolved and stored once, ${createsFailed} failed (${expectedFailures} expected: their request met a fault after reaching the server; lost answers stored once, never twice)`,
    `  reads: ${outcomes.filter((o) => o.name === undefined).length}, failed ${outcomes.filter((o) => o.name === undefined && o.error).length}`,
    `  unexpected errors ${violations.filter((v) => v.includes('failed')).length}; lost creates ${violations.filter((v) => v.includes('(lost)')).length}; duplicated creates ${violations.filter((v) => v.includes('duplicated') || v.includes('retried')).length}`,
    `  heap ${mb(heapBefore)} MB → ${mb(heapAfter)} MB after GC (growth ${mb(heapAfter - heapBefore)} MB; the store and request log grew by ${soakNames.length} pixels and ${requests} entries)`,
  ];
  console.log(summary.join('\n'));
  if (violations.length > 0) {
    console.error(
      `\nsoak: ${violations.length} violation(s):\n${violations
        .slice(0, 50)
        .map((v) => `  - ${v}`)
        .join('\n')}`,
    );
    process.exit(1);
  }
  console.log('soak: OK');
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
