// Lets one SDK error go uncaught, so Node's own printer writes it to stderr: spawned by uncaught.test.ts as a real
// `node` process. The case is the first argument:
//   not-found   a Management 404 from the reference server (an answer with headers and a body)
//   catalog     a Catalog "item not found" envelope (a `msg` and a body as well)
//   refused     a connection refused on 127.0.0.1 (a cause, no answer)
//   request-id  a Management 503 that names its X-Request-Id and asks no wait (a requestId, no retryAfter)
import { createServer } from 'node:net';
import { CatalogClient } from '../../src/catalog/index.js';
import { ManagementClient } from '../../src/management/index.js';
import { createReferenceServer } from '../../src/testing/index.js';

const server = createReferenceServer({ managementKeys: ['mk_UNCAUGHT_1'], catalogKeys: ['ck_UNCAUGHT_2'] });
const quiet = { maxRetries: 0, logLevel: 'off' as const, fetch: server.fetch };

/** A port on 127.0.0.1 that nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const which = process.argv[2];
if (which === 'not-found') {
  await new ManagementClient({
    baseUrl: 'https://links.example.com',
    apiKey: 'mk_UNCAUGHT_1',
    ...quiet,
  }).pixels.get(999_999);
} else if (which === 'catalog') {
  await new CatalogClient({
    siteUrl: 'https://market.example.com',
    apiKey: 'ck_UNCAUGHT_2',
    ...quiet,
  }).items.get(999_999);
} else if (which === 'request-id') {
  server.faults.script([{ status: 503, headers: { 'x-request-id': 'req-UNCAUGHT-3' } }]);
  await new ManagementClient({
    baseUrl: 'https://links.example.com',
    apiKey: 'mk_UNCAUGHT_1',
    ...quiet,
  }).pixels.get(1);
} else if (which === 'refused') {
  const baseUrl = `http://127.0.0.1:${await closedPort()}`;
  await new ManagementClient({
    baseUrl,
    apiKey: 'mk_UNCAUGHT_1',
    maxRetries: 0,
    logLevel: 'off',
  }).pixels.list();
}
console.log(`uncaught-child: nothing thrown for ${String(which)}`);
