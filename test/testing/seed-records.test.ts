import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createReferenceServer,
  parseSeedFile,
  readSeedFile,
  SeedRecordError,
  type SeedRecords,
} from '../../src/testing/index.js';
import { read, setup } from './helpers.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seed-records-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Writes `text` to a file of the temporary folder and gives its path. */
async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

const JSON_SEED = {
  pixels: [
    { name: 'Rehearsal Launch', type: 'facebook', value: '1234567890' },
    { name: 'Rehearsal Beta', type: 'x', value: 'o9z8y', key: 'test-mgmt-key-workspace-beta' },
  ],
  domains: [
    { name: 'go.rehearsal.test', index_page: 'https://rehearsal.test' },
    { name: 'empty.rehearsal.test', not_found_page: null, key: 'test-mgmt-key-workspace-empty' },
  ],
  purchases: [
    { purchase_code: 'REHEARSAL-0001' },
    {
      purchase_code: 'rehearsal-0002',
      license_type: 'رخصة موسعة',
      price: 59,
      currency: 'EUR',
      item_id: 104,
      supported_until: '2026-06-30',
      downloaded: true,
      date: '2025-05-04T03:02:01+02:00',
    },
    { purchase_code: 'REHEARSAL-0003', supported_until: null },
  ],
};

const NDJSON_SEED = [
  '# A rehearsal: one record a line, blank lines and # lines skipped.',
  '{"kind":"pixel","name":"Rehearsal Launch","type":"facebook","value":"1234567890"}',
  '',
  '{"kind":"pixel","name":"Rehearsal Beta","type":"x","value":"o9z8y","key":"test-mgmt-key-workspace-beta"}',
  '  # indented comment',
  '{"kind":"domain","name":"go.rehearsal.test","index_page":"https://rehearsal.test"}',
  '{"kind":"domain","name":"empty.rehearsal.test","not_found_page":null,"key":"test-mgmt-key-workspace-empty"}',
  '{"kind":"purchase","purchase_code":"REHEARSAL-0001"}',
  '{"kind":"purchase","purchase_code":"rehearsal-0002","license_type":"رخصة موسعة","price":59,"currency":"EUR","item_id":104,"supported_until":"2026-06-30","downloaded":true,"date":"2025-05-04T03:02:01+02:00"}',
  '{"kind":"purchase","purchase_code":"REHEARSAL-0003","supported_until":null}',
  '',
].join('\n');

