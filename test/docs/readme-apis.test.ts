import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { ManagementClient } from '../../src/index.js';
import { createReferenceServer } from '../../src/testing/index.js';
import { blockRunner, docBlock } from './readme-blocks.js';

// The README's API samples, run verbatim (twice: a second run must meet a server the first left as it found it)
// over 127.0.0.1 against the reference server, configured through the environment as the README says: what they
// print, the requests they send and the records they leave.
const api = createReferenceServer();
const blocks = blockRunner(api, 'readme-apis');
const mgmtKey = api.keys.management[0] as string;
const catalogKey = api.keys.catalog[0] as string;
const env = () => ({
  CONTENT_PLATFORM_BASE_URL: blocks.url(),
  CONTENT_PLATFORM_SITE_URL: blocks.url(),
  CONTENT_PLATFORM_MANAGEMENT_API_KEY: mgmtKey,
  CONTENT_PLATFORM_CATALOG_API_KEY: catalogKey,
});
const sent = (from: number) =>
  api.requests.slice(from).map((r) => `${r.method} ${new URL(r.url).pathname} ${r.status}`);

describe('README: Management API', () => {
  it('lists, creates, meets the 422 it shows, deletes; a second run does the same', async () => {
    const pixels = api.store.pixels(mgmtKey);
    const domains = api.store.domains(mgmtKey);
    const facebook = pixels.filter((p) => p.type === 'facebook').length;
    for (const time of [1, 2]) {
      const from = api.requests.length;
      const printed = await blocks.run(`management-${time}`, docBlock('Management API'), env());
      const id = Number(printed[2]?.match(/^pixel (\d+): deleted$/)?.[1]);
      expect(printed).toEqual([
        `${facebook} of ${facebook} facebook pixels; more: false`,
        "[ 'The name has already been taken.' ]",
        `pixel ${id}: deleted`,
      ]);
      expect(sent(from)).toEqual([
        'GET /api/v1/pixels 200',
        'POST /api/v1/pixels 201',
        `PUT /api/v1/pixels/${id} 200`,
        'POST /api/v1/pixels 422',
        `DELETE /api/v1/pixels/${id} 200`,
        `GET /api/v1/pixels/${id} 404`,
        'POST /api/v1/domains 201',
        expect.stringMatching(/^PUT \/api\/v1\/domains\/\d+ 200$/),
        expect.stringMatching(/^DELETE \/api\/v1\/domains\/\d+ 200$/),
      ]);
      expect(api.store.pixels(mgmtKey)).toEqual(pixels);
      expect(api.store.domains(mgmtKey)).toEqual(domains);
    }
  });
});

describe('README: Catalog API', () => {
  it('reads the account and the items, meets ItemNotFoundError, validates the code it shows', async () => {
    const items = api.store.items(catalogKey);
    const from = api.requests.length;
    const printed = await blocks.run('catalog', docBlock('Catalog API'), env());
    expect(printed[0]).toMatch(new RegExp(`^\\S+: ${items.length} items, \\d+ of them audio$`));
    expect(printed.slice(-2)).toEqual(['no item 999999', expect.stringMatching(/^regular \S+$/)]);
    expect(sent(from)).toEqual([
      'GET /api/account/details 200',
      'GET /api/items/all 200',
      'GET /api/items/item 200',
      'GET /api/items/item 404',
      'POST /api/purchases/validation 200',
    ]);
  });
});

describe('README: Errors', () => {
  it('findPixel answers null for a pixel that is not there, without a retry', async () => {
    const from = api.requests.length;
    const printed = await blocks.run('errors', docBlock('Errors'), env());
    expect(printed).toEqual(['pixel 999999: none']);
    expect(sent(from)).toEqual(['GET /api/v1/pixels/999999 404']);
  });
});

describe('README: Logging', () => {
  it('the default logger prints the retry line the README shows, at info', async () => {
    const shown = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').match(
      /^```text\n(content-platform-sdk info: .*)\n```/m,
    )?.[1] as string;
    const pattern = new RegExp(
      `^${shown
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replaceAll('https://links\\.example\\.com', blocks.url().replace(/\./g, '\\.'))
        .replace(/212/g, '\\d+')}$`,
    );
    const lines: string[] = [];
    const info = vi.spyOn(console, 'info').mockImplementation((line: string) => void lines.push(line));
    api.faults.script([{ status: 503 }]);
    const mgmt = new ManagementClient({ baseUrl: blocks.url(), apiKey: mgmtKey, logLevel: 'info' });
    await mgmt.pixels.get(1);
    info.mockClear(); // printed on purpose: test/setup.ts fails a test whose SDK lines reach the console
    expect(lines.filter((line) => line.includes('retry'))).toEqual([expect.stringMatching(pattern)]);
  });
});
