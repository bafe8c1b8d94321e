// The README's "Testing your code with the reference server" example, verbatim apart from this comment:
// if the README's code stops working, this file fails.
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

const mgmt = new ManagementClient({
  baseUrl: MSW_DEFAULT_URLS.baseUrl,
  apiKey: api.keys.management[0],
  logLevel: 'error', // the retry test below would print a retry warning
});

it('creates a pixel', async () => {
  const pixel = await mgmt.pixels.create({ name: 'FB', type: 'facebook', value: '123' });
  expect(api.store.pixels(api.keys.management[0]!).at(-1)).toEqual(pixel);
});

it('survives one 503', async () => {
  api.faults.script([{ status: 503 }]); // the next request answers 503, then all is normal again
  await expect(mgmt.pixels.get(1)).resolves.toMatchObject({ id: 1 });
  expect(api.requests.map((r) => r.fault)).toEqual([{ status: 503 }, 'pass']);
});

it('is the code the README shows', async () => {
  const { readFile } = await import('node:fs/promises');
  const self = await readFile(new URL(import.meta.url), 'utf8');
  // Everything between the two leading comment lines and this test.
  const shown = self.split('\n').slice(2).join('\n').split("\nit('is the code the README shows'")[0]!.trim();
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  expect(readme).toContain(shown);
});
