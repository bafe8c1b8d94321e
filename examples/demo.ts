/**
 * A tour of the SDK: all fourteen operations over real HTTP, and each typed error being caught.
 * By default it starts the reference server on a free 127.0.0.1 port; with CONTENT_PLATFORM_BASE_URL and
 * CONTENT_PLATFORM_MANAGEMENT_API_KEY, CONTENT_PLATFORM_SITE_URL and CONTENT_PLATFORM_CATALOG_API_KEY set, the same
 * tour runs against those servers.
 * Run: npm run demo (in this repo), or from a project that installed the package:
 *   node node_modules/content-platform-sdk/dist/examples/demo.js
 */
import {
  AccountRequestError,
  AuthenticationError,
  CatalogClient,
  CatalogError,
  ContentPlatformError,
  InvalidParamsError,
  InvalidPurchaseCodeError,
  ItemNotFoundError,
  ManagementClient,
  NoItemsError,
  NotFoundError,
  RateLimitError,
  UnprocessableEntityError,
} from 'content-platform-sdk';
import { connect } from './support/connect.js';

const { mgmt, catalog, reference, target, close } = await connect();
const suffix = Date.now().toString(36);
let step = 0;

/** Prints one numbered operation and its outcome. */
function show(operation: string, outcome: string): void {
  step += 1;
  console.log(`  ${String(step).padStart(2)}. ${operation.padEnd(22)} ${outcome}`);
}

/** Runs a call that must fail with `expected`, and prints the class (and the Catalog's own words). */
async function expectError(
  label: string,
  expected: abstract new (...args: never[]) => Error,
  call: () => unknown,
) {
  try {
    await call();
  } catch (error) {
    if (!(error instanceof expected)) throw error;
    const detail = error instanceof CatalogError ? `code ${error.code}, msg «${error.msg}»` : error.message;
    console.log(`  ✓ ${error.name.padEnd(26)} ${label}: ${detail}`);
    return;
  }
  throw new Error(`${label}: expected ${expected.name}, but the call succeeded`);
}

