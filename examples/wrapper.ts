/**
 * Wrapping the SDK in your own: one key per API, a credentials check at start-up, a derived client for quick
 * calls, errors translated with what the SDK knows (attempts, request id, whether a create may have happened),
 * structured log fields forwarded to your logger, and one ky instance (your headers and hooks) for both clients.
 * Run: npx tsx examples/wrapper.ts (in this repo), or from a project that installed the package:
 *   node node_modules/content-platform-sdk/dist/examples/wrapper.js
 */
import {
  APIConnectionError,
  APIError,
  CatalogClient,
  InvalidPurchaseCodeError,
  isContentPlatformError,
  type KyInstance,
  type LogFields,
  type Logger,
  ManagementClient,
  type Pixel,
  type PixelCreateParams,
  redactUrl,
} from 'content-platform-sdk';
import ky from 'ky';
import { referenceServer } from './support/connect.js';

/** Options of the wrapper: where the two APIs are, one key each (never the same one), and who is calling. */
export interface AcmeContentOptions {
  baseUrl: string;
  managementKey: string;
  siteUrl: string;
  catalogKey: string;
  tenant: string;
  /** Where the wrapper's lines go: one structured record per line. */
  log?: (record: { level: string; msg: string } & LogFields) => void;
}

/** Acme's own error: what an Acme caller needs, whichever API failed. */
export class AcmeError extends Error {
  override name = 'AcmeError';
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly requestId: string | undefined,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** Acme's content SDK: both Content Platform APIs behind one object, with Acme's conventions. */
export class AcmeContent {
  readonly management: ManagementClient;
  readonly catalog: CatalogClient;
  /** For health checks: the same client, no retries and a short timeout. */
  readonly quick: ManagementClient;
  /** The one ky instance both clients extend: Acme's headers and hooks apply to every request. */
  readonly http: KyInstance;

  constructor(options: AcmeContentOptions) {
    const write = options.log ?? ((record) => console.log(JSON.stringify(record)));
    // The SDK calls logger[level](message, fields): forward both as one structured record.
    const logger: Logger = {
      error: (msg, fields) => write({ level: 'error', msg, ...fields }),
      warn: (msg, fields) => write({ level: 'warn', msg, ...fields }),
      info: (msg, fields) => write({ level: 'info', msg, ...fields }),
      debug: (msg, fields) => write({ level: 'debug', msg, ...fields }),
    };
    this.http = ky.create({
      headers: { 'x-acme-tenant': options.tenant },
      hooks: {
        afterResponse: [
          ({ request, response, retryCount }) =>
            console.log(
              `[acme] ${request.method} ${redactUrl(request.url)} → ${response.status} (try ${retryCount + 1})`,
            ),
        ],
      },
    });
    const appInfo = { name: 'acme-content', version: '1.2.3' };
    const common = { ky: this.http, logger, logLevel: 'info' as const, appInfo };
    this.management = new ManagementClient({
      baseUrl: options.baseUrl,
      apiKey: options.managementKey,
      ...common,
    });
    this.catalog = new CatalogClient({ siteUrl: options.siteUrl, apiKey: options.catalogKey, ...common });
    this.quick = this.management.withOptions({ timeout: 5_000, maxRetries: 0 });
  }

  /** Checks both keys with one cheap request each: a wrong key fails here, not in the middle of a batch. */
  async start(): Promise<void> {
    await Promise.all([this.management.verifyCredentials(), this.catalog.verifyCredentials()]);
  }

  /**
   * Creates a pixel at most once. When the connection broke after the request left (the pixel may exist), it
   * looks for it by name before creating again.
   */
  async ensurePixel(params: PixelCreateParams): Promise<Pixel> {
    try {
      return await this.management.pixels.create(params);
    } catch (error) {
      if (!(error instanceof APIConnectionError) || !error.mayHaveSucceeded) throw this.translate(error);
      for await (const pixel of this.management.pixels.list({ search: params.name, per_page: 100 }))
        if (pixel.name === params.name) return pixel;
      return this.management.pixels.create(params).catch((again: unknown) => {
        throw this.translate(again);
      });
    }
  }

  /** Whether a buyer's purchase code is valid: `false` for an unknown code, any other failure thrown. */
  async isLicensed(purchaseCode: string): Promise<boolean> {
    try {
      await this.catalog.purchases.validate(purchaseCode);
      return true;
    } catch (error) {
      if (error instanceof InvalidPurchaseCodeError) return false;
      throw this.translate(error);
    }
  }

  /** An SDK error as an AcmeError that says whether to try later and which request to quote to support. */
  translate(error: unknown): unknown {
    if (!isContentPlatformError(error)) return error;
    const retryable =
      error instanceof APIConnectionError ||
      (error instanceof APIError && (error.status === 429 || error.status >= 500));
    const where = `after ${error.attempts} attempt(s)${error.requestId ? `, request ${error.requestId}` : ''}`;
    return new AcmeError(`content platform: ${error.message} (${where})`, retryable, error.requestId, {
      cause: error,
    });
  }
}

const server = await referenceServer();
try {
  const records: LogFields[] = [];
  const acme = new AcmeContent({
    baseUrl: server.url,
    managementKey: server.managementKey,
    siteUrl: server.url,
    catalogKey: server.catalogKey,
    tenant: 'acme-eu',
    log: (record) => records.push(record),
  });
  await acme.start();
  console.log('credentials: ok');
  await acme.quick.pixels.list({ per_page: 10 });

  // The first create is cut mid-flight: the wrapper checks by name, then creates it once.
  server.reference.faults.script(['reset']);
  const pixel = await acme.ensurePixel({ name: 'Acme launch', type: 'facebook', value: '123' });
  console.log(`pixel: ${pixel.name} (#${pixel.id})`);
  let copies = 0;
  for await (const found of acme.management.pixels.list({ search: 'Acme launch' }))
    if (found.name === pixel.name) copies += 1;
  console.log(`copies of it: ${copies}`);

  console.log(`licensed: ${await acme.isLicensed(server.purchaseCode)}`);
  console.log(`licensed (unknown code): ${await acme.isLicensed('00000000-0000-0000-0000-000000000000')}`);

  // A 503 on every attempt: the wrapper's error carries the SDK's attempts and the server's request id.
  const busy = { status: 503, headers: { 'retry-after': '0', 'x-request-id': 'req-acme-1' } };
  server.reference.faults.script([busy, busy, busy]);
  const failed = await acme.management.pixels.get(pixel.id).catch((error: unknown) => acme.translate(error));
  if (failed instanceof AcmeError)
    console.log(`${failed.name} retryable=${failed.retryable}: ${failed.message}`);

  const retryLine = records.find((record) => record.retryInMs !== undefined);
  console.log(
    `log fields: ${Object.keys(records[0] ?? {}).join(', ')}; a retry line: ${retryLine ? 'yes' : 'no'}`,
  );
} finally {
  await server.close();
}
