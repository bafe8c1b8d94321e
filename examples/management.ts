/**
 * The Management API: list with filters and pages, create, read, update, delete, and the typed errors.
 * Run: npx tsx examples/management.ts (in this repo), or from a project that installed the package:
 *   node node_modules/content-platform-sdk/dist/examples/management.js
 */
import { InvalidParamsError, NotFoundError, UnprocessableEntityError } from 'content-platform-sdk';
import { connect } from './support/connect.js';

const { mgmt, target, close } = await connect();
console.log(`Management API on ${target}\n`);

try {
  const page = await mgmt.pixels.list({ sort_by: 'name', sort: 'asc', per_page: 10 });
  console.log(
    `page ${page.meta.current_page} of ${page.meta.last_page}: ${page.data.length} of ${page.meta.total} pixels`,
  );

  let count = 0;
  for await (const pixel of mgmt.pixels.list({ type: 'facebook', per_page: 10 })) {
    count += 1;
    console.log(`  facebook pixel #${pixel.id} ${pixel.name} = ${pixel.value}`);
  }
  console.log(`${count} facebook pixels, walked page by page\n`);

  const pixel = await mgmt.pixels.create({ name: 'Example FB', type: 'facebook', value: '1234567890' });
  console.log('created', pixel);
  const renamed = await mgmt.pixels.update(pixel.id, { name: 'Example FB (renamed)' });
  console.log('renamed to', renamed.name);

  const { response } = await mgmt.pixels.get(pixel.id).withResponse();
  // The client's throttle read the same headers: what it would queue, for metrics. A server that states no rate
  // limit (the reference server without --rate-limit) sends no such headers, and the throttle then waits on nothing.
  const { remaining, limit, queued, inFlight } = mgmt.rateLimit;
  console.log(
    response.headers.has('x-ratelimit-remaining')
      ? `rate limit: ${remaining} of ${limit} left, ${queued} queued, ${inFlight} in flight`
      : 'rate limit: none stated by this server',
  );

  const domain = await mgmt.domains.create({
    name: 'go.example-shop.com',
    index_page: 'https://example-shop.com/',
  });
  await mgmt.domains.update(domain.id, { not_found_page: 'https://example-shop.com/404' });
  console.log('domain', (await mgmt.domains.get(domain.id)).url);

  try {
    await mgmt.pixels.create({ name: 'Example FB (renamed)', type: 'facebook', value: '1' });
  } catch (error) {
    if (!(error instanceof UnprocessableEntityError)) throw error;
    console.log('422 as expected:', error.fieldErrors);
  }

  console.log('deleted', await mgmt.pixels.delete(pixel.id), await mgmt.domains.delete(domain.id));
  await mgmt.pixels.get(pixel.id).catch((error: unknown) => {
    if (!(error instanceof NotFoundError)) throw error;
    console.log('404 as expected:', error.message);
  });

  try {
    // @ts-expect-error per_page must be 10, 25, 50 or 100: the types say so, and so does the run-time check.
    await mgmt.pixels.list({ per_page: 30 });
  } catch (error) {
    if (!(error instanceof InvalidParamsError)) throw error;
    console.log('caught before any request:', error.message);
  }
} finally {
  await close();
}
