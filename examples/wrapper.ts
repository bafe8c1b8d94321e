/**
 * Wrapping the SDK in your own: one ky instance (your headers, hooks and fetch) shared by both clients, each
 * with its own URL and key, and a small domain API on top.
 * Run: npx tsx examples/wrapper.ts
 */
import {
  CatalogClient,
  InvalidPurchaseCodeError,
  type KyInstance,
  ManagementClient,
  type Pixel,
  type PixelListParams,
  redactUrl,
} from 'content-platform-sdk';
import ky from 'ky';
import { referenceServer } from './support/connect.js';

/** Options of the wrapper: where the two APIs are, one key each, and who is calling. */
export interface AcmeContentOptions {
  baseUrl: string;
  managementKey: string;
  siteUrl: string;
  catalogKey: string;
  tenant: string;
  /** Where the wrapper's own request lines go. */
  log?: (line: string) => void;
}

/** Acme's content SDK: both Content Platform APIs behind one object, with Acme's conventions. */
export class AcmeContent {
  readonly management: ManagementClient;
  readonly catalog: CatalogClient;
  /** The one ky instance both clients extend: Acme's headers and hooks apply to every request. */
  readonly http: KyInstance;

  constructor(options: AcmeContentOptions) {
    const log = options.log ?? console.log;
    this.http = ky.create({
      headers: { 'x-acme-tenant': options.tenant },
      hooks: {
        afterResponse: [
          ({ request, response, retryCount }) =>
            log(
              `[acme] ${request.method} ${redactUrl(request.url)} → ${response.status} (try ${retryCount + 1})`,
            ),
        ],
      },
    });
    // The SDK's URL, key, retries and timeouts win over the instance's; its headers and hooks are kept.
    this.management = new ManagementClient({
      baseUrl: options.baseUrl,
      apiKey: options.managementKey,
      ky: this.http,
    });
    this.catalog = new CatalogClient({ siteUrl: options.siteUrl, apiKey: options.catalogKey, ky: this.http });
  }

  /** Every pixel of one type, across all pages. */
  async pixelsOfType(type: NonNullable<PixelListParams['type']>): Promise<Pixel[]> {
    const pixels: Pixel[] = [];
    for await (const pixel of this.management.pixels.list({ type, per_page: 100 })) pixels.push(pixel);
    return pixels;
  }

  /** Whether a buyer's purchase code is valid: `false` for an unknown code, any other failure thrown. */
  async isLicensed(purchaseCode: string): Promise<boolean> {
    try {
      await this.catalog.purchases.validate(purchaseCode);
      return true;
    } catch (error) {
      if (error instanceof InvalidPurchaseCodeError) return false;
      throw error;
    }
  }
}

const server = await referenceServer();
try {
  const acme = new AcmeContent({
    baseUrl: server.url,
    managementKey: server.managementKey,
    siteUrl: server.url,
    catalogKey: server.catalogKey,
    tenant: 'acme-eu',
  });
  const pixels = await acme.pixelsOfType('facebook');
  console.log(`${pixels.length} facebook pixels`);
  console.log(`licensed: ${await acme.isLicensed(server.purchaseCode)}`);
  console.log(`licensed (unknown code): ${await acme.isLicensed('00000000-0000-0000-0000-000000000000')}`);
} finally {
  await server.close();
}
