// Child process of the benchmark (run with --expose-gc): walks every pixel of a large workspace with
// `for await`, then the same pages with raw fetch, and prints one JSON line: items/s and heap figures.
// A process of its own, so the heap it reports holds nothing but the client and the walk.
import { ManagementClient } from 'content-platform-sdk';

const [url = '', apiKey = ''] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('walk.ts needs --expose-gc');

const SAMPLE_EVERY = 5_000;

function heapMb(): number {
  return process.memoryUsage().heapUsed / 1_048_576;
}

/** Walks `items`, sampling the heap (after a full GC) every SAMPLE_EVERY items. */
async function walk(items: AsyncIterable<unknown>) {
  gc?.();
  const before = heapMb();
  const samples: number[] = [];
  let peak = before;
  let count = 0;
  const started = performance.now();
  let paused = 0;
  for await (const item of items) {
    if (item === undefined) throw new Error('empty item');
    count += 1;
    if (count % SAMPLE_EVERY === 0) {
      const p = performance.now();
      peak = Math.max(peak, heapMb());
      gc?.();
      samples.push(heapMb());
      paused += performance.now() - p;
    }
  }
  const seconds = (performance.now() - started - paused) / 1000;
  gc?.();
  const after = heapMb();
  return {
    count,
    seconds,
    itemsPerSecond: count / seconds,
    heapBeforeMb: before,
    heapAfterMb: after,
    // Growth of what stays reachable: the largest post-GC sample over the start.
    retainedGrowthMb: Math.max(after, ...samples) - before,
    // Garbage included: the largest heap seen just before a forced GC.
    peakGrowthMb: peak - before,
    samplesMb: samples.filter((_, i) => i % 4 === 3),
  };
}

async function* rawPages(): AsyncGenerator<unknown> {
  const headers = { accept: 'application/json', authorization: `Bearer ${apiKey}` };
  for (let page = 1; ; page += 1) {
    const res = await fetch(`${url}/api/v1/pixels?per_page=100&page=${page}`, { headers });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const body = (await res.json()) as { data: unknown[]; meta: { last_page: number } };
    yield* body.data;
    if (page >= body.meta.last_page || body.data.length === 0) return;
  }
}

const client = new ManagementClient({ baseUrl: url, apiKey });
const sdk = await walk(client.pixels.list({ per_page: 100 }));
const raw = await walk(rawPages());
process.stdout.write(`${JSON.stringify({ sdk, raw })}\n`);
