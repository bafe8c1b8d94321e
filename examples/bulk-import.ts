/**
 * A bulk import through faults: pixels from a CSV, created with `createMany` while the server answers two creates
 * 503 and loses the answer of one it stored; the import is stopped after 8 rows (as Ctrl-C would stop it), then run
 * again with the same rows, a bad one fixed, and finishes with every pixel made once.
 * It runs against its own reference server, on a free 127.0.0.1 port: the faults are that server's.
 * Run: npx tsx examples/bulk-import.ts (in this repo), or from a project that installed the package:
 *   node node_modules/content-platform-sdk/dist/examples/bulk-import.js
 */
import {
  type CreateManyReport,
  ManagementClient,
  type Pixel,
  type PixelCreateParams,
} from 'content-platform-sdk';
import { referenceServer } from './support/connect.js';

// What a spreadsheet export gives: one row has a typo in its type.
const CSV = `name,type,value
Launch FB,facebook,1234567890
Launch GA,google-analytics,G-LAUNCH1
Launch Ads,google-ads,AW-100200300
Launch Tags,google-tag-manager,GTM-LAUNCH
Launch LinkedIn,linkedin,5512001
Launch Bing,bnig,187000999
Launch Pinterest,pinterest,2612000001
Launch Quora,quora,q1w2e3
Launch X,x,o9x8y
Launch AdRoll,adroll,ADV9:PIX9
Launch Retarget FB,facebook,6543210000
Launch Newsletter GA,google-analytics,G-LAUNCH2`;

/** The CSV's rows (a CSV with quoted fields wants a CSV parser). `createMany` checks each before any request. */
function parse(csv: string): PixelCreateParams[] {
  return csv
    .split('\n')
    .slice(1)
    .map((line) => {
      const [name = '', type = '', value = ''] = line.split(',');
      return { name, type, value } as PixelCreateParams;
    });
}

/** A report's counts, as a script's last line shows them. */
function counts(report: CreateManyReport<Pixel, PixelCreateParams>): string {
  const { created, existed, failed, skipped, aborted } = report;
  return `${created} created, ${existed} existed, ${failed} failed, ${skipped} skipped${aborted ? ' (stopped)' : ''}`;
}

const server = await referenceServer();
try {
  const { reference } = server;
  const mgmt = new ManagementClient({ baseUrl: server.url, apiKey: server.managementKey });
  console.log(`Bulk import on the reference server at ${server.url}\n`);

  const rows = parse(CSV);
  console.log(`${rows.length} rows read from the CSV`);
  // The next three pixel creates: a 503, one stored whose answer is lost (the connection drops), a 503.
  const isCreate = (request: Request) =>
    request.method === 'POST' && new URL(request.url).pathname.endsWith('/pixels');
  reference.faults.script([{ status: 503 }, 'lose-response', { status: 503 }], { match: isCreate });
  console.log('faults: the next pixel creates answer 503, lose their answer, answer 503\n');

  // Run 1, stopped after 8 rows: what a SIGINT handler calling `stop.abort()` does.
  const from = reference.requests.length;
  const stop = new AbortController();
  const progress: number[] = [];
  let failures = 0;
  const first = await mgmt.pixels.createMany(rows, {
    concurrency: 1, // one at a time, so this output repeats exactly; an import leaves the default (4)
    signal: stop.signal,
    onProgress: ({ done, failed }) => {
      progress.push(done);
      failures = failed;
      if (done === 8) stop.abort();
    },
  });
  console.log('run 1, stopped after 8 rows:');
  console.log(`  progress: ${progress.join(' ')} of ${rows.length} done, ${failures} failed`);
  // The creates and the look-ups by name (not a listing the job may make first), for the first two rows.
  console.log('  the first two rows on the wire:');
  const wire = reference.requests
    .slice(from)
    .filter((request) => request.method === 'POST' || new URL(request.url).searchParams.has('search'));
  for (const request of wire.slice(0, 7)) {
    const url = new URL(request.url);
    console.log(`    ${request.method} ${url.pathname}${url.search} → ${request.status ?? request.fault}`);
  }
  for (const entry of first.entries) {
    const line = `line ${entry.index + 2} (${entry.row.name})`;
    if (entry.status === 'existed')
      console.log(`  ${line}: existed, #${entry.record.id} (stored by the try whose answer was lost)`);
    if (entry.status === 'failed') console.log(`  ${line}: failed, ${entry.error.message}`);
  }
  console.log(`  ${counts(first)}\n`);

  // Run 2: the typo fixed, the same rows again. Rows done in run 1 come back `existed`; the rest are created.
  const fixed = rows.map((row) =>
    (row.type as string) === 'bnig' ? { ...row, type: 'bing' as const } : row,
  );
  const second = await mgmt.pixels.createMany(fixed);
  console.log('run 2, the typo fixed, the same rows:');
  console.log(`  ${counts(second)}`);

  const stored = await mgmt.pixels.list({ search: 'Launch', per_page: 100 }).toArray({ limit: 100 });
  const copies = new Map<string, number>();
  for (const pixel of stored) copies.set(pixel.name, (copies.get(pixel.name) ?? 0) + 1);
  const once = rows.every((row) => copies.get(row.name) === 1);
  console.log(
    `on the server: ${copies.size} "Launch" pixels, ${once ? 'each once' : 'some twice or missing'}`,
  );
  console.log(`exit code: ${second.failed > 0 ? 1 : 0}`);
} finally {
  await server.close();
}
