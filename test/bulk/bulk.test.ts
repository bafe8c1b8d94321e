import { afterEach, describe, expect, it } from 'vitest';
import {
  APIUserAbortError,
  CatalogClient,
  InvalidParamsError,
  InvalidPurchaseCodeError,
  ManagementClient,
  type PixelCreateParams,
  type Progress,
} from '../../src/index.js';
import {
  createReferenceServer,
  listen,
  type ReferenceServer,
  type ReferenceServerOptions,
  SEED_CATALOG_KEYS,
  SEED_MANAGEMENT_KEYS,
  SEED_PURCHASE_CODES,
} from '../../src/testing/index.js';

// The bulk jobs against the reference server over a real 127.0.0.1 socket, with its faults.
const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

const KEY = SEED_MANAGEMENT_KEYS[0];

async function live(options: ReferenceServerOptions = {}) {
  const api: ReferenceServer = createReferenceServer(options);
  const { url, close } = await listen(api, { port: 0 });
  open.push(close);
  const mgmt = new ManagementClient({ baseUrl: url, apiKey: KEY, logLevel: 'off' });
  const sent = (from = 0) =>
    api.requests.slice(from).map((r) => {
      const u = new URL(r.url);
      return `${r.method} ${u.pathname.replace('/api/v1/', '')}${u.search} ${r.status ?? r.fault}`;
    });
  return { api, url, mgmt, sent };
}

const rows = (n: number, prefix = 'Bulk'): PixelCreateParams[] =>
  Array.from({ length: n }, (_, i) => ({
    name: `${prefix} ${i}`,
    type: 'facebook',
    value: String(1000 + i),
  }));

/** The server's pixels whose names start with `prefix`, as name → count. */
const stored = (api: ReferenceServer, prefix: string) => {
  const counts: Record<string, number> = {};
  for (const pixel of api.store.pixels(KEY))
    if (pixel.name.startsWith(prefix)) counts[pixel.name] = (counts[pixel.name] ?? 0) + 1;
  return counts;
};