/** Lists the records of the seed files above back through both APIs, and checks them exactly. */
async function expectSeeded(records: SeedRecords) {
  const { server, mgmt, catalog, alpha, beta, empty, catalogKey } = setup({ seed: { records } });
  // The alpha workspace's 12 seeded pixels come first: the file's get the next ids and seed timestamps.
  const alphaPixels = await read(await mgmt('GET', 'pixels?search=Rehearsal'));
  expect(alphaPixels.body.data).toEqual([
    {
      id: 15,
      name: 'Rehearsal Launch',
      type: 'facebook',
      value: '1234567890',
      created_at: '2025-01-15T10:38:30.000000Z',
      updated_at: '2025-01-15T10:38:30.000000Z',
    },
  ]);
  expect((await read(await mgmt('GET', 'pixels?search=Rehearsal', { key: beta }))).body.data).toEqual([
    {
      id: 16,
      name: 'Rehearsal Beta',
      type: 'x',
      value: 'o9z8y',
      created_at: '2025-01-15T10:39:30.000000Z',
      updated_at: '2025-01-15T10:39:30.000000Z',
    },
  ]);
  expect((await read(await mgmt('GET', 'domains?search=rehearsal'))).body.data).toEqual([
    {
      id: 5,
      name: 'go.rehearsal.test',
      url: 'https://go.rehearsal.test',
      index_page: 'https://rehearsal.test',
      not_found_page: null,
      created_at: '2025-01-15T10:40:30.000000Z',
      updated_at: '2025-01-15T10:40:30.000000Z',
    },
  ]);
  expect((await read(await mgmt('GET', 'domains', { key: empty }))).body.data).toEqual([
    {
      id: 6,
      name: 'empty.rehearsal.test',
      url: 'https://empty.rehearsal.test',
      index_page: null,
      not_found_page: null,
      created_at: '2025-01-15T10:41:30.000000Z',
      updated_at: '2025-01-15T10:41:30.000000Z',
    },
  ]);
  expect(server.store.pixels(alpha)).toHaveLength(13);
  // Purchases: the seed's four, then the file's, each field left out given its default.
  expect(server.store.purchases().slice(4)).toEqual([
    {
      purchase_code: 'REHEARSAL-0001',
      license_type: 'رخصة عادية',
      price: 19.99,
      currency: 'USD',
      item_id: 101,
      supported_until: '2099-12-31T23:59:59.000000Z',
      downloaded: false,
      date: '2025-03-01T12:00:00.000000Z',
    },
    {
      purchase_code: 'rehearsal-0002',
      license_type: 'رخصة موسعة',
      price: 59,
      currency: 'EUR',
      item_id: 104,
      supported_until: '2026-06-30T00:00:00.000000Z',
      downloaded: true,
      date: '2025-05-04T01:02:01.000000Z',
    },
    {
      purchase_code: 'REHEARSAL-0003',
      license_type: 'رخصة عادية',
      price: 19.99,
      currency: 'USD',
      item_id: 101,
      supported_until: null,
      downloaded: false,
      date: '2025-03-01T12:00:00.000000Z',
    },
  ]);
  const validate = (code: string) =>
    catalog('POST', 'purchases/validation', { form: { api_key: catalogKey, purchase_code: code } });
  const second = await read(await validate('REHEARSAL-0002'));
  expect(second.status).toBe(200);
  expect(second.body.item).toMatchObject({
    purchase_code: 'rehearsal-0002',
    license_type: 'رخصة موسعة',
    price: 59,
    currency: 'EUR',
    item: { id: 104 },
    supported_until: '2026-06-30T00:00:00.000000Z',
    downloaded: true,
    date: '2025-05-04T01:02:01.000000Z',
  });
  const third = await read(await validate('REHEARSAL-0003'));
  expect(third.status).toBe(200);
  expect(third.body.item).not.toHaveProperty('supported_until');
  return server;
}

describe('a seed file', () => {
  it('JSON: loads the exact records, listed back through the API', async () => {
    const records = await readSeedFile(await file('rehearsal.json', JSON.stringify(JSON_SEED, null, 2)));
    expect(records).toEqual(JSON_SEED);
    await expectSeeded(records);
  });

  it('NDJSON: loads the same records, the kind left out of each, comments and blank lines skipped', async () => {
    const records = await readSeedFile(await file('rehearsal.ndjson', NDJSON_SEED));
    expect(records).toEqual(JSON_SEED);
    await expectSeeded(records);
  });

  it('NDJSON with CRLF line ends and a byte order mark, and .jsonl, read the same', async () => {
    const crlf = `\uFEFF${NDJSON_SEED.replaceAll('\n', '\r\n')}`;
    expect(await readSeedFile(await file('crlf.ndjson', crlf))).toEqual(JSON_SEED);
    expect(await readSeedFile(await file('rehearsal.jsonl', NDJSON_SEED))).toEqual(JSON_SEED);
  });

  it('a name without .json or .ndjson is NDJSON when its first record has a kind, else JSON', async () => {
    expect(await readSeedFile(await file('seed.txt', NDJSON_SEED))).toEqual(JSON_SEED);
    expect(await readSeedFile(await file('seed', JSON.stringify(JSON_SEED)))).toEqual(JSON_SEED);
    expect(parseSeedFile('{"purchases":[{"purchase_code":"A-1"}]}')).toEqual({
      pixels: [],
      domains: [],
      purchases: [{ purchase_code: 'A-1' }],
    });
    // `format` overrides the name: a one-line JSON file named .ndjson.
    expect(parseSeedFile('{"pixels":[]}', { name: 'x.ndjson', format: 'json' })).toEqual({
      pixels: [],
      domains: [],
      purchases: [],
    });
  });

  it('server.reset() restores the seed file records, and what was deleted comes back', async () => {
    const records = parseSeedFile('{"kind":"pixel","name":"Keep","type":"bing","value":"1"}\n', {
      format: 'ndjson',
    });
    const { server, mgmt, alpha } = setup({ seed: { records } });
    expect((await mgmt('DELETE', 'pixels/15')).status).toBe(200);
    expect(server.store.pixels(alpha).map((p) => p.name)).not.toContain('Keep');
    server.reset();
    expect(server.store.pixels(alpha).at(-1)).toMatchObject({
      id: 15,
      name: 'Keep',
      type: 'bing',
      value: '1',
    });
  });

  it('comes after the generated records: --pixels and --purchase-code, then the file', () => {
    const records = parseSeedFile(
      [
        '{"kind":"pixel","name":"After","type":"x","value":"1"}',
        '{"kind":"purchase","purchase_code":"F-1"}',
      ].join('\n'),
      { format: 'ndjson' },
    );
    const server = createReferenceServer({ seed: { pixels: 2, purchaseCodes: ['CLI-1'], records } });
    expect(
      server.store
        .pixels(server.keys.management[0] as string)
        .map((p) => [p.id, p.name])
        .slice(-3),
    ).toEqual([
      [13, 'Generated Pixel 0001'],
      [14, 'Generated Pixel 0002'],
      [17, 'After'],
    ]);
    expect(
      server.store
        .purchases()
        .map((p) => p.purchase_code)
        .slice(-2),
    ).toEqual(['CLI-1', 'F-1']);
  });

  it('1 000 purchase codes load in one pass, each one valid', async () => {
    const lines = Array.from(
      { length: 1000 },
      (_, i) => `{"kind":"purchase","purchase_code":"BULK-${String(i).padStart(4, '0')}"}`,
    );
    const path = await file('thousand.ndjson', lines.join('\n'));
    const started = performance.now();
    const { server, catalog, catalogKey } = setup({ seed: { records: await readSeedFile(path) } });
    server.reset();
    // About 10 ms here for both loads; a generous bound, so a slow machine does not fail it.
    expect(performance.now() - started).toBeLessThan(2000);
    expect(server.store.purchases()).toHaveLength(4 + 1000);
    for (const code of ['BULK-0000', 'bulk-0500', 'BULK-0999']) {
      const res = await catalog('POST', 'purchases/validation', {
        form: { api_key: catalogKey, purchase_code: code },
      });
      expect(res.status).toBe(200);
    }
  });
});

