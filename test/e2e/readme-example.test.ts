// The README's vitest and msw sample, verbatim below these two lines: test/docs/samples.test.ts fails when the
// README's block and this file differ.
import { ManagementClient } from 'content-platform-sdk';
import { createReferenceServer } from 'content-platform-sdk/testing';
import { createMswHandlers, MSW_DEFAULT_URLS } from 'content-platform-sdk/testing/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

const api = createReferenceServer();
const mock = setupServer(...createMswHandlers(api));
beforeAll(() => mock.listen({ onUnhandledFrame: 'error' })); // msw 3 ignores onUnhandledRequest
afterEach(() => api.reset());
afterAll(() => mock.close());

const mgmt = new ManagementClient({ baseUrl: MSW_DEFAULT_URLS.baseUrl, apiKey: api.keys.management[0] });

it('creates a pixel', async () => {
  const pixel = await mgmt.pixels.create({ name: 'FB', type: 'facebook', value: '123' });
  expect(api.store.pixels(api.keys.management[0]!).at(-1)).toEqual(pixel);
});

it('survives one 503', async () => {
  api.faults.script([{ status: 503 }]); // the next request answers 503, then all is normal again
  await expect(mgmt.pixels.get(1)).resolves.toMatchObject({ id: 1 });
  expect(api.requests.map((r) => r.fault)).toEqual([{ status: 503 }, 'pass']);
});
