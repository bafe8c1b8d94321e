import { afterEach, describe, expect, it } from 'vitest';
import { CatalogClient, ManagementClient, type PixelCreateParams, RateLimitError } from '../../src/index.js';
import {
  createReferenceServer,
  listen,
  type ReferenceServer,
  SEED_CATALOG_KEYS,
  SEED_MANAGEMENT_KEYS,
  SEED_PURCHASE_CODES,
} from '../../src/testing/index.js';

// The issue's jobs, scaled down to fit the suite, at the real servers' pace: the reference server allows 10 requests
// a second per key (429 past it), over a real 127.0.0.1 socket, with transient faults. `npm run soak:bulk` runs them
// at full size (2 000 rows, 500 desired, 5 000 codes).
const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

const KEY = SEED_MANAGEMENT_KEYS[0];
const TEN_A_SECOND = { limit: 10, windowMs: 1_000 };

async function live(api: ReferenceServer) {
  const { url, close } = await listen(api, { port: 0 });
  open.push(close);
  return url;
}

const rows = (n: number, prefix: string): PixelCreateParams[] =>
  Array.from({ length: n }, (_, i) => ({ name: `${prefix} ${i}`, type: 'facebook', value: String(i) }));

/** The server's pixels of `prefix`, by name, with how many of each. */
function stored(api: ReferenceServer, prefix: string): Map<string, number[]> {
  const byName = new Map<string, number[]>();
  for (const pixel of api.store.pixels(KEY))
    if (pixel.name.startsWith(prefix)) byName.set(pixel.name, [...(byName.get(pixel.name) ?? []), pixel.id]);
  return byName;
}

describe('bulk jobs at 10 requests a second', () => {
  it('createMany of 120 rows with 10 % 5xx and 5 % lost answers: 0 lost, 0 doubled, the report equal to the server, < 5 % 429s; aborted half-way and run again: still 0 doubled', async () => {
    const api = createReferenceServer({ seed: false, rateLimit: TEN_A_SECOND });
    const url = await live(api);
    api.faults.set({ failureRate: 0.1, loseResponseRate: 0.05, seed: 11 });
    const mgmt = new ManagementClient({ baseUrl: url, apiKey: KEY, logLevel: 'off' });
    const given = rows(120, 'Import');
    const controller = new AbortController();
    const first = await mgmt.pixels.createMany(given, {
      signal: controller.signal,
      onProgress: ({ done }) => {
        if (done === 60) controller.abort();
      },
    });
    expect(first.aborted).toBe(true);
    const again = await mgmt.pixels.createMany(given);
    expect(again.failed).toBe(0);
    expect(again.created + again.existed).toBe(120);
    const byName = stored(api, 'Import');
    expect(byName.size).toBe(120);
    expect([...byName.values()].filter((ids) => ids.length > 1)).toEqual([]);
    for (const entry of again.entries)
      if ('record' in entry) expect([entry.record.id]).toEqual(byName.get(entry.row.name));
    expect(api.requests.filter((r) => r.fault === 'lose-response').length).toBeGreaterThan(3);
    const limited = api.requests.filter((request) => request.status === 429).length;
    expect(limited / api.requests.length).toBeLessThan(0.05);
  }, 120_000);

  it('sync of 50 desired against another state (20 create, 10 update, 20 delete) under 5 % 5xx converges in one apply; a row edited after the plan is refused', async () => {
    const api = createReferenceServer({ seed: false, rateLimit: TEN_A_SECOND });
    const url = await live(api);
    const mgmt = new ManagementClient({ baseUrl: url, apiKey: KEY, logLevel: 'off' });
    await mgmt.pixels.createMany([...rows(20, 'Keep'), ...rows(20, 'Gone')]);
    const desired = [
      ...rows(20, 'Keep').map((row, i) => (i < 10 ? { ...row, value: `new ${i}` } : row)),
      ...rows(20, 'Made'),
    ];
    const plan = await mgmt.pixels.sync(desired, { prune: true });
    expect([plan.creates.length, plan.updates.length, plan.deletes.length, plan.unchanged]).toEqual([
      20, 10, 20, 10,
    ]);
    // Someone edits one record the plan updates, after the plan was made.
    const edited = plan.updates[0]?.before;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await mgmt.pixels.update(edited?.id ?? 0, { value: 'by hand' });
    api.faults.set({ failureRate: 0.05, seed: 5 });
    const report = await plan.apply();
    api.faults.clear();
    expect(report).toMatchObject({ created: 20, updated: 9, deleted: 20, conflicts: 1, failed: 0 });
    expect(report.entries.find((entry) => entry.status === 'conflict')?.name).toBe(edited?.name);
    const now = new Map(api.store.pixels(KEY).map((p) => [p.name, p.value]));
    expect(now.get(edited?.name ?? '')).toBe('by hand');
    const expected = new Map(desired.map((row) => [row.name, row.value]));
    expected.set(edited?.name ?? '', 'by hand');
    expect(now).toEqual(expected);
  }, 120_000);

  it('validateMany of 150 codes: every code answered as the server answers it, 0 RateLimitError', async () => {
    const extra = Array.from(
      { length: 100 },
      (_, i) => `b0000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    const api = createReferenceServer({ rateLimit: TEN_A_SECOND, seed: { purchaseCodes: extra } });
    const url = await live(api);
    const catalog = new CatalogClient({ siteUrl: url, apiKey: SEED_CATALOG_KEYS[0], logLevel: 'off' });
    const invalid = Array.from(
      { length: 50 },
      (_, i) => `dead0000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    const codes = [...extra, ...invalid].sort();
    const report = await catalog.purchases.validateMany(codes, { concurrency: 8 });
    expect(report).toMatchObject({ valid: 100, invalid: 50, failed: 0, skipped: 0 });
    expect(report.errors).toEqual({ InvalidPurchaseCodeError: 50 });
    for (const entry of report.entries) {
      expect(entry.status).toBe(extra.includes(entry.code) ? 'valid' : 'invalid');
      if ('error' in entry) expect(entry.error).not.toBeInstanceOf(RateLimitError);
    }
    expect(SEED_PURCHASE_CODES.supported).toBeTruthy();
  }, 120_000);
});
