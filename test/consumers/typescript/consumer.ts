// TypeScript consumer: type-checked with `tsc --noEmit` under `moduleResolution` `nodenext` and `bundler`
// against the installed tarball's declarations, then run (tsc's output on Node, esbuild's bundle on Node).
import {
  APIError,
  type APIPromise,
  CatalogClient,
  type CatalogErrorCode,
  ContentPlatformError,
  InvalidParamsError,
  type Item,
  ItemNotFoundError,
  ManagementClient,
  NotFoundError,
  type Page,
  type PagePromise,
  type Pixel,
  type PixelListParams,
  type Purchase,
} from 'content-platform-sdk';
import { createReferenceServer, listen, type ReferenceServer } from 'content-platform-sdk/testing';

function assert(ok: boolean, what: string): asserts ok {
  if (!ok) throw new Error(`consumer check failed: ${what}`);
}

async function expectError<E extends ContentPlatformError>(
  call: Promise<unknown>,
  Class: abstract new (...args: never[]) => E,
): Promise<E> {
  try {
    await call;
  } catch (error) {
    if (error instanceof Class) return error;
    throw error;
  }
  throw new Error(`expected ${Class.name}`);
}

const api: ReferenceServer = createReferenceServer({ rateLimit: { limit: 60 } });
const { url, close } = await listen(api, { port: 0 });

try {
  const mgmt = new ManagementClient({ baseUrl: url, apiKey: api.keys.management[0]!, maxRetries: 0 });
  const created: Pixel = await mgmt.pixels.create({ name: 'Typed', type: 'google-analytics', value: 'G-1' });

  const params: PixelListParams = { sort_by: 'name', sort: 'asc', per_page: 10 };
  const pending: PagePromise<Pixel> = mgmt.pixels.list(params);
  const first: Page<Pixel> = await pending;
  const second: Page<Pixel> | undefined = first.hasNextPage() ? await first.getNextPage() : undefined;
  const names: string[] = [];
  for await (const pixel of mgmt.pixels.list({ per_page: 100 })) names.push(pixel.name);
  assert(names.length === first.meta.total && names.includes(created.name), 'for await over every page');
  assert(second === undefined || second.meta.current_page === 2, 'getNextPage');

  const raw: APIPromise<Pixel> = mgmt.pixels.get(created.id);
  const { data, response } = await raw.withResponse();
  assert(data.id === created.id && response.headers.has('x-ratelimit-remaining'), 'withResponse');

  const notFound: NotFoundError = await expectError(mgmt.pixels.get(999_999), NotFoundError);
  const status: number = notFound.status;
  assert(
    status === 404 && notFound instanceof APIError && notFound instanceof ContentPlatformError,
    'NotFoundError',
  );
  const invalid = await expectError(mgmt.domains.get('../x'), InvalidParamsError);
  assert(invalid.param !== undefined, 'InvalidParamsError names the parameter');

  const catalog = new CatalogClient({ siteUrl: url, apiKey: api.keys.catalog[0]! });
  const items: Item[] = await catalog.items.list();
  const audio = items.find((item) => item.media.kind === 'audio');
  assert(audio !== undefined, 'an audio item');
  const missing = await expectError(catalog.items.get(api.fixtures.itemIds.missing), ItemNotFoundError);
  const code: CatalogErrorCode = missing.code;
  assert(code === 'item_not_found', 'ItemNotFoundError code');
  const purchase: Purchase = await catalog.purchases.validate(api.fixtures.purchaseCodes.supported);
  assert(typeof purchase.license_type === 'string', 'purchases.validate');

  console.log(`ok: typescript consumer, ${names.length} pixels, ${items.length} items`);
} finally {
  await close();
}
