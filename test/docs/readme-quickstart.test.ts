import { describe, expect, it } from 'vitest';
import { createReferenceServer } from '../../src/testing/index.js';
import { blockRunner, docBlock } from './readme-blocks.js';

// The README's two quick starts, run verbatim against the reference server over 127.0.0.1, configured the way
// the README says: through the environment.
const api = createReferenceServer();
const blocks = blockRunner(api, 'readme-blocks');

/** Runs a quick start with the four variables a user would set. */
function runBlock(name: string, code: string): Promise<string[]> {
  return blocks.run(
    name,
    code,
    {
      CONTENT_PLATFORM_BASE_URL: blocks.url(),
      CONTENT_PLATFORM_SITE_URL: blocks.url(),
      CONTENT_PLATFORM_MANAGEMENT_API_KEY: api.keys.management[0] as string,
      CONTENT_PLATFORM_CATALOG_API_KEY: api.keys.catalog[0] as string,
    },
    'js',
  );
}

describe('README quick start', () => {
  it('Management: creates, lists the newest five, deletes', async () => {
    const before = api.store.pixels(api.keys.management[0]!);
    const facebook = before.filter((p) => p.type === 'facebook').sort((a, b) => b.id - a.id);
    const newest = ['Quick start', ...facebook.map((p) => p.name)].slice(0, 5).join(', ');
    const printed = await runBlock('management', docBlock('Quick start', 'README.md', 0));
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
    const printed = await runBlock('catalog', docBlock('Quick start', 'README.md', 1));
    const item = api.store.items(api.keys.catalog[0]!).find((i) => i.id === 101);
    expect(printed).toEqual([
      `${api.store.items(api.keys.catalog[0]!).length} items; purchase: ${item?.name}`,
    ]);
  });
});