describe('a bad seed file is refused at load, naming the record and the field', () => {
  const refusal = (text: string, name: string) => {
    try {
      createReferenceServer({ seed: { records: parseSeedFile(text, { name }) } });
    } catch (error) {
      expect(error).toBeInstanceOf(SeedRecordError);
      return (error as Error).message;
    }
    return 'loaded';
  };
  const line = (record: Record<string, unknown>) => JSON.stringify(record);
  const pixel = (fields: Record<string, unknown> = {}) =>
    line({ kind: 'pixel', name: 'P', type: 'x', value: '1', ...fields });
  const purchase = (fields: Record<string, unknown> = {}) =>
    line({ kind: 'purchase', purchase_code: 'C-1', ...fields });
  const types =
    'adroll, bing, facebook, google-ads, google-analytics, google-tag-manager, linkedin, pinterest, quora, x';

  it.each([
    ['not json', 'line 2: not valid JSON (each line is one JSON object)'],
    ['[1, 2]', 'line 2: must be a JSON object with a "kind", got an array'],
    ['{"name":"P"}', 'line 2: "kind" is required: pixel, domain or purchase'],
    ['{"kind":"pixels","name":"P"}', 'line 2: "kind" must be pixel, domain or purchase, got "pixels"'],
    [pixel({ name: undefined }), 'line 2: pixel "name" is required'],
    [pixel({ name: '   ' }), 'line 2: pixel "name" is required'],
    [pixel({ name: null }), 'line 2: pixel "name" is required'],
    [pixel({ name: 7 }), 'line 2: pixel "name" must be a string, got 7'],
    [pixel({ name: ' P' }), 'line 2: pixel "name" must not start or end with spaces, got " P"'],
    [pixel({ name: 'n'.repeat(33) }), 'line 2: pixel "name" must be at most 32 characters, got 33'],
    [pixel({ type: 'tiktok' }), `line 2: pixel "type" must be one of ${types}; got "tiktok"`],
    [pixel({ value: 'v'.repeat(256) }), 'line 2: pixel "value" must be at most 255 characters, got 256'],
    [
      pixel({ workspace: 'beta' }),
      'line 2: pixel has no field "workspace" (a pixel has name, type, value, key)',
    ],
    [pixel({ key: 'nope' }), `line 2: pixel "key" is not one of the server's Management keys`],
    [
      pixel({ name: 'facebook MAIN' }),
      'line 2: pixel name "facebook MAIN" is already seeded in its workspace (pixel names are unique in a workspace, in any letter case)',
    ],
    [line({ kind: 'domain' }), 'line 2: domain "name" is required'],
    [
      line({ kind: 'domain', name: 'd.test', index_page: '' }),
      'line 2: domain "index_page" must not be blank (null for none)',
    ],
    [
      line({ kind: 'domain', name: 'd.test', index_page: 'x'.repeat(2049) }),
      'line 2: domain "index_page" must be at most 2048 characters, got 2049',
    ],
    [
      line({ kind: 'domain', name: 'BETA.example.io', key: 'test-mgmt-key-workspace-empty' }),
      'line 2: domain name "BETA.example.io" is already seeded (domain names are unique across workspaces, in any letter case)',
    ],
    [purchase({ purchase_code: undefined }), 'line 2: purchase "purchase_code" is required'],
    [
      purchase({ purchase_code: 'a b' }),
      'line 2: purchase "purchase_code" must be 1 to 100 letters, digits, - or _ (such as a UUID), got "a b"',
    ],
    [purchase({ price: '12' }), 'line 2: purchase "price" must be a number, 0 or more, got "12"'],
    [purchase({ price: -1 }), 'line 2: purchase "price" must be a number, 0 or more, got -1'],
    [
      purchase({ currency: 'usd' }),
      'line 2: purchase "currency" must be 3 capital letters, such as USD, got "usd"',
    ],
    [purchase({ item_id: 1.5 }), 'line 2: purchase "item_id" must be a whole number above 0, got 1.5'],
    [purchase({ item_id: 999 }), 'line 2: purchase "item_id" 999 is not an item of its account'],
    [
      purchase({ supported_until: 'tomorrow' }),
      'line 2: purchase "supported_until" must be a date (2026-12-31) or a date-time with a zone (2026-12-31T23:59:59Z), or null for no support, got "tomorrow"',
    ],
    [
      purchase({ date: '2025-02-30' }),
      'line 2: purchase "date" must be a date (2025-03-01) or a date-time with a zone (2025-03-01T12:00:00Z), got "2025-02-30"',
    ],
    [
      purchase({ date: '2025-03-01T12:00:00' }),
      'line 2: purchase "date" must be a date (2025-03-01) or a date-time with a zone (2025-03-01T12:00:00Z), got "2025-03-01T12:00:00"',
    ],
    [purchase({ downloaded: 'yes' }), 'line 2: purchase "downloaded" must be true or false, got "yes"'],
    [purchase({ license_type: '' }), 'line 2: purchase "license_type" must not be blank'],
    [purchase({ key: 'nope' }), `line 2: purchase "key" is not one of the server's Catalog keys`],
    [
      purchase({ key: 'test-catalog-key-no-items' }),
      "line 2: purchase has no item: its account has none (only the first Catalog key's account has items)",
    ],
    [
      purchase({ purchase_code: '5F3C2A10-1D2E-4F6A-9B8C-000000000001' }),
      'line 2: purchase "purchase_code" is already seeded in its account (codes match in any letter case)',
    ],
  ])('NDJSON line %s', (record, message) => {
    expect(refusal(`# header\n${record}\n${pixel({ name: 'Fine' })}`, 'rehearsal.ndjson')).toBe(
      `seed file rehearsal.ndjson, ${message}`,
    );
  });

  it('a duplicate name or code names the line that took it first', () => {
    const text = [pixel({ name: 'Twin' }), pixel({ name: 'other' }), pixel({ name: 'TWIN' })].join('\n');
    expect(refusal(text, 'twins.ndjson')).toBe(
      'seed file twins.ndjson, line 3: pixel name "TWIN" is taken in its workspace by line 1 (pixel names are unique in a workspace, in any letter case)',
    );
    // The same name in another workspace is fine for pixels; domain names are unique across workspaces.
    const beta = pixel({ name: 'Twin', key: 'test-mgmt-key-workspace-beta' });
    expect(refusal([pixel({ name: 'Twin' }), beta].join('\n'), 'ok.ndjson')).toBe('loaded');
    const domains = [
      line({ kind: 'domain', name: 'twin.test' }),
      line({ kind: 'domain', name: 'Twin.Test', key: 'test-mgmt-key-workspace-beta' }),
    ];
    expect(refusal(domains.join('\n'), 'd.ndjson')).toBe(
      'seed file d.ndjson, line 2: domain name "Twin.Test" is taken by line 1 (domain names are unique across workspaces, in any letter case)',
    );
    const codes = [purchase({ purchase_code: 'abc-1' }), purchase({ purchase_code: 'ABC-1' })];
    expect(refusal(codes.join('\n'), 'c.ndjson')).toBe(
      'seed file c.ndjson, line 2: purchase "purchase_code" is taken in its account by line 1 (codes match in any letter case)',
    );
  });

  it.each([
    ['{"pixels": [', 'not valid JSON'],
    ['[]', 'must be a JSON object with "pixels", "domains" and "purchases" arrays, got an array'],
    ['{"pixel": []}', 'has no field "pixel" (a seed file has pixels, domains, purchases)'],
    ['{"pixels": {}}', '"pixels" must be an array, got an object'],
    ['{"domains": ["a.test"]}', 'domains[0]: domain must be an object, got "a.test"'],
    [
      '{"pixels": [{"name": "A", "type": "x", "value": "1"}, {"name": "B", "type": "x"}]}',
      'pixels[1]: pixel "value" is required',
    ],
    [
      '{"purchases": [{"purchase_code": "X-1"}, {"purchase_code": "x-1"}]}',
      'purchases[1]: purchase "purchase_code" is taken in its account by purchases[0] (codes match in any letter case)',
    ],
  ])('JSON %s', (text, message) => {
    const where =
      message.startsWith('pixels[') || message.startsWith('domains[') || message.startsWith('purchases[');
    expect(refusal(text, 'rehearsal.json')).toBe(`seed file rehearsal.json${where ? ', ' : ': '}${message}`);
  });

  it('JSON that does not parse says where, when the parser does', () => {
    expect(refusal('{\n  "pixels": [],\n  "domains": [}\n', 'rehearsal.json')).toMatch(
      /^seed file rehearsal\.json: not valid JSON( \(line 3, column 15\))?$/,
    );
  });

  it('records given in code are checked the same way, named by their index', () => {
    const refused = (records: SeedRecords) => () => createReferenceServer({ seed: { records } });
    expect(refused({ pixels: [{ name: 'A', type: 'x', value: '' }] })).toThrow(
      new SeedRecordError({ source: 'seed.records', at: 'pixels[0]' }, 'pixel "value" is required'),
    );
    expect(refused({ pixels: [{ name: 'A', type: 'x', value: '' }] })).toThrow(
      'seed.records.pixels[0]: pixel "value" is required',
    );
    expect(refused({ domains: [{ name: 'a.test' }, { name: 'A.test' }] })).toThrow(
      'seed.records.domains[1]: domain name "A.test" is taken by domains[0] (domain names are unique across workspaces, in any letter case)',
    );
    expect(refused({ pixel: [] } as SeedRecords)).toThrow(
      'seed.records: has no field "pixel" (it has pixels, domains, purchases)',
    );
    expect(refused({ purchases: [{ purchase_code: 'OK-1' }] })).not.toThrow();
  });

  it('the error carries the file, the place and the problem apart', () => {
    try {
      parseSeedFile('\n{"kind":"pixel","name":"A","type":"nope","value":"1"}', { name: 'x.ndjson' });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        name: 'SeedRecordError',
        file: 'x.ndjson',
        at: 'line 2',
        problem: expect.stringMatching(/^pixel "type" must be one of adroll, /),
      });
    }
  });

  it('a file that cannot be read says why, in one line', async () => {
    const missing = join(dir, 'missing.json');
    await expect(readSeedFile(missing)).rejects.toThrow(
      new SeedRecordError({ source: `seed file ${missing}`, file: missing }, 'no such file'),
    );
    await expect(readSeedFile(missing)).rejects.toThrow(`seed file ${missing}: no such file`);
    const folder = join(dir, 'a-folder.json');
    await mkdir(folder, { recursive: true });
    await expect(readSeedFile(folder)).rejects.toThrow(`seed file ${folder}: is a folder, not a file`);
  });

  it('text given without a name is "seed text"', () => {
    expect(() => parseSeedFile('{"kind":"pixel"}')).toThrow('seed text, line 1: pixel "name" is required');
  });
});
