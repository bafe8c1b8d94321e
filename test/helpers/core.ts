import { HttpClient } from '../../src/core/transport/http.js';
import type { ApiConfig } from '../../src/core/transport/index.js';
import { type ClientOptions, resolveOptions } from '../../src/core/transport/options.js';

/** A key distinctive enough that finding it anywhere in a text is certainly a leak. */
export const SECRET = 'sk_live_SECRET_KEY_0123456789';

export const MANAGEMENT_KIND = {
  client: 'ManagementClient',
  urlOption: 'baseUrl',
  urlEnv: 'CONTENT_PLATFORM_BASE_URL',
  keyEnv: 'CONTENT_PLATFORM_MANAGEMENT_API_KEY',
  apiPath: '/api/v1',
} as const;

export const CATALOG_KIND = {
  client: 'CatalogClient',
  urlOption: 'siteUrl',
  urlEnv: 'CONTENT_PLATFORM_SITE_URL',
  keyEnv: 'CONTENT_PLATFORM_CATALOG_API_KEY',
  apiPath: '/api',
} as const;

const noEnvelope = () => undefined;

/** No generated parsers: the core tests' schemas go through zod's interpreter. */
export const noParsers = () => Promise.resolve(new Map());

/** An HttpClient shaped like the Management API's, for core tests that know no endpoint. */
export function bearerClient(
  options: ClientOptions & { baseUrl?: string } = {},
  api: Partial<ApiConfig> = {},
) {
  return new HttpClient(
    resolveOptions(
      { apiKey: SECRET, baseUrl: 'https://links.example.com', maxRetries: 0, logLevel: 'off', ...options },
      MANAGEMENT_KIND,
    ),
    {
      name: 'management',
      credentials: { kind: 'bearer' },
      body: 'form',
      retryMethods: ['get', 'put', 'patch', 'delete'],
      readError: noEnvelope,
      parsers: noParsers,
      ...api,
    },
  );
}

/** An HttpClient shaped like the Catalog API's: key as a parameter, JSON bodies. */
export function paramClient(options: ClientOptions & { siteUrl?: string } = {}) {
  return new HttpClient(
    resolveOptions(
      { apiKey: SECRET, siteUrl: 'https://market.example.com', maxRetries: 0, logLevel: 'off', ...options },
      CATALOG_KIND,
    ),
    {
      name: 'catalog',
      credentials: { kind: 'param', name: 'api_key' },
      body: 'json',
      retryMethods: ['get', 'post'],
      readError: noEnvelope,
      parsers: noParsers,
    },
  );
}
