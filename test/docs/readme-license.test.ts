import { describe, expect, it } from 'vitest';
import { createReferenceServer } from '../../src/testing/index.js';
import { blockRunner, docBlock } from './readme-blocks.js';

// The guide's "License checks at scale" example (docs/license-checks.md), run verbatim over 127.0.0.1 against the reference server,
// configured through the environment as the README says.
const code = docBlock('License checks at scale', 'docs/license-checks.md');
const api = createReferenceServer();
const blocks = blockRunner(api, 'readme-license');

describe('guide: license checks at scale', () => {
  it('validates a code three times with two requests: a miss, a hit, a refresh', async () => {
    const printed = await blocks.run('example', code, {
      CONTENT_PLATFORM_SITE_URL: blocks.url(),
      CONTENT_PLATFORM_CATALOG_API_KEY: api.keys.catalog[0] as string,
      PURCHASE_CODE: api.fixtures.purchaseCodes.supported,
    });
    expect(printed).toEqual(['regular hit']);
    expect(api.requests.map((r) => `${r.method} ${new URL(r.url).pathname} ${r.status}`)).toEqual([
      'POST /api/purchases/validation 200',
      'POST /api/purchases/validation 200',
    ]);
  }, 20_000);
});
