// Run by memory-scenarios.ts in a child Node with a small heap: a server answers with a hostile 200 of about `MB`
// megabytes, the call fails, and the child prints what it failed with and how far its peak RSS grew above where it
// stood before the call. Without a bound the child dies of heap exhaustion. `SHAPE`: `list` (default), a
// `pixels.list()` page whose `data` is `{}` over and over; `issues`, a Catalog item list of 10 000 items whose
// screenshots are all numbers (and fields missing), where a validator that collects every issue collects 500 000.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CatalogClient } from '../../src/catalog/index.js';
import { ManagementClient } from '../../src/management/index.js';

const bytes = Math.round(Number(process.env.MB ?? '16.5') * 1_000_000);
const issues = process.env.SHAPE === 'issues';
let body: Buffer;
let count: number;
if (issues) {
  count = 10_000;
  // Seven digits a number: the text is about as large as the array it parses into.
  const screenshots = Array(Math.max(1, Math.floor(bytes / count / 8))).fill(1_234_567);
  const item = JSON.stringify({ id: 1, name: 'x', media: { screenshots } });
  body = Buffer.from(`{"status":"success","items":[${Array(count).fill(item).join(',')}]}`);
} else {
  const head = '{"data":[';
  const tail = '],"meta":{"current_page":1,"per_page":10}}';
  count = Math.floor((bytes - head.length - tail.length + 1) / 3);
  body = Buffer.from(`${head}${'{},'.repeat(count - 1)}{}${tail}`);
}

const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  response.end(body);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
const url = `http://127.0.0.1:${port}`;
const call = issues
  ? () => new CatalogClient({ apiKey: 'ck_memory_child_key', siteUrl: url, maxRetries: 0 }).items.list()
  : () => new ManagementClient({ apiKey: 'mk_memory_child_key', baseUrl: url, maxRetries: 0 }).pixels.list();

const before = process.memoryUsage().rss;
let outcome: { name: string; message: string };
try {
  await call();
  outcome = { name: 'none', message: 'the call succeeded' };
} catch (error) {
  outcome = { name: (error as Error).name, message: (error as Error).message };
}
// maxRSS is in KiB: the peak of the whole process, so the growth is measured from the RSS before the call.
const growth = process.resourceUsage().maxRSS * 1024 - before;
server.close();
process.stdout.write(`${JSON.stringify({ ...outcome, bodyBytes: body.length, records: count, growth })}\n`);
