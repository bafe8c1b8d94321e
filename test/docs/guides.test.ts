import { describe, expect, it } from 'vitest';
import { createReferenceServer } from '../../src/testing/index.js';
import { blockRunner, docBlock } from './readme-blocks.js';

// The guides' samples that the sample runner (samples.test.ts) only runs: here, what each prints and sends, run
// verbatim over 127.0.0.1 against the reference server.
const api = createReferenceServer();
const blocks = blockRunner(api, 'guides');
const mgmtKey = api.keys.management[0] as string;
const env = () => ({
  CONTENT_PLATFORM_BASE_URL: blocks.url(),
  CONTENT_PLATFORM_SITE_URL: blocks.url(),
  CONTENT_PLATFORM_MANAGEMENT_API_KEY: mgmtKey,
  CONTENT_PLATFORM_CATALOG_API_KEY: api.keys.catalog[0] as string,
});
const sent = (from: number) =>
  api.requests.slice(from).map((r) => `${r.method} ${new URL(r.url).pathname} ${r.status}`);

describe('guide: wrapping', () => {
  it('the tracing hook sends a W3C traceparent', async () => {
    const from = api.requests.length;
    const printed = await blocks.run(
      'tracing',
      docBlock('A tracing header on every attempt', 'docs/wrapping.md'),
      env(),
    );
    expect(printed).toEqual([`${Math.min(10, api.store.pixels(mgmtKey).length)} pixels, traced`]); // a page of 10
    expect(api.requests.slice(from).map((r) => r.headers.traceparent)).toEqual([
      expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/),
    ]);
  });

  it('the metrics hook observes each attempt with the key masked in the URL', async () => {
    const printed = await blocks.run('metrics', docBlock('Per-attempt metrics', 'docs/wrapping.md'), env());
    expect(printed.map((line) => ({ ...JSON.parse(line), ms: 0 }))).toEqual([
      { method: 'GET', url: `${blocks.url()}/api/items/all?api_key=***`, status: 200, attempt: 1, ms: 0 },
    ]);
  });

  it('the wrapper checks both keys, ensures a pixel once and leaves nothing behind', async () => {
    const pixels = api.store.pixels(mgmtKey);
    const from = api.requests.length;
    const printed = await blocks.run('wrapper', docBlock('Wrapping this SDK', 'docs/wrapping.md'), env());
    const id = Number(printed[0]?.match(/^pixel (\d+) ensured$/)?.[1]);
    expect(printed).toEqual([`pixel ${id} ensured`]);
    expect(sent(from).sort()).toEqual(
      [
        'GET /api/v1/pixels 200',
        'GET /api/account/details 200',
        'POST /api/v1/pixels 201',
        `DELETE /api/v1/pixels/${id} 200`,
      ].sort(),
    );
    expect(api.requests.at(-1)?.headers['user-agent']).toBe('content-platform-sdk/0.2.0 acme-content/1.2.3');
    expect(api.store.pixels(mgmtKey)).toEqual(pixels);
  });
});

describe('guide: the reference server', () => {
  it('a create whose answer is lost is found, not created twice', async () => {
    const printed = await blocks.run(
      'lost',
      docBlock('Faults, for your retry handling', 'docs/reference-server.md'),
      env(),
    );
    expect(printed).toEqual(['pixel Launch: lose-response, pass']);
  });
});
