/**
 * Where the examples run: against the real servers when both APIs are configured (`CONTENT_PLATFORM_BASE_URL` and
 * `CONTENT_PLATFORM_MANAGEMENT_API_KEY`, `CONTENT_PLATFORM_SITE_URL` and `CONTENT_PLATFORM_CATALOG_API_KEY`), else
 * against the reference server, started here on a free 127.0.0.1 port and reached over real HTTP.
 */
import { CatalogClient, ManagementClient } from 'content-platform-sdk';
import { createReferenceServer, listen, type ReferenceServer } from 'content-platform-sdk/testing';

/** Two clients and what they talk to. */
export interface Connection {
  mgmt: ManagementClient;
  catalog: CatalogClient;
  /** The embedded reference server, when the examples started one (undefined against a real server). */
  reference: ReferenceServer | undefined;
  /** Human-readable target, for the first line of output. */
  target: string;
  close(): Promise<void>;
}

/** Connects to the configured server, or starts the reference server on loopback. */
export async function connect(): Promise<Connection> {
  const env = process.env;
  const configured = [
    'CONTENT_PLATFORM_BASE_URL',
    'CONTENT_PLATFORM_MANAGEMENT_API_KEY',
    'CONTENT_PLATFORM_SITE_URL',
    'CONTENT_PLATFORM_CATALOG_API_KEY',
  ].every((name) => env[name]);
  if (configured) {
    return {
      mgmt: new ManagementClient(),
      catalog: new CatalogClient(),
      reference: undefined,
      target:
        env.CONTENT_PLATFORM_BASE_URL === env.CONTENT_PLATFORM_SITE_URL
          ? `${env.CONTENT_PLATFORM_BASE_URL} (from the CONTENT_PLATFORM_* variables)`
          : `${env.CONTENT_PLATFORM_BASE_URL} / ${env.CONTENT_PLATFORM_SITE_URL} (from the CONTENT_PLATFORM_* variables)`,
      close: async () => {},
    };
  }
  // Limited as the real servers are (120 requests a minute per key), with their rate-limit headers.
  const reference = createReferenceServer({ rateLimit: { limit: 120 } });
  const { url, close } = await listen(reference, { port: 0 });
  const [mgmtKey] = reference.keys.management;
  const [catalogKey] = reference.keys.catalog;
  return {
    mgmt: new ManagementClient({ baseUrl: url, apiKey: mgmtKey }),
    catalog: new CatalogClient({ siteUrl: url, apiKey: catalogKey }),
    reference,
    target: `the reference server at ${url}`,
    close,
  };
}

/** The reference server on a free 127.0.0.1 port, over real HTTP: its URL, one key per API, a purchase code. */
export async function referenceServer() {
  // Limited as the real servers are (120 requests a minute per key), with their rate-limit headers.
  const reference = createReferenceServer({ rateLimit: { limit: 120 } });
  const { url, close } = await listen(reference, { port: 0 });
  return {
    url,
    managementKey: reference.keys.management[0] as string,
    catalogKey: reference.keys.catalog[0] as string,
    purchaseCode: reference.fixtures.purchaseCodes.supported,
    reference,
    close,
  };
}