describe('createMany', () => {
  it('a create whose answer was lost is found by its name, not sent again: existed, then the others created', async () => {
    const { api, mgmt, sent } = await live({ seed: false });
    const creates = { match: (request: Request) => request.method === 'POST' };
    api.faults.script(['lose-response'], creates);
    const report = await mgmt.pixels.createMany(rows(3), { concurrency: 1 });
    expect(report.entries.map((entry) => entry.status)).toEqual(['existed', 'created', 'created']);
    expect(report).toMatchObject({ created: 2, existed: 1, failed: 0, skipped: 0, aborted: false });
    expect(report.entries[0]).toMatchObject({
      index: 0,
      row: rows(3)[0],
      record: { name: 'Bulk 0', value: '1000' },
    });
    expect(report.entries[0]).toHaveProperty('changes', undefined); // stored as the row asks
    expect(sent()).toEqual([
      // The names already there, in one listing (cheaper than a refused create per row done before).
      'GET pixels?per_page=100 200',
      'POST pixels lose-response',
      'GET pixels?search=Bulk+0&search_by=name&per_page=100 200',
      'POST pixels 201',
      'POST pixels 201',
    ]);
    expect(stored(api, 'Bulk')).toEqual({ 'Bulk 0': 1, 'Bulk 1': 1, 'Bulk 2': 1 });
  });

  it('a 5xx that stored nothing is tried again after a look-up; a name already there is existed, unsent', async () => {
    const { api, mgmt, sent } = await live({ seed: false });
    await mgmt.pixels.create({ name: 'bulk 1', type: 'facebook', value: '9' });
    const from = api.requests.length;
    api.faults.script([{ status: 503 }], { match: (request) => request.method === 'POST' });
    const report = await mgmt.pixels.createMany(rows(2), { concurrency: 1 });
    expect(report.entries.map((entry) => entry.status)).toEqual(['created', 'existed']);
    // The existing record is reported as the server has it (its name in its own case), with what differs from the row.
    expect(report.entries[1]).toMatchObject({
      record: { name: 'bulk 1', value: '9' },
      changes: { value: '1001' },
    });
    expect(sent(from)).toEqual([
      'GET pixels?per_page=100 200',
      'POST pixels 503',
      'GET pixels?search=Bulk+0&search_by=name&per_page=100 200',
      'POST pixels 201',
    ]);
  });

  it("a taken name whose look-up fails (503 through the SDK's retries) is looked up again, not failed", async () => {
    const { api, mgmt, sent } = await live({ seed: false });
    await mgmt.pixels.create({ name: 'Bulk 0', type: 'facebook', value: '1' });
    const from = api.requests.length;
    // The listing of names fails too: each row is then found by its own create (422) and look-up.
    api.faults.script(
      Array.from({ length: 6 }, () => ({ status: 503 })),
      { match: (request) => request.method === 'GET' },
    );
    const report = await mgmt.pixels.createMany(rows(1));
    expect(report.entries.map((entry) => entry.status)).toEqual(['existed']);
    expect(sent(from)).toEqual([
      'GET pixels?per_page=100 503',
      'GET pixels?per_page=100 503',
      'GET pixels?per_page=100 503',
      'POST pixels 422',
      'GET pixels?search=Bulk+0&search_by=name&per_page=100 503',
      'GET pixels?search=Bulk+0&search_by=name&per_page=100 503',
      'GET pixels?search=Bulk+0&search_by=name&per_page=100 503',
      'GET pixels?search=Bulk+0&search_by=name&per_page=100 200',
    ]);
  });

  it('bad rows fail alone with InvalidParamsError before any request; a repeated name is refused too', async () => {
    const { mgmt, sent } = await live({ seed: false });
    const given = [
      { name: 'Good', type: 'facebook', value: '1' },
      { name: '', type: 'facebook', value: '1' },
      { name: 'GOOD', type: 'x', value: '2' },
      { name: 'Other', type: 'nope', value: '3' },
    ] as PixelCreateParams[];
    const report = await mgmt.pixels.createMany(given);
    expect(report.entries.map((entry) => entry.status)).toEqual(['created', 'failed', 'failed', 'failed']);
    const errors = report.entries.map((entry) => ('error' in entry ? entry.error : undefined));
    expect(errors[1]).toBeInstanceOf(InvalidParamsError);
    expect(errors[2]?.message).toBe(
      'pixels.createMany: row 2 has the name of row 0 ("GOOD"); names are unique.',
    );
    expect(errors[3]).toBeInstanceOf(InvalidParamsError);
    expect(sent()).toEqual(['GET pixels?per_page=100 200', 'POST pixels 201']);
  });

  it('reports progress from 0 to every row, failures counted', async () => {
    const { mgmt } = await live({ seed: false });
    const seen: Progress[] = [];
    const given = [...rows(3), { name: '', type: 'facebook', value: '1' } as PixelCreateParams];
    await mgmt.pixels.createMany(given, { onProgress: (p) => seen.push(p) });
    expect(seen[0]).toEqual({ done: 0, total: 4, failed: 0 });
    expect(seen[1]).toEqual({ done: 1, total: 4, failed: 1 }); // the bad row, before any request
    expect(seen.at(-1)).toEqual({ done: 4, total: 4, failed: 1 });
    expect(seen.map((p) => p.done)).toEqual([0, 1, 2, 3, 4]);
  });

  it('an abort stops it with a report of what was done; run again, it finishes with no duplicate', async () => {
    const { api, mgmt } = await live({ seed: false });
    api.faults.set({ latencyMs: 20 });
    const controller = new AbortController();
    const first = await mgmt.pixels.createMany(rows(30), {
      concurrency: 2,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done === 10) controller.abort();
      },
    });
    expect(first.aborted).toBe(true);
    expect(first.skipped).toBeGreaterThan(0);
    expect(first.created + first.failed + first.skipped).toBe(30);
    for (const entry of first.entries)
      if (entry.status === 'failed') expect(entry.error).toBeInstanceOf(APIUserAbortError);
    const again = await mgmt.pixels.createMany(rows(30), { concurrency: 4 });
    expect(again.failed).toBe(0);
    expect(again.created + again.existed).toBe(30);
    expect(again.existed).toBeGreaterThanOrEqual(first.created);
    const counts = stored(api, 'Bulk');
    expect(Object.keys(counts)).toHaveLength(30);
    expect(Object.values(counts).every((n) => n === 1)).toBe(true);
  });

  it('200 rows with 10 % 5xx and 5 % lost answers: every row once, the report equal to the server', async () => {
    const { api, mgmt } = await live({ seed: false });
    api.faults.set({ failureRate: 0.1, loseResponseRate: 0.05, seed: 7 });
    const report = await mgmt.pixels.createMany(rows(200), { concurrency: 8 });
    // The faults did happen: answers lost (stored, no answer) and 5xx.
    expect(api.requests.filter((r) => r.fault === 'lose-response').length).toBeGreaterThan(3);
    expect(api.requests.filter((r) => (r.status ?? 0) >= 500).length).toBeGreaterThan(10);
    expect(report.existed).toBeGreaterThan(0);
    expect(report.failed).toBe(0);
    expect(report.created + report.existed).toBe(200);
    const counts = stored(api, 'Bulk');
    expect(Object.keys(counts)).toHaveLength(200);
    expect(Object.values(counts).every((n) => n === 1)).toBe(true);
    const byName = new Map(api.store.pixels(KEY).map((p) => [p.name, p.id]));
    for (const entry of report.entries)
      if ('record' in entry) expect(entry.record.id).toBe(byName.get(entry.row.name));
  }, 60_000);

  it('refuses bad options before anything is sent', async () => {
    const { mgmt, sent } = await live({ seed: false });
    await expect(mgmt.pixels.createMany(rows(1), { concurrency: 0 })).rejects.toThrow(
      'pixels.createMany: concurrency must be a whole number from 1 to 64; got 0.',
    );
    await expect(mgmt.pixels.createMany('x' as never)).rejects.toThrow(
      'pixels.createMany: rows must be an array; got string.',
    );
    expect(sent()).toEqual([]);
  });
});

