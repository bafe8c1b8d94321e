import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createReferenceServer, type ListeningServer, listen } from '../../src/testing/index.js';

// The README's two quick starts, run verbatim against the reference server over 127.0.0.1, configured the way
// the README says: through the environment.
const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
const block = (heading: string) => {
  const match = readme.match(new RegExp(`^### ${heading}\\n\\n\`\`\`ts\\n([\\s\\S]*?)^\`\`\``, 'm'));
  if (!match) throw new Error(`README: no ts block under "### ${heading}"`);
  return match[1] as string;
};
const dir = new URL('../../.ci/out/readme-blocks/', import.meta.url);

const api = createReferenceServer();
let live: ListeningServer;
beforeAll(async () => {
  live = await listen(api, { port: 0 });
  await mkdir(dir, { recursive: true });
});
afterAll(async () => {
  await live.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs `code` as a module, with the environment a user would set, and gives what it printed. */
async function runBlock(name: string, code: string): Promise<string[]> {
  vi.stubEnv('CONTENT_PLATFORM_BASE_URL', live.url);
  vi.stubEnv('CONTENT_PLATFORM_SITE_URL', live.url);
  vi.stubEnv('CONTENT_PLATFORM_MANAGEMENT_API_KEY', api.keys.management[0]);
  vi.stubEnv('CONTENT_PLATFORM_CATALOG_API_KEY', api.keys.catalog[0]);
  const printed: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
  const file = new URL(`${name}.ts`, dir);
  await writeFile(file, code);
  await import(file.href);
  return printed;
}

describe('README quick start', () => {
  it('Management: creates, lists the newest five, deletes', async () => {
    const before = api.store.pixels(api.keys.management[0]!);
    const facebook = before.filter((p) => p.type === 'facebook').sort((a, b) => b.id - a.id);
    const newest = ['Quick start', ...facebook.map((p) => p.name)].slice(0, 5).join(', ');
    const printed = await runBlock('management', block('Management API'));
    const id = Number(printed[0]?.match(/^created pixel (\d+);/)?.[1]);
    expect(printed).toEqual([`created pixel ${id}; newest: ${newest}`]);
    expect(before.map((p) => p.id)).not.toContain(id);
    expect(api.store.pixels(api.keys.management[0]!)).toEqual(before);
    expect(api.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'POST /api/v1/pixels',
      'GET /api/v1/pixels',
      expect.stringMatching(/^DELETE \/api\/v1\/pixels\/\d+$/),
    ]);
  });

  it('Catalog: lists the items, validates the seeded purchase code', async () => {
    const printed = await runBlock('catalog', block('Catalog API'));
    const item = api.store.items(api.keys.catalog[0]!).find((i) => i.id === 101);
    expect(printed).toEqual([
      `${api.store.items(api.keys.catalog[0]!).length} items; purchase: ${item?.name}`,
    ]);
  });
});
