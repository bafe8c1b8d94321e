// Peak memory of a job that hands one client every call at once (issue 34, item 3): 5 000 purchase validations and
// 2 000 creates against the reference server's bin (its own process, no rate limit, 20 ms of latency, over 127.0.0.1),
// each variant in a fresh process: the default cap on requests in flight, no cap (`maxConcurrent: Infinity`), and a
// pool of 8 workers awaiting one call each (the pattern the cap stands in for). Peak RSS is the process's own
// high-water mark (`process.resourceUsage().maxRSS`). A measurement, not a test.
//
//   bash scripts/node.sh tsx bench/in-flight.ts            (runs every variant, prints a markdown table)
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CatalogClient, ManagementClient } from '../src/index.js';

const SELF = fileURLToPath(import.meta.url);
const BIN = fileURLToPath(new URL('../src/testing/bin.ts', import.meta.url));
const VALIDATIONS = 5_000;
const CREATES = 2_000;
const VARIANTS = ['default (16)', 'Infinity', '8 workers'] as const;
type Variant = (typeof VARIANTS)[number];

interface Measured {
  variant: Variant;
  job: string;
  ms: number;
  peakMiB: number;
  failed: number;
}

if (process.env.IN_FLIGHT_CHILD) await child();
else await parent();

/** One variant, one job, in this process: what the parent reads is the last line, JSON. */
async function child(): Promise<void> {
  const { IN_FLIGHT_CHILD: variant, JOB: job, BASE_URL: baseUrl, MGMT_KEY, CATALOG_KEY, CODE } = process.env;
  const rateLimit = variant === 'Infinity' ? { maxConcurrent: Number.POSITIVE_INFINITY } : {};
  const common = { logLevel: 'off' as const, rateLimit };
  const catalog = new CatalogClient({ siteUrl: baseUrl, apiKey: CATALOG_KEY, ...common });
  const mgmt = new ManagementClient({ baseUrl, apiKey: MGMT_KEY, ...common });
  const count = job === 'validate' ? VALIDATIONS : CREATES;
  const call = (i: number) =>
    job === 'validate'
      ? catalog.purchases.validate(CODE as string)
      : mgmt.pixels.create({
          name: `inflight-${process.pid}-${i}`,
          type: 'facebook',
          value: String(1_000 + i),
        });
  const started = performance.now();
  let failed = 0;
  if (variant === '8 workers') {
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < count) {
          const i = next++;
          await call(i).catch(() => {
            failed += 1;
          });
        }
      }),
    );
  } else {
    const results = await Promise.allSettled(Array.from({ length: count }, (_, i) => call(i)));
    failed = results.filter((r) => r.status === 'rejected').length;
  }
  const ms = Math.round(performance.now() - started);
  const peakMiB = Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;
  console.log(JSON.stringify({ variant, job, ms, peakMiB, failed }));
}

async function parent(): Promise<void> {
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', BIN, '--port', '0', '--json', '--latency', '20'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    const info = await firstJson(server);
    const env = {
      BASE_URL: info.url as string,
      MGMT_KEY: (info.management as { keys: string[] }).keys[0] as string,
      CATALOG_KEY: (info.catalog as { keys: string[] }).keys[0] as string,
      CODE: (info.purchaseCodes as { valid: string[] }).valid[0] as string,
    };
    const rows: Measured[] = [];
    for (const job of ['validate', 'create']) {
      for (const variant of VARIANTS) {
        const run = spawn(process.execPath, ['--import', 'tsx', SELF], {
          env: { ...process.env, ...env, IN_FLIGHT_CHILD: variant, JOB: job },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        rows.push((await firstJson(run, true)) as unknown as Measured);
      }
    }
    const base = (job: string) => rows.find((r) => r.job === job && r.variant === '8 workers')?.peakMiB ?? 1;
    console.log('| job | variant | peak RSS | × 8 workers | wall | failed |');
    console.log('|---|---|---:|---:|---:|---:|');
    for (const r of rows) {
      const jobName = r.job === 'validate' ? `${VALIDATIONS} validations` : `${CREATES} creates`;
      const ratio = (r.peakMiB / base(r.job)).toFixed(2);
      console.log(`| ${jobName} | ${r.variant} | ${r.peakMiB} MiB | ${ratio}× | ${r.ms} ms | ${r.failed} |`);
    }
  } finally {
    server.kill('SIGTERM');
  }
}

/** The first JSON line a child prints (or its last, with `last`), parsed. */
function firstJson(child: ChildProcess, last = false): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      if (last) return;
      const line = text.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    child.once('exit', (code) => {
      const line = text
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .at(-1);
      if (line) resolve(JSON.parse(line));
      else reject(new Error(`child exited ${code} without a JSON line`));
    });
  });
}