describe('createMany and its options, as a user gets them wrong', () => {
  it('an onProgress that throws stops the job: no row starts after it, and the error carries the report', async () => {
    const { api, mgmt } = await live({ seed: false });
    const error = (await mgmt.pixels
      .createMany(rows(20), {
        concurrency: 2,
        onProgress: ({ done }) => {
          if (done === 3) throw new Error('boom');
        },
      })
      .catch((e: unknown) => e)) as Error & { report: { created: number; skipped: number } };
    expect(error.message).toBe(
      'pixels.createMany: onProgress threw (boom), so the job stopped; error.report says what it did.',
    );
    expect((error.cause as Error).message).toBe('boom');
    const stored = api.store.pixels(KEY).length;
    expect(error.report.created).toBe(stored);
    expect(error.report.skipped).toBe(20 - stored);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(api.store.pixels(KEY).length).toBe(stored);
  });

  it('null options are none, as on every other method; options that are not an object say what they got', async () => {
    const { api, mgmt, sent } = await live({ seed: false });
    const checks = new CatalogClient({
      siteUrl: (await live()).url,
      apiKey: SEED_CATALOG_KEYS[0],
      logLevel: 'off',
    });
    // Before: each of these was refused ("options must be an object.").
    expect((await mgmt.pixels.createMany(rows(1, 'Null'), null as never)).created).toBe(1);
    expect((await mgmt.pixels.createMany(rows(1, 'NullRequest'), { request: null as never })).created).toBe(
      1,
    );
    const plan = await mgmt.pixels.sync(rows(1, 'NullSync'), null as never);
    expect((await plan.apply(null as never)).created).toBe(1);
    expect((await checks.purchases.validateMany([SEED_PURCHASE_CODES.supported], null as never)).valid).toBe(
      1,
    );
    expect(Object.keys(stored(api, 'Null')).sort()).toEqual(['Null 0', 'NullRequest 0', 'NullSync 0']);
    const from = sent().length;
    const refusal = (job: Promise<unknown>) =>
      job.then(
        () => undefined,
        (error: Error) => [error.constructor, error.message],
      );
    expect(await refusal(mgmt.pixels.createMany(rows(1), 's' as never))).toEqual([
      InvalidParamsError,
      'pixels.createMany: the options must be an object; got a string.',
    ]);
    expect(await refusal(mgmt.pixels.sync(rows(1), [] as never))).toEqual([
      InvalidParamsError,
      'pixels.sync: the options must be an object; got an array.',
    ]);
    // sync's listing takes the job's own signal, as every job's calls do: one in `request` is refused there too.
    expect(
      await refusal(mgmt.pixels.sync(rows(1), { request: { signal: AbortSignal.timeout(1_000) } } as never)),
    ).toEqual([
      InvalidParamsError,
      "pixels.sync: request must be an object of request options, without signal (give the job's own).",
    ]);
    expect(sent(from)).toEqual([]);
  });

  it('an unknown option is refused, naming the nearest option, else the options', async () => {
    const { mgmt } = await live({ seed: false });
    await expect(mgmt.pixels.createMany(rows(1), { concurency: 2 } as never)).rejects.toThrow(
      'pixels.createMany: unknown option "concurency"; did you mean concurrency?',
    );
    await expect(mgmt.pixels.createMany(rows(1), { parallel: 2 } as never)).rejects.toThrow(
      'pixels.createMany: unknown option "parallel"; the options are concurrency, attempts, signal, onProgress, request.',
    );
  });

  it('a hole in the rows is a row like any other: refused, and the counts add up', async () => {
    const { mgmt } = await live({ seed: false });
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point.
    const report = await mgmt.pixels.createMany([, ...rows(1)] as PixelCreateParams[]);
    expect(report.entries.map((entry) => entry.status)).toEqual(['failed', 'created']);
    expect(report.created + report.failed).toBe(2);
  });

  it('names compare trimmed, as the server stores them', async () => {
    const { mgmt } = await live({ seed: false });
    await mgmt.pixels.create({ name: 'Spring', type: 'x', value: '1' });
    const report = await mgmt.pixels.createMany([{ name: ' Spring ', type: 'x', value: '1' }]);
    expect(report.entries[0]?.status).toBe('existed');
    const plan = await mgmt.pixels.sync([{ name: 'Spring  ', type: 'x', value: '2' }]);
    expect([plan.creates.length, plan.updates.length]).toEqual([0, 1]);
  });
});

