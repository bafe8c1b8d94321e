// Run by memory-scenarios.ts in a child Node with `--expose-gc`: validates `COUNT` distinct purchase codes (one in
// ten valid, the rest refused) against the reference server in this process, in batches of `BATCH` at once, with no
// cache or with one (`CACHE=1`, `maxEntries` 50, so its own entries stay few), and prints the heap after GC before
// and after them. A license server validates distinct codes for months: whatever the SDK keeps per code (an error,
// a pattern that masks the code, a name, a refusal, a flight) shows here as growth with the count. Each batch done
// writes a `.` to stderr, so the parent can tell a child that is slow (a loaded machine) from one that is stuck.
import { CatalogClient } from '../../src/catalog/index.js';
import { createReferenceServer } from '../../src/testing/index.js';

const count = Number(process.env.COUNT ?? '50000');
const batch = Number(process.env.BATCH ?? '500');
const cached = process.env.CACHE === '1';
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');

const server = createReferenceServer();
const valid = Object.values(server.fixtures.purchaseCodes).slice(0, 4);
const client = new CatalogClient({
  apiKey: server.keys.catalog[0] as string,
  siteUrl: 'http://127.0.0.1:8080',
  fetch: server.fetch,
  maxRetries: 0,
  ...(cached ? { cache: { ttl: 60_000, maxEntries: 50 } } : {}),
});

/**
 * The heap after full collections, once what was pending has run: the least of several readings 20 ms apart. Work
 * still in flight (WebCrypto's jobs on a loaded machine, the last batch's store writes) holds a batch's requests for a
 * moment, 8 MB of them; what the SDK keeps for good is there in every reading.
 */
async function heapAfterGc(): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 10; i += 1) {
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 20));
    gc?.();
    least = Math.min(least, process.memoryUsage().heapUsed);
  }
  return least;
}

let refused = 0;
/** `n` distinct codes from `from` on, `batch` at once; the server forgets its request log between batches. */
async function validate(from: number, n: number): Promise<void> {
  for (let done = 0; done < n; ) {
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < batch && done < n; i += 1, done += 1) {
      const at = from + done;
      const code =
        at % 10 === 0 ? (valid[at % 4] as string) : `refused-${at}-4f6a-9b8c-${String(at).padStart(12, '0')}`;
      calls.push(
        client.purchases.validate(code).catch(() => {
          refused += 1;
        }),
      );
    }
    await Promise.all(calls);
    server.reset();
    // One byte a batch: the parent's sign that this process is still getting on (it kills one that stalls).
    process.stderr.write('.');
  }
}

// Warm up first (compiled code, lazily loaded modules, the cache's chunk), so the baseline holds them.
await validate(0, 2_000);
const before = await heapAfterGc();
await validate(2_000, count);
const after = await heapAfterGc();
process.stdout.write(
  `${JSON.stringify({ count, cached, refused, before, after, growth: after - before, cache: client.cache })}\n`,
);
