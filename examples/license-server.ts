/**
 * A license server: the endpoint a theme or plugin calls on every activation, update check or download,
 * `GET /license?code=…`, answered through a Catalog client with a cache. A valid code is asked once an hour (`ttl`);
 * a code the marketplace calls invalid (refunded, say) is refused at its next check after that; and while the
 * marketplace is down, a code it said was valid in the last three days (`staleIfError`) stays valid.
 * Run: npx tsx examples/license-server.ts (in this repo), or from a project that installed the package:
 *   node node_modules/content-platform-sdk/dist/examples/license-server.js
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  APIConnectionError,
  CatalogClient,
  InternalServerError,
  InvalidPurchaseCodeError,
  type Purchase,
  RateLimitError,
} from 'content-platform-sdk';
import { referenceServer } from './support/connect.js';

/** What `GET /license?code=…` answers: 200 with the license, 403 `{ valid: false }`, 503 or 400 `{ error }`. */
export type LicenseAnswer =
  | {
      valid: true;
      item: { id: number; name: string };
      license: Purchase['license'];
      supportedUntil: string | null;
      /** Where the answer came from: the marketplace (`miss`), or the cache (`hit`, `stale`). */
      cache: 'miss' | 'hit' | 'stale' | undefined;
    }
  | { valid: false }
  | { error: string };

/** The license endpoint over `catalog` (a client with a `cache`): one route, JSON answers. */
export function licenseServer(catalog: CatalogClient): Server {
  return createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const route = request.method === 'GET' && url.pathname === '/license';
    const answer = route ? check(catalog, url.searchParams.get('code') ?? '') : notFound();
    void answer.then(([status, body]) => {
      const retry: Record<string, string> = status === 503 ? { 'retry-after': '60' } : {};
      response.writeHead(status, { 'content-type': 'application/json', ...retry });
      response.end(JSON.stringify(body));
    });
  });
}

async function check(catalog: CatalogClient, code: string): Promise<[number, LicenseAnswer]> {
  if (code.trim() === '') return [400, { error: 'code is required' }];
  try {
    const { data, cache } = await catalog.purchases.validate(code).withResponse();
    const { id, name } = data.item;
    return [
      200,
      {
        valid: true,
        item: { id, name },
        license: data.license,
        supportedUntil: data.supported_until ?? null,
        cache,
      },
    ];
  } catch (error) {
    // The marketplace's word: refused at once, never served from the cache.
    if (error instanceof InvalidPurchaseCodeError) return [403, { valid: false }];
    // No answer, a 5xx or a long 429, and no entry recent enough to stand in: "try later", never "invalid".
    if (
      error instanceof APIConnectionError ||
      error instanceof InternalServerError ||
      error instanceof RateLimitError
    )
      return [503, { error: 'the marketplace cannot be reached; try again later' }];
    // Anything else (a wrong API key, say) is ours to fix, not the customer's.
    console.error(error);
    return [500, { error: 'license check failed' }];
  }
}

async function notFound(): Promise<[number, LicenseAnswer]> {
  return [404, { error: 'not found' }];
}

// The demo: the reference server as the marketplace, the license server in front of it, and a plugin's requests.
const marketplace = await referenceServer();
// An hour and three days in production; a ttl of one second here, so the demo sees an entry go past it.
const ttl = 1_000;
const catalog = new CatalogClient({
  siteUrl: marketplace.url,
  apiKey: marketplace.catalogKey,
  cache: { ttl, staleIfError: 3 * 86_400_000 },
  // An activation waits for this answer: one retry, a short timeout.
  maxRetries: 1,
  timeout: 5_000,
});
const server = licenseServer(catalog);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** What a plugin does: asks the license server, over HTTP. Codes are credentials: printed by their last four. */
async function activate(code: string): Promise<void> {
  const response = await fetch(`${origin}/license?code=${encodeURIComponent(code)}`);
  console.log(`GET /license?code=…${code.slice(-4)} → ${response.status} ${await response.text()}`);
}

try {
  const { supported, supportExpired, invalid } = marketplace.reference.fixtures.purchaseCodes;
  console.log(`license server on ${origin}, asking the marketplace at ${marketplace.url}`);
  await activate(supported);
  await activate(supported);
  await activate(invalid);

  await sleep(ttl + 100);
  marketplace.reference.faults.set({ failureRate: 1 });
  console.log('past the ttl, the marketplace failing every request:');
  await activate(supported);
  await activate(supportExpired);

  marketplace.reference.faults.clear();
  marketplace.reference.store.refundPurchase(supported);
  console.log('the marketplace back, the first code refunded:');
  await activate(supported);

  console.log('catalog.cache:', catalog.cache);
} finally {
  await new Promise((resolve) => server.close(resolve));
  await marketplace.close();
}