describe('sync', () => {
  it('a delete whose answer was lost and whose tries end in 404 is deleted, not failed', async () => {
    const { api, mgmt } = await live({ seed: false });
    await mgmt.pixels.create({ name: 'Gone soon', type: 'x', value: '1' });
    const plan = await mgmt.pixels.sync([], { prune: true });
    api.faults.script(['lose-response', { status: 503 }, { status: 503 }], {
      match: (request) => request.method === 'DELETE',
    });
    const report = await plan.apply();
    expect(report).toMatchObject({ deleted: 1, failed: 0 });
    expect(api.store.pixels(KEY)).toEqual([]);
  });

  it('escapes control characters of names in the plan', async () => {
    const { mgmt } = await live({ seed: false });
    const plan = await mgmt.pixels.sync([{ name: 'Evil\nname\u001b[31m', type: 'x', value: '1' }]);
    expect(plan.toString().split('\n')[1]).toBe(
      '  + create  Evil\\u000aname\\u001b[31m  (type: "x", value: "1")',
    );
  });

  it('plans creates, updates and (with prune) deletes from one listing; apply makes the server match', async () => {
    const { api, mgmt, sent } = await live({ seed: false });
    await mgmt.pixels.createMany([
      { name: 'Keep', type: 'facebook', value: '1' },
      { name: 'Change', type: 'facebook', value: '2' },
      { name: 'Drop', type: 'x', value: '3' },
    ]);
    const from = api.requests.length;
    const desired: PixelCreateParams[] = [
      { name: 'Keep', type: 'facebook', value: '1' },
      { name: 'Change', type: 'facebook', value: '22' },
      { name: 'New', type: 'linkedin', value: '4' },
    ];
    const plan = await mgmt.pixels.sync(desired, { prune: true });
    expect(sent(from)).toEqual(['GET pixels?per_page=100 200']);
    expect(plan.creates).toEqual([desired[2]]);
    expect(plan.updates.map((u) => [u.before.name, u.changes])).toEqual([['Change', { value: '22' }]]);
    expect(plan.deletes.map((d) => d.name)).toEqual(['Drop']);
    expect(plan.unchanged).toBe(1);
    const change = plan.updates[0]?.before.id;
    const drop = plan.deletes[0]?.id;
    expect(plan.toString()).toBe(
      [
        'Plan for pixels: 1 to create, 1 to update, 1 to delete, 1 unchanged.',
        '  + create  New  (type: "linkedin", value: "4")',
        `  ~ update  Change (#${change})  value: "2" → "22"`,
        `  - delete  Drop (#${drop})`,
      ].join('\n'),
    );
    const report = await plan.apply();
    expect(report).toMatchObject({ created: 1, updated: 1, deleted: 1, conflicts: 0, failed: 0 });
    const now = api.store.pixels(KEY).map((p) => ({ name: p.name, type: p.type, value: p.value }));
    expect(now.sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      [...desired].sort((a, b) => a.name.localeCompare(b.name)),
    );
  });

  it('prune as a function deletes only the records it chooses', async () => {
    const { mgmt } = await live({ seed: false });
    await mgmt.pixels.createMany([...rows(2, 'Spring'), ...rows(2, 'Other')]);
    const plan = await mgmt.pixels.sync([], { prune: (pixel) => pixel.name.startsWith('Spring') });
    expect(plan.deletes.map((pixel) => pixel.name).sort()).toEqual(['Spring 0', 'Spring 1']);
    await expect(mgmt.pixels.sync([], { prune: 'yes' as never })).rejects.toThrow(
      'pixels.sync: prune must be true, false or a function of a record.',
    );
  });

  it('without prune, nothing is deleted', async () => {
    const { mgmt } = await live({ seed: false });
    await mgmt.pixels.create({ name: 'Stay', type: 'facebook', value: '1' });
    const plan = await mgmt.pixels.sync([]);
    expect(plan.deletes).toEqual([]);
    expect(plan.toString()).toBe('Plan for pixels: 0 to create, 0 to update, 0 to delete, 0 unchanged.');
  });

  it('a record edited after the plan was made is refused (conflict), not overwritten; the rest applies', async () => {
    const { api, mgmt } = await live({ seed: false });
    const a = await mgmt.pixels.create({ name: 'A', type: 'facebook', value: '1' });
    await mgmt.pixels.create({ name: 'B', type: 'facebook', value: '1' });
    const plan = await mgmt.pixels.sync([
      { name: 'A', type: 'facebook', value: '2' },
      { name: 'B', type: 'facebook', value: '2' },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // updated_at has a resolution of a second
    await mgmt.pixels.update(a.id, { value: 'edited' });
    const report = await plan.apply();
    expect(report.entries.map((e) => [e.name, e.status])).toEqual([
      ['A', 'conflict'],
      ['B', 'updated'],
    ]);
    expect(report.entries[0]?.record).toMatchObject({ name: 'A', value: 'edited' });
    expect(api.store.pixels(KEY).find((p) => p.name === 'A')?.value).toBe('edited');
  });

  it('a record renamed after the plan was made is the same record, changed: a conflict, never reported deleted', async () => {
    // Before: apply looked records up again by name, so a renamed one looked gone: its delete was reported
    // `deleted` (it was not), and its update a conflict with no record.
    const { api, mgmt } = await live({ seed: false });
    const oldA = await mgmt.pixels.create({ name: 'Old A', type: 'facebook', value: '1' });
    await mgmt.pixels.create({ name: 'Old B', type: 'facebook', value: '1' });
    const keep = await mgmt.pixels.create({ name: 'Keep C', type: 'facebook', value: '1' });
    const plan = await mgmt.pixels.sync([{ name: 'Keep C', type: 'facebook', value: '33' }], { prune: true });
    expect(plan.toString().split('\n')[0]).toBe(
      'Plan for pixels: 0 to create, 1 to update, 2 to delete, 0 unchanged.',
    );
    await mgmt.pixels.update(oldA.id, { name: 'Renamed A (keep me)' });
    await mgmt.pixels.update(keep.id, { name: 'Renamed C' });
    const report = await plan.apply();
    expect(report.entries.map((e) => [e.action, e.name, e.status, e.record?.name])).toEqual([
      ['update', 'Keep C', 'conflict', 'Renamed C'],
      ['delete', 'Old B', 'deleted', undefined],
      ['delete', 'Old A', 'conflict', 'Renamed A (keep me)'],
    ]);
    expect(report).toMatchObject({ updated: 0, deleted: 1, conflicts: 2, failed: 0 });
    expect(
      api.store
        .pixels(KEY)
        .map((p) => [p.id, p.name, p.value])
        .sort(),
    ).toEqual([
      [oldA.id, 'Renamed A (keep me)', '1'],
      [keep.id, 'Renamed C', '1'],
    ]);
  });

  it('applies through transient faults in one call', async () => {
    const { api, mgmt } = await live({ seed: false });
    await mgmt.pixels.createMany(rows(40, 'Old'));
    const desired = [...rows(40, 'New'), ...rows(20, 'Old').map((row) => ({ ...row, value: 'x' }))];
    const plan = await mgmt.pixels.sync(desired, { prune: true });
    expect([plan.creates.length, plan.updates.length, plan.deletes.length]).toEqual([40, 20, 20]);
    api.faults.set({ failureRate: 0.15, seed: 3 });
    const report = await plan.apply({ concurrency: 6 });
    api.faults.clear();
    expect(report).toMatchObject({ failed: 0, conflicts: 0 });
    const again = await mgmt.pixels.sync(desired, { prune: true });
    expect([again.creates.length, again.updates.length, again.deletes.length]).toEqual([0, 0, 0]);
  }, 60_000);

  it('domains: the name is the key (a rename is a delete and a create, with prune); null clears a page', async () => {
    const { mgmt } = await live({ seed: false });
    await mgmt.domains.create({ name: 'old.example.com', index_page: 'https://a.example' });
    await mgmt.domains.create({ name: 'same.example.com', index_page: 'https://b.example' });
    const plan = await mgmt.domains.sync(
      [{ name: 'new.example.com' }, { name: 'same.example.com', index_page: null }],
      { prune: true },
    );
    expect(plan.creates.map((row) => row.name)).toEqual(['new.example.com']);
    expect(plan.deletes.map((record) => record.name)).toEqual(['old.example.com']);
    expect(plan.updates.map((u) => u.changes)).toEqual([{ index_page: null }]);
    const report = await plan.apply();
    expect(report).toMatchObject({ created: 1, updated: 1, deleted: 1, failed: 0 });
    expect(report.entries.find((e) => e.action === 'update')?.record).toMatchObject({ index_page: null });
  });
});

describe('validateMany', () => {
  it('valid, invalid and failed codes in order, counts by class, through transient faults', async () => {
    const api = createReferenceServer();
    const { url, close } = await listen(api, { port: 0 });
    open.push(close);
    const catalog = new CatalogClient({ siteUrl: url, apiKey: SEED_CATALOG_KEYS[0], logLevel: 'off' });
    api.faults.script([{ status: 503 }]);
    const codes = [
      SEED_PURCHASE_CODES.supported,
      SEED_PURCHASE_CODES.invalid,
      '  ',
      SEED_PURCHASE_CODES.downloaded,
    ];
    const seen: Progress[] = [];
    const report = await catalog.purchases.validateMany(codes, {
      concurrency: 1,
      onProgress: (p) => seen.push(p),
    });
    expect(report.entries.map((e) => e.status)).toEqual(['valid', 'invalid', 'failed', 'valid']);
    expect(report).toMatchObject({ valid: 2, invalid: 1, failed: 1, skipped: 0, aborted: false });
    expect(report.errors).toEqual({ InvalidPurchaseCodeError: 1, InvalidParamsError: 1 });
    const [, invalid, failed] = report.entries;
    expect(invalid && 'error' in invalid && invalid.error).toBeInstanceOf(InvalidPurchaseCodeError);
    expect(failed && 'error' in failed && failed.error).toBeInstanceOf(InvalidParamsError);
    expect(seen.at(-1)).toEqual({ done: 4, total: 4, failed: 1 });
  });

  it('uses the cache: a second audit of the same codes sends nothing', async () => {
    const api = createReferenceServer();
    const { url, close } = await listen(api, { port: 0 });
    open.push(close);
    const catalog = new CatalogClient({
      siteUrl: url,
      apiKey: SEED_CATALOG_KEYS[0],
      logLevel: 'off',
      cache: { ttl: 60_000 },
    });
    const codes = [SEED_PURCHASE_CODES.supported, SEED_PURCHASE_CODES.downloaded];
    await catalog.purchases.validateMany(codes);
    const before = api.requests.length;
    const again = await catalog.purchases.validateMany(codes);
    expect(again.valid).toBe(2);
    expect(api.requests.length).toBe(before);
  });
});

describe('a walk with progress', () => {
  it('takes the total from the first page, with no extra request', async () => {
    const { api, mgmt } = await live({ seed: false });
    await mgmt.pixels.createMany(rows(23));
    const from = api.requests.length;
    const seen: Progress[] = [];
    for await (const page of mgmt.pixels.list({ per_page: 10 }).pages({ onProgress: (p) => seen.push(p) }))
      expect(page.data.length).toBeGreaterThan(0);
    expect(seen).toEqual([
      { done: 10, total: 23, failed: 0 },
      { done: 20, total: 23, failed: 0 },
      { done: 23, total: 23, failed: 0 },
    ]);
    expect(api.requests.length - from).toBe(3);
    const items: Progress[] = [];
    const first15 = await mgmt.pixels
      .list({ per_page: 10 })
      .toArray({ limit: 15, onProgress: (p) => items.push(p) });
    expect(first15).toHaveLength(15);
    expect(items).toEqual([
      { done: 10, total: 23, failed: 0 },
      { done: 20, total: 23, failed: 0 },
    ]);
  });

  it('that starts past page 1 counts the pages before it as done, so it ends at the total', async () => {
    const { mgmt } = await live({ seed: false });
    await mgmt.pixels.createMany(rows(23));
    const seen: Progress[] = [];
    for await (const page of mgmt.pixels
      .list({ per_page: 10, page: 2 })
      .pages({ onProgress: (p) => seen.push(p) }))
      expect(page.data.length).toBeGreaterThan(0);
    expect(seen).toEqual([
      { done: 20, total: 23, failed: 0 },
      { done: 23, total: 23, failed: 0 },
    ]);
  });
});