try {
  console.log(`content-platform-sdk tour, against ${target}\n`);

  console.log('Management API: pixels');
  const page = await mgmt.pixels.list({ sort_by: 'name', sort: 'asc', per_page: 10 });
  show(
    'pixels.list',
    `page ${page.meta.current_page} of ${page.meta.last_page}: ${page.data
      .map((p) => p.name)
      .slice(0, 3)
      .join(', ')}, …`,
  );
  const pixel = await mgmt.pixels.create({
    name: `Demo FB ${suffix}`,
    type: 'facebook',
    value: '1234567890',
  });
  show('pixels.create', `#${pixel.id} ${pixel.name} (${pixel.type} ${pixel.value})`);
  const { data: fetched, response } = await mgmt.pixels.get(pixel.id).withResponse();
  show(
    'pixels.get',
    `#${fetched.id} ${fetched.name}; X-RateLimit-Remaining: ${response.headers.get('x-ratelimit-remaining')}`,
  );
  const updated = await mgmt.pixels.update(pixel.id, { name: `Demo FB ${suffix} v2`, value: '999' });
  show('pixels.update', `#${updated.id} now ${updated.name} = ${updated.value}`);
  if (page.hasNextPage()) {
    const next = await page.getNextPage();
    console.log(
      `      page.getNextPage(): page ${next.meta.current_page}, ${next.data.map((p) => p.name).join(', ')}`,
    );
  }
  const facebook: string[] = [];
  for await (const p of mgmt.pixels.list({ type: 'facebook', per_page: 10 })) facebook.push(p.name);
  console.log(`      for await over the facebook pixels, page by page: ${facebook.join(', ')}`);
  const receipt = await mgmt.pixels.delete(pixel.id);
  show('pixels.delete', JSON.stringify(receipt));

  console.log('\nManagement API: domains');
  const domains = await mgmt.domains.list({ search: 'example', sort: 'desc' });
  show(
    'domains.list',
    `${domains.meta.total} matching "example": ${domains.data.map((d) => d.name).join(', ') || '(none)'}`,
  );
  const domain = await mgmt.domains.create({
    name: `demo-${suffix}.example.net`,
    index_page: 'https://example.net/',
  });
  show('domains.create', `#${domain.id} ${domain.url} → index ${domain.index_page}`);
  show('domains.get', `#${domain.id} not_found_page: ${(await mgmt.domains.get(domain.id)).not_found_page}`);
  const changed = await mgmt.domains.update(domain.id, { not_found_page: 'https://example.net/404' });
  show('domains.update', `#${changed.id} not_found_page: ${changed.not_found_page}`);
  show('domains.delete', JSON.stringify(await mgmt.domains.delete(domain.id)));

  console.log('\nCatalog API');
  const account = await catalog.account.details();
  show(
    'account.details',
    `${account.name.full_name} — ${account.profile.heading} — ${account.balance} ${account.currency}`,
  );
  const items = await catalog.items.list();
  const kinds = items.map((item) => item.media.kind);
  show(
    'items.list',
    `${items.length} items (${['image', 'audio', 'video'].map((k) => `${kinds.filter((x) => x === k).length} ${k}`).join(', ')})`,
  );
  const first = items[0];
  if (first) {
    const item = await catalog.items.get(first.id);
    show('items.get', `#${item.id} ${item.name}, v${item.version ?? '—'}, tags ${item.tags.join(', ')}`);
  }
  const code = reference?.fixtures.purchaseCodes.supported ?? process.env.CONTENT_PLATFORM_PURCHASE_CODE;
  if (code) {
    const purchase = await catalog.purchases.validate(code);
    show(
      'purchases.validate',
      `${purchase.license_type}, ${purchase.price} ${purchase.currency}, supported until ${purchase.supported_until ?? '—'}`,
    );
  }

  console.log('\nTyped errors, each caught by its class');
  // @ts-expect-error 30 is not an allowed per_page: the compiler says so, and the SDK checks again at run time.
  await expectError('per_page 30', InvalidParamsError, () => mgmt.pixels.list({ per_page: 30 }));
  await expectError('get a deleted pixel', NotFoundError, () => mgmt.pixels.get(pixel.id));
  const taken = page.data[0]?.name;
  if (taken) {
    await expectError('a taken pixel name', UnprocessableEntityError, () =>
      mgmt.pixels.create({ name: taken, type: 'bing', value: '1' }),
    );
  }
  await expectError('an unknown item', ItemNotFoundError, () => catalog.items.get(999_999));
  await expectError('a wrong purchase code', InvalidPurchaseCodeError, () =>
    catalog.purchases.validate('no-such-code'),
  );
  if (reference) {
    const url = new URL(response.url).origin;
    await expectError('a wrong management key', AuthenticationError, () =>
      new ManagementClient({ baseUrl: url, apiKey: 'wrong-key' }).pixels.list(),
    );
    await expectError('a wrong catalog key', AccountRequestError, () =>
      new CatalogClient({ siteUrl: url, apiKey: 'wrong-key' }).account.details(),
    );
    await expectError('a key without items', NoItemsError, () =>
      new CatalogClient({ siteUrl: url, apiKey: reference.keys.catalog[1] }).items.list(),
    );
    reference.faults.script([
      { status: 429, body: { message: 'Too Many Attempts.' }, headers: { 'retry-after': '120' } },
    ]);
    await expectError('a rate limit of 120 s', RateLimitError, () => mgmt.pixels.get(1));
  }
  console.log('\nTour complete.');
} catch (error) {
  process.exitCode = 1;
  console.error(
    '\nThe tour failed:',
    error instanceof ContentPlatformError ? `${error.name}: ${error.message}` : error,
  );
} finally {
  await close();
}
