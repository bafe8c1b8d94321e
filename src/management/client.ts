import type { RateLimitSnapshot } from '../core/throttle/index.js';
import {
  type ApiConfig,
  type ClientOptions,
  derivedFrom,
  HttpClient,
  lazyParsers,
  mergeOptions,
  parentOf,
  type RequestOptions,
  resolveOptions,
} from '../core/transport/index.js';
import { Domains } from './domains.js';
import { readManagementError } from './errors.js';
import { Pixels } from './pixels.js';

/** Options of `ManagementClient`: the shared ones plus the site's base URL. */
export interface ManagementClientOptions extends ClientOptions {
  /** The site root, e.g. `https://links.example.com` (the SDK appends `/api/v1`). Defaults to `CONTENT_PLATFORM_BASE_URL`. */
  baseUrl?: string | undefined;
}

const MANAGEMENT_API: ApiConfig = {
  name: 'management',
  credentials: { kind: 'bearer' },
  body: 'form',
  // A POST creates a record: retrying it after a lost answer could create it twice.
  retryMethods: ['get', 'put', 'patch', 'delete'],
  readError: readManagementError,
  parsers: lazyParsers(() => import('./parsers.generated.js')),
};

/**
 * Client of the Management API (`{baseUrl}/api/v1`): tracking pixels and custom domains, with a Bearer key.
 * @throws {InvalidParamsError} at construction, when the key or URL is missing or malformed, or the URL names a
 * port fetch refuses to call (such as 6000).
 *
 * @example
 * const mgmt = new ManagementClient({ baseUrl: 'https://links.example.com', apiKey: process.env.KEY });
 * const page = await mgmt.pixels.list({ type: 'facebook', sort_by: 'name', sort: 'asc', per_page: 25 });
 * for await (const domain of mgmt.domains.list({ per_page: 100 })) console.log(domain.name);
 */
export class ManagementClient {
  /** Tracking pixels: list, get, create, update, delete. */
  readonly pixels: Pixels;
  /** Custom domains: list, get, create, update, delete. */
  readonly domains: Domains;
  // As given (env fallbacks unresolved), for withOptions; private, so inspect and JSON never show the key.
  readonly #given: ManagementClientOptions;
  readonly #http: HttpClient;

  /** Checks the options at once: a missing key or URL throws here, not at the first call. */
  constructor(options: ManagementClientOptions = {}) {
    this.#given = { ...options };
    const http = new HttpClient(
      resolveOptions(options, {
        client: 'ManagementClient',
        urlOption: 'baseUrl',
        urlEnv: 'CONTENT_PLATFORM_BASE_URL',
        keyEnv: 'CONTENT_PLATFORM_MANAGEMENT_API_KEY',
        apiPath: '/api/v1',
      }),
      MANAGEMENT_API,
      parentOf(options),
    );
    this.#http = http;
    this.pixels = new Pixels(http);
    this.domains = new Domains(http);
  }

  /**
   * What the client's throttle knows now, for metrics: calls queued, requests in flight, the server's
   * `X-RateLimit-Limit` / `X-RateLimit-Remaining`, and when a 429's pause ends. A copy: read it again for news.
   * @example const { queued, remaining } = mgmt.rateLimit;
   */
  get rateLimit(): RateLimitSnapshot {
    return this.#http.rateLimit;
  }

  /**
   * A new client with `overrides` merged over this one's options (timeouts, retries, headers, hooks, logger,
   * appInfo…); this client is unchanged. Headers merge per name; hooks run after this client's.
   * A subclass's `withOptions` builds the subclass, with the merged options as its constructor's one argument.
   * @throws {InvalidParamsError} when the merged options are invalid.
   * @example const patient = mgmt.withOptions({ timeout: 120_000, maxRetries: 5 });
   */
  withOptions(overrides: ManagementClientOptions): this {
    // Through `this.constructor`: a subclass gets one of its own, and the class never names itself (a bundle would
    // rename its inner binding, and `ManagementClient.name` with it).
    const Client = this.constructor as new (options: ManagementClientOptions) => this;
    return new Client(
      derivedFrom(mergeOptions(this.#given, overrides, 'ManagementClient.withOptions'), this.#http),
    );
  }

  /**
   * Checks the key with one cheap request (the first page of 10 pixels); resolves when the server accepts it.
   * Call it at start-up, before a batch: a bad key then fails once, clearly, instead of on every item.
   * @throws {AuthenticationError} when the server refuses the key (401, or a redirect to its login page); the
   * message names where the key came from (`apiKey` or `CONTENT_PLATFORM_MANAGEMENT_API_KEY`).
   * @throws {PermissionDeniedError} when the key is valid but its plan has no API access (403).
   * @throws {NotFoundError} when nothing answers at the URL: `baseUrl` is not the site root (the SDK appends
   * `/api/v1`; a URL that repeats it, such as `https://x/api`, says so in the message).
   */
  async verifyCredentials(options?: RequestOptions): Promise<void> {
    await this.pixels.list({ per_page: 10 }, options);
  }
}
