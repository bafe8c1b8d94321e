/**
 * Bulk-jobs soak (`npm run soak:bulk`): issue 36's jobs at full size, written with the bulk jobs, against the reference
 * server's rate limiter as the package's bin runs it (10 requests a second per key, over a real 127.0.0.1 socket),
 * each with a client of default options:
 *   import    `pixels.createMany` of 2 000 rows with 10 % of answers a 5xx and 5 % lost (stored, then the connection
 *             dropped); aborted half-way, then run again with the same rows;
 *   sync      500 desired pixels against another state (200 to create, 100 to update, 200 to delete with prune),
 *             one record edited by hand after the plan was made, applied once under 5 % 5xx;
 *   audit     `purchases.validateMany` of 5 000 codes (half valid, half unknown).
 * Checks: 0 rows lost, 0 doubled, the report equal to the server's final state, the import's 429s under 5 % of its
 * requests; the sync converged in one apply with the edited row refused (conflict) and kept; every code answered as
 * the server answers it, 0 RateLimitError. Prints the figures and exits 1 on any violation.
 *
 * Options (env): SOAK_BULK (import,sync,audit), SOAK_ROWS (2000), SOAK_CODES (5000), SOAK_RATE (10), SOAK_SEED (42).
 */
import { CatalogClient, ManagementClient, type PixelCreateParams, RateLimitError } from '../src/index.js';
import {
  createReferenceServer,
  listen,
  type ReferenceServer,
  SEED_CATALOG_KEYS,
  SEED_MANAGEMENT_KEYS,
} from '../src/testing/index.js';

const env = process.env;
const JOBS = (env.SOAK_BULK ?? 'import,sync,audit').split(',').map((job) => job.trim());
const ROWS = Number(env.SOAK_ROWS ?? 2_000);
const CODES = Number(env.SOAK_CODES ?? 5_000);
const RATE = Number(env.SOAK_RATE ?? 10);
const SEED = Number(env.SOAK_SEED ?? 42);
const KEY = SEED_MANAGEMENT_KEYS[0];
const problems: string[] = [];
const check = (ok: boolean, what: string) => {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) problems.push(what);
};
const secs = (ms: number) => `${(ms / 1_000).toFixed(1)} s`;

async function server(options: Parameters<typeof createReferenceServer>[0]) {
  const api = createReferenceServer({ ...options, rateLimit: { limit: RATE, windowMs: 1_000 } });
  const { url, close } = await listen(api, { port: 0 });
  return { api, url, close };
}

const rows = (n: number, prefix: string): PixelCreateParams[] =>
  Array.from({ length: n }, (_, i) => ({ name: `${prefix} ${i}`, type: 'facebook', value: String(i) }));

function namesOf(api: ReferenceServer, prefix: string): Map<string, number[]> {
  const byName = new Map<string, number[]>();
  for (const pixel of api.store.pixels(KEY))
    if (pixel.name.startsWith(prefix)) byName.set(pixel.name, [...(byName.get(pixel.name) ?? []), pixel.id]);
  return byName;
}

async function importJob(): Promise<void> {
  console.log(`import: createMany of ${ROWS} rows, 10 % 5xx, 5 % lost, aborted half-way and run again`);
  const { api, url, close } = await server({ seed: false });
  try {
    api.faults.set({ failureRate: 0.1, loseResponseRate: 0.05, seed: SEED });
    const mgmt = new ManagementClient({ baseUrl: url, apiKey: KEY, logLevel: 'off' });
    const given = rows(ROWS, 'Import');
    const started = performance.now();
    const controller = new AbortController();
    const first = await mgmt.pixels.createMany(given, {
      signal: controller.signal,
      onProgress: ({ done }) => {
        if (done === ROWS / 2) controller.abort();
      },
    });
    const half = performance.now();
    const again = await mgmt.pixels.createMany(given);
    const ended = performance.now();
    const byName = namesOf(api, 'Import');
    const doubled = [...byName.values()].filter((ids) => ids.length > 1).length;
    const mismatched = again.entries.filter(
      (entry) => 'record' in entry && byName.get(entry.row.name)?.[0] !== entry.record.id,
    ).length;
    const statuses = api.requests.map((request) => request.status);
    const limited = statuses.filter((status) => status === 429).length;
    const lost = api.requests.filter((request) => request.fault === 'lose-response').length;
    const failures = statuses.filter((status) => (status ?? 0) >= 500).length;
    console.log(
      `  first run: ${first.created} created, ${first.existed} existed, ${first.failed} failed, ${first.skipped} skipped (aborted) in ${secs(half - started)}`,
    );
    console.log(
      `  run again: ${again.created} created, ${again.existed} existed, ${again.failed} failed in ${secs(ended - half)}`,
    );
    console.log(
      `  server: ${api.requests.length} requests, ${failures} answered 5xx, ${lost} answers lost, ${limited} answered 429 (${((100 * limited) / api.requests.length).toFixed(1)} %)`,
    );
    check(
      again.failed === 0 && again.created + again.existed === ROWS,
      'every row created or found (0 lost)',
    );
    check(
      byName.size === ROWS && doubled === 0,
      `each row stored once (${byName.size} names, ${doubled} doubled)`,
    );
    check(mismatched === 0, 'the report equal to the server (each entry names the stored record)');
    check(limited / api.requests.length < 0.05, 'fewer than 5 % of requests answered 429');
  } finally {
    await close();
  }
}

