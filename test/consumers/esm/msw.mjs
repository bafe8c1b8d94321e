// ESM consumer of `content-platform-sdk/testing/msw`: both clients against the reference server through msw.
import assert from 'node:assert/strict';
import { CatalogClient, ManagementClient, NoItemsError } from 'content-platform-sdk';
import { createReferenceServer } from 'content-platform-sdk/testing';
import { createMswHandlers, MSW_DEFAULT_URLS } from 'content-platform-sdk/testing/msw';
import { setupServer } from 'msw/node';

const api = createReferenceServer();
const mock = setupServer(...createMswHandlers(api));
mock.listen({ onUnhandledFrame: 'error' });
try {
  const mgmt = new ManagementClient({ baseUrl: MSW_DEFAULT_URLS.baseUrl, apiKey: api.keys.management[0] });
  const pixel = await mgmt.pixels.create({ name: 'Through msw', type: 'bing', value: '1' });
  assert.deepEqual(api.store.pixels(api.keys.management[0]).at(-1), pixel);
  const empty = new CatalogClient({ siteUrl: MSW_DEFAULT_URLS.siteUrl, apiKey: api.keys.catalog[1] });
  await assert.rejects(empty.items.list(), NoItemsError);
  console.log('ok: esm consumer of content-platform-sdk/testing/msw');
} finally {
  mock.close();
}