async function syncJob(): Promise<void> {
  console.log(
    'sync: 500 desired (200 create, 100 update, 200 delete with prune), one row edited after the plan, 5 % 5xx',
  );
  const { api, url, close } = await server({ seed: false });
  try {
    const mgmt = new ManagementClient({ baseUrl: url, apiKey: KEY, logLevel: 'off' });
    await mgmt.pixels.createMany([...rows(300, 'Keep'), ...rows(200, 'Gone')]);
    const desired = [
      ...rows(300, 'Keep').map((row, i) => (i < 100 ? { ...row, value: `new ${i}` } : row)),
      ...rows(200, 'Made'),
    ];
    const started = performance.now();
    const plan = await mgmt.pixels.sync(desired, { prune: true });
    console.log(`  ${plan.toString().split('\n')[0]}`);
    const edited = plan.updates[0]?.before;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    if (edited) await mgmt.pixels.update(edited.id, { value: 'by hand' });
    api.faults.set({ failureRate: 0.05, seed: SEED });
    const report = await plan.apply();
    api.faults.clear();
    console.log(
      `  apply: ${report.created} created, ${report.updated} updated, ${report.deleted} deleted, ${report.conflicts} conflicts, ${report.failed} failed in ${secs(performance.now() - started)}`,
    );
    const now = new Map(api.store.pixels(KEY).map((pixel) => [pixel.name, pixel.value]));
    const expected = new Map(desired.map((row) => [row.name, row.value]));
    if (edited) expected.set(edited.name, 'by hand');
    const same =
      now.size === expected.size && [...expected].every(([name, value]) => now.get(name) === value);
    check(report.failed === 0 && report.conflicts === 1, 'one apply: 0 failed, the edited row refused');
    check(same, 'the server holds exactly the desired state (the edited row as edited)');
  } finally {
    await close();
  }
}

async function auditJob(): Promise<void> {
  console.log(`audit: validateMany of ${CODES} codes, half valid`);
  const valid = Array.from(
    { length: CODES / 2 },
    (_, i) => `c0de0000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  );
  const unknown = Array.from(
    { length: CODES / 2 },
    (_, i) => `dead0000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  );
  const { api, url, close } = await server({ seed: { purchaseCodes: valid } });
  try {
    const catalog = new CatalogClient({ siteUrl: url, apiKey: SEED_CATALOG_KEYS[0], logLevel: 'off' });
    const codes = [...valid, ...unknown].sort();
    const started = performance.now();
    const report = await catalog.purchases.validateMany(codes);
    const validSet = new Set(valid);
    const wrong = report.entries.filter(
      (entry) => (entry.status === 'valid') !== validSet.has(entry.code),
    ).length;
    const limited = report.entries.filter(
      (entry) => 'error' in entry && entry.error instanceof RateLimitError,
    ).length;
    console.log(
      `  ${report.valid} valid, ${report.invalid} invalid, ${report.failed} failed in ${secs(performance.now() - started)}; server: ${api.requests.length} requests, ${api.requests.filter((r) => r.status === 429).length} answered 429`,
    );
    check(wrong === 0 && report.failed === 0, 'every code answered as the server answers it');
    check(limited === 0, '0 RateLimitError');
  } finally {
    await close();
  }
}

for (const job of JOBS) {
  if (job === 'import') await importJob();
  else if (job === 'sync') await syncJob();
  else if (job === 'audit') await auditJob();
  else throw new Error(`SOAK_BULK: unknown job ${job} (import, sync, audit)`);
}
console.log(problems.length === 0 ? 'soak:bulk: every check held' : `soak:bulk: ${problems.length} failed`);
process.exitCode = problems.length === 0 ? 0 : 1;
