// Issue #37, item 4: an options object with a key the SDK does not know is refused before anything is sent, with an
// InvalidParamsError naming the nearest known name when one is close (a typo, another case, the other client's URL
// option), else listing the known names. Without it, `new CatalogClient({ baseUrl })` silently used
// CONTENT_PLATFORM_SITE_URL. The `@ts-expect-error` lines at the end are checked by `tsc --noEmit` (vitest does not
// type-check): an unknown key in a literal is a compile error on every surface too.
import ky from 'ky';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { REQUEST_OPTIONS as BULK_REQUEST_OPTIONS } from '../../src/bulk/pool.js';
import { nearest } from '../../src/core/errors/index.js';
import { CLIENT_OPTIONS, REQUEST_OPTIONS } from '../../src/core/transport/options.js';
import {
  type BulkOptions,
  CatalogClient,
  type CatalogClientOptions,
  type ClientOptions,
  InvalidParamsError,
  ManagementClient,
  type ManagementClientOptions,
  type RequestOptions,
  type SyncOptions,
  type ValidateOptions,
} from '../../src/index.js';
import { createReferenceServer, type ReferenceServer, SEED_PURCHASE_CODES } from '../../src/testing/index.js';
import { failure, leakSurface } from '../helpers/failure.js';

const ORIGIN = 'https://links.example.com';
const MANAGEMENT_OPTIONS =
  'baseUrl, apiKey, timeout, totalTimeout, maxRetries, maxRetryAfter, maxResponseBytes, headers, appInfo, logger, ' +
  'logLevel, rateLimit, hooks, ky, fetch, telemetry, allowInsecureHttp, dangerouslyAllowBrowser';
const CATALOG_OPTIONS = `${MANAGEMENT_OPTIONS.replace('baseUrl', 'siteUrl')}, cache`;
const CALL_OPTIONS =
  'signal, timeout, totalTimeout, maxRetries, maxRetryAfter, maxResponseBytes, headers, hooks, rateLimit';

afterEach(() => {
  vi.unstubAllEnvs();
});

function setup() {
  const server = createReferenceServer();
  const common = { fetch: server.fetch, maxRetries: 0, logLevel: 'off' as const };
  const mgmt = new ManagementClient({ baseUrl: ORIGIN, apiKey: server.keys.management[0], ...common });
  const catalog = new CatalogClient({ siteUrl: ORIGIN, apiKey: server.keys.catalog[0], ...common });
  return { server, common, mgmt, catalog };
}

/** Expects `call` to throw or reject with exactly this InvalidParamsError, and `server` to have had no request. */
async function refused(
  call: () => unknown,
  message: string,
  param: string | undefined,
  server?: ReferenceServer,
) {
  const error = await failure(call);
  expect(error).toBeInstanceOf(InvalidParamsError);
  expect(error.message).toBe(message);
  expect((error as InvalidParamsError).param).toBe(param);
  if (server) expect(server.requests).toEqual([]);
  return error;
}

describe('nearest', () => {
  it.each([
    ['timout', ['timeout', 'totalTimeout'], 'timeout'],
    ['TIMEOUT', ['timeout'], 'timeout'],
    ['tiemout', ['timeout'], 'timeout'],
    ['cahce', ['signal', 'cache'], 'cache'],
    ['perPage', ['per_page', 'page'], 'per_page'],
    ['api_key', ['apiKey'], 'apiKey'],
    ['baseURL', ['baseUrl'], 'baseUrl'],
    ['baseUrl', ['siteUrl'], 'siteUrl'],
    ['site_url', ['baseUrl'], 'baseUrl'],
    ['maxRetry', ['maxRetries', 'maxRetryAfter'], 'maxRetries'],
    ['kyy', ['ky', 'fetch'], 'ky'],
    ['beforeRequests', ['beforeRequest', 'beforeRetry'], 'beforeRequest'],
  ])('%s → %s', (name, known, expected) => {
    expect(nearest(name, known)).toBe(expected);
  });

  it.each([
    ['retry', [...REQUEST_OPTIONS]],
    ['url', ['baseUrl']],
    ['name', ['page']],
    ['baseUrl', ['timeout']],
    ['x', ['ky']],
  ])('%s: none close enough', (name, known) => {
    expect(nearest(name, known)).toBeUndefined();
  });
});

describe('client options, at construction', () => {
  it('CatalogClient({ baseUrl }) says siteUrl, instead of silently using CONTENT_PLATFORM_SITE_URL', async () => {
    const { server } = setup();
    vi.stubEnv('CONTENT_PLATFORM_SITE_URL', 'https://market.example.com');
    vi.stubEnv('CONTENT_PLATFORM_CATALOG_API_KEY', server.keys.catalog[0]);
    await refused(
      () => new CatalogClient({ baseUrl: 'https://other.example.com', fetch: server.fetch } as never),
      'CatalogClient: unknown option "baseUrl"; did you mean siteUrl?',
      'baseUrl',
      server,
    );
    // Even left undefined: the key is a mistake whatever it holds.
    await refused(
      () => new CatalogClient({ baseUrl: undefined } as never),
      'CatalogClient: unknown option "baseUrl"; did you mean siteUrl?',
      'baseUrl',
    );
  });

  it('ManagementClient({ siteUrl }) says baseUrl; a case or a snake_case spelling names the option', async () => {
    vi.stubEnv('CONTENT_PLATFORM_BASE_URL', ORIGIN);
    vi.stubEnv('CONTENT_PLATFORM_MANAGEMENT_API_KEY', 'mk_env');
    for (const [given, near] of [
      ['siteUrl', 'baseUrl'],
      ['baseURL', 'baseUrl'],
      ['base_url', 'baseUrl'],
      ['timout', 'timeout'],
      ['maxRetry', 'maxRetries'],
      ['loglevel', 'logLevel'],
      ['header', 'headers'],
    ] as const) {
      await refused(
        () => new ManagementClient({ [given]: 'x' } as never),
        `ManagementClient: unknown option "${given}"; did you mean ${near}?`,
        given,
      );
    }
  });

  it('with nothing close, lists the options (each client its own: siteUrl and cache for the Catalog)', async () => {
    await refused(
      () => new ManagementClient({ baseUrl: ORIGIN, apiKey: 'k', retry: 3 } as never),
      `ManagementClient: unknown option "retry"; the options are ${MANAGEMENT_OPTIONS}.`,
      'retry',
    );
    await refused(
      () => new ManagementClient({ baseUrl: ORIGIN, apiKey: 'k', cache: { ttl: 1 } } as never),
      `ManagementClient: unknown option "cache"; the options are ${MANAGEMENT_OPTIONS}.`,
      'cache',
    );
    await refused(
      () => new CatalogClient({ siteUrl: ORIGIN, apiKey: 'k', prefixUrl: ORIGIN } as never),
      `CatalogClient: unknown option "prefixUrl"; the options are ${CATALOG_OPTIONS}.`,
      'prefixUrl',
    );
  });

  it('is checked first: before a missing key or URL, or a bad value', async () => {
    await refused(
      () => new CatalogClient({ baseUrl: ORIGIN, timeout: -1 } as never),
      'CatalogClient: unknown option "baseUrl"; did you mean siteUrl?',
      'baseUrl',
    );
  });

  it('checks the nested objects too: appInfo, cache and rateLimit name the nearest key', async () => {
    const { server, common } = setup();
    const management = { baseUrl: ORIGIN, apiKey: server.keys.management[0], ...common };
    const catalog = { siteUrl: ORIGIN, apiKey: server.keys.catalog[0], ...common };
    await refused(
      () => new ManagementClient({ ...management, appInfo: { name: 'acme', versoin: '1.0' } as never }),
      'appInfo: unknown option "versoin"; did you mean version?',
      'versoin',
    );
    await refused(
      () => new CatalogClient({ ...catalog, cache: { ttl: 1_000, staleIfErorr: 60_000 } as never }),
      'cache: unknown option "staleIfErorr"; did you mean staleIfError?',
      'staleIfErorr',
    );
    await refused(
      () => new ManagementClient({ ...management, rateLimit: { maxConcurent: 1 } as never }),
      'rateLimit: unknown option "maxConcurent"; did you mean maxConcurrent?',
      'maxConcurent',
    );
    // Every key they document is taken.
    const mgmt = new ManagementClient({
      ...management,
      appInfo: { name: 'acme', version: '1.0', url: 'https://acme.example' },
    });
    await mgmt.pixels.get(1);
    expect(server.requests[0]?.headers['user-agent']).toBe(
      'content-platform-sdk/0.2.0 acme/1.0 (+https://acme.example)',
    );
    const cached = new CatalogClient({
      ...catalog,
      cache: { ttl: 1_000, staleIfError: 60_000, maxEntries: 10, store: undefined },
    });
    await cached.purchases.validate(SEED_PURCHASE_CODES.supported);
    expect(cached.cache).toMatchObject({ misses: 1, entries: 1 });
  });

  it('refuses options that are not an object, rather than reading a string as { 0: "h", … } or a number as none', async () => {
    await refused(
      () => new ManagementClient(`${ORIGIN}/api/v1` as never),
      'ManagementClient: the options must be an object; got a string.',
      undefined,
    );
    await refused(
      () => new CatalogClient(42 as never),
      'CatalogClient: the options must be an object; got a number.',
      undefined,
    );
    // null and undefined are no options, as before: the environment's URL and key.
    vi.stubEnv('CONTENT_PLATFORM_BASE_URL', ORIGIN);
    vi.stubEnv('CONTENT_PLATFORM_MANAGEMENT_API_KEY', 'mk_from_env');
    expect(new ManagementClient(null as never)).toBeInstanceOf(ManagementClient);
    expect(new ManagementClient()).toBeInstanceOf(ManagementClient);
    vi.stubEnv('CONTENT_PLATFORM_SITE_URL', ORIGIN);
    vi.stubEnv('CONTENT_PLATFORM_CATALOG_API_KEY', 'ck_from_env');
    expect((new CatalogClient(null as never) as CatalogClient).cache).toBeUndefined();
    // An array is no options object: `{ ...[] }` would have read it as none.
    await refused(
      () => new ManagementClient([] as never),
      'ManagementClient: the options must be an object; got an array.',
      undefined,
    );
  });

  it('never shows a value, nor a name that holds the key or is not an identifier', async () => {
    const key = 'sk_live_UNKNOWN_OPTION_0123456789';
    const cases: [object, string][] = [
      [{ apikey: key }, 'CatalogClient: unknown option "apikey"; did you mean apiKey?'],
      [
        { apiKey: key, token: key },
        `CatalogClient: unknown option "token"; the options are ${CATALOG_OPTIONS}.`,
      ],
      [
        { apiKey: key, [key]: true },
        `CatalogClient: unknown option (name not shown); the options are ${CATALOG_OPTIONS}.`,
      ],
      [
        { apiKey: key, [`Bearer ${key}`]: true },
        `CatalogClient: unknown option (name not shown); the options are ${CATALOG_OPTIONS}.`,
      ],
    ];
    for (const [options, message] of cases) {
      const error = await failure(() => new CatalogClient({ siteUrl: ORIGIN, ...options } as never));
      expect(error.message).toBe(message);
      expect(leakSurface(error)).not.toContain(key);
    }
    // The key from the environment is not shown either.
    vi.stubEnv('CONTENT_PLATFORM_CATALOG_API_KEY', 'ck_env');
    const error = await failure(() => new CatalogClient({ siteUrl: ORIGIN, ck_env: 1 } as never));
    expect(error.message).toContain('unknown option (name not shown)');
    expect((error as InvalidParamsError).param).toBeUndefined();
  });

  it('shows a long unknown name only when it is near a known one: elsewhere it may be a key (from an outside trial)', async () => {
    const c = setup();
    const key = c.server.keys.management[0] as string;
    const code = SEED_PURCHASE_CODES.supported;
    const calls: [() => unknown, string][] = [
      [
        () => c.mgmt.pixels.list({ [key]: 1 } as never),
        'pixels.list: unknown parameter (name not shown); the parameters are',
      ],
      [() => c.mgmt.pixels.get(1, { [key]: 1 } as never), 'request options: unknown option (name not shown)'],
      [
        () => c.mgmt.pixels.list().toArray({ limit: 1, [code]: 1 } as never),
        'toArray: unknown option (name not shown)',
      ],
      [
        () => c.mgmt.pixels.createMany([], { concurrency: key } as never),
        `pixels.createMany: concurrency must be a whole number from 1 to 64; got "***${key.slice(-4)}".`,
      ],
      [
        () => c.catalog.purchases.validateMany([], { attempts: code } as never),
        `purchases.validateMany: attempts must be a whole number from 1 to 20; got "***${code.slice(-4)}".`,
      ],
      [
        () => c.mgmt.pixels.createMany([], { concurrency: () => key } as never),
        'pixels.createMany: concurrency must be a whole number from 1 to 64; got a function.',
      ],
    ];
    for (const [call, message] of calls) {
      const error = await failure(call);
      expect(error).toBeInstanceOf(InvalidParamsError);
      expect(error.message.startsWith(message), error.message).toBe(true);
      expect(leakSurface(error)).not.toContain(key);
      expect(leakSurface(error)).not.toContain(code);
      expect((error as InvalidParamsError).param ?? '').not.toContain(key);
    }
    // A long typo of a known name is still named, with the suggestion.
    await refused(
      () => c.mgmt.pixels.get(1, { maxResponseByte: 5 } as never),
      'request options: unknown option "maxResponseByte"; did you mean maxResponseBytes?',
      'maxResponseByte',
    );
  });

  it('accepts every documented option, and a ky instance carries ky options of its own', async () => {
    const { server } = setup();
    const seen: string[] = [];
    const instance = ky.create({
      headers: { 'x-from-ky': 'instance' },
      hooks: { beforeRequest: [() => void seen.push('instance hook')] },
    });
    const all: Required<ManagementClientOptions> = {
      baseUrl: ORIGIN,
      apiKey: server.keys.management[0],
      timeout: 5_000,
      totalTimeout: 10_000,
      maxRetries: 1,
      maxRetryAfter: 1_000,
      maxResponseBytes: 1_000_000,
      headers: { 'x-from-client': 'client' },
      appInfo: { name: 'acme', version: '1.0.0' },
      logger: { error() {}, warn() {}, info() {}, debug() {} },
      logLevel: 'off',
      rateLimit: { maxConcurrent: 2 },
      hooks: { beforeRequest: [() => void seen.push('client hook')] },
      ky: instance,
      fetch: server.fetch,
      telemetry: { operation: () => undefined },
      allowInsecureHttp: false,
      dangerouslyAllowBrowser: false,
    };
    expect(Object.keys(all).sort()).toEqual(['baseUrl', ...CLIENT_OPTIONS].sort());
    const mgmt = new ManagementClient(all);
    await mgmt.pixels.get(1);
    expect(seen).toEqual(['instance hook', 'client hook']);
    expect(server.requests[0]?.headers).toMatchObject({ 'x-from-ky': 'instance', 'x-from-client': 'client' });
    const { baseUrl: _, ...shared } = all;
    const catalog = new CatalogClient({
      ...shared,
      siteUrl: ORIGIN,
      apiKey: server.keys.catalog[0],
      cache: { ttl: 1_000 },
    } satisfies Required<CatalogClientOptions>);
    expect((await catalog.items.list()).length).toBeGreaterThan(0);
  });
});

describe('withOptions', () => {
  it('refuses an unknown override like the constructor; the parent is unchanged', async () => {
    const { server, mgmt, catalog } = setup();
    await refused(
      () => catalog.withOptions({ baseUrl: 'https://other.example.com' } as never),
      'CatalogClient: unknown option "baseUrl"; did you mean siteUrl?',
      'baseUrl',
    );
    await refused(
      () => mgmt.withOptions({ timout: 1_000 } as never),
      'ManagementClient: unknown option "timout"; did you mean timeout?',
      'timout',
    );
    await refused(
      () => mgmt.withOptions({ onRetry: () => {} } as never),
      `ManagementClient: unknown option "onRetry"; the options are ${MANAGEMENT_OPTIONS}.`,
      'onRetry',
    );
    expect(server.requests).toEqual([]);
    await mgmt.pixels.get(1);
    expect(
      (await catalog.withOptions({ cache: { ttl: 1_000 }, timeout: 5_000 }).items.list()).length,
    ).toBeGreaterThan(0);
  });

  it('takes null or nothing as no overrides, and refuses what is not an object', async () => {
    const { server, mgmt, catalog } = setup();
    for (const overrides of [null, undefined]) {
      const child = mgmt.withOptions(overrides as never);
      await child.pixels.get(1);
      expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer ***');
      expect((await catalog.withOptions(overrides as never).items.get(101)).id).toBe(101);
    }
    await refused(
      () => mgmt.withOptions('timeout=5000' as never),
      'ManagementClient.withOptions: the options must be an object; got a string.',
      undefined,
    );
    await refused(
      () => catalog.withOptions([] as never),
      'CatalogClient.withOptions: the options must be an object; got an array.',
      undefined,
    );
  });
});

describe('request options, per call', () => {
  /** Every call that takes request options, with `options`. */
  function calls(c: ReturnType<typeof setup>, options: unknown) {
    const o = options as RequestOptions;
    return [
      () => c.mgmt.pixels.list({}, o),
      () => c.mgmt.pixels.get(1, o),
      () => c.mgmt.pixels.create({ name: 'Options 1', type: 'facebook', value: '1' }, o),
      () => c.mgmt.pixels.update(1, { name: 'Options 2' }, o),
      () => c.mgmt.pixels.delete(1, o),
      () => c.mgmt.domains.list({}, o),
      () => c.mgmt.domains.get(1, o),
      () => c.mgmt.domains.create({ name: 'options.example.com' }, o),
      () => c.mgmt.domains.update(1, { index_page: null }, o),
      () => c.mgmt.domains.delete(1, o),
      () => c.mgmt.verifyCredentials(o),
      () => c.catalog.account.details(o),
      () => c.catalog.items.list(o),
      () => c.catalog.items.get(101, o),
      () => c.catalog.verifyCredentials(o),
    ];
  }

  it('a near miss names the option, before any request, on every call', async () => {
    const c = setup();
    for (const call of calls(c, { timout: 5_000 }))
      await refused(
        call,
        'request options: unknown option "timout"; did you mean timeout?',
        'timout',
        c.server,
      );
  });

  it("ky's own options are not passed through per call: refused, listing the options", async () => {
    const c = setup();
    for (const name of ['retry', 'json', 'searchParams', 'onDownloadProgress', 'throwHttpErrors']) {
      for (const call of calls(c, { [name]: undefined }))
        await refused(
          call,
          `request options: unknown option "${name}"; the options are ${CALL_OPTIONS}.`,
          name,
          c.server,
        );
    }
  });

  it('refuses options that are not an object', async () => {
    const c = setup();
    for (const options of [5_000, []])
      for (const call of calls(c, options))
        await refused(
          call,
          `request options: the options must be an object; got ${options === 5_000 ? 'a number' : 'an array'}.`,
          undefined,
          c.server,
        );
  });

  it('takes null as no options, as the clients and purchases.validate do (not a TypeError)', async () => {
    const c = setup();
    for (const call of calls(c, null)) await call();
    // Every call went out once, as it does without options: the same request, headers included.
    const plain = setup();
    for (const call of calls(plain, undefined)) await call();
    const seen = (r: ReferenceServer) =>
      r.requests.map(({ method, url, headers }) => ({ method, url, headers }));
    expect(seen(c.server)).toEqual(seen(plain.server));
    expect(c.server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${ORIGIN}/api/v1/pixels`,
      `GET ${ORIGIN}/api/v1/pixels/1`,
      `POST ${ORIGIN}/api/v1/pixels`,
      `PUT ${ORIGIN}/api/v1/pixels/1`,
      `DELETE ${ORIGIN}/api/v1/pixels/1`,
      `GET ${ORIGIN}/api/v1/domains`,
      `GET ${ORIGIN}/api/v1/domains/1`,
      `POST ${ORIGIN}/api/v1/domains`,
      `PUT ${ORIGIN}/api/v1/domains/1`,
      `DELETE ${ORIGIN}/api/v1/domains/1`,
      `GET ${ORIGIN}/api/v1/pixels?per_page=10`,
      `GET ${ORIGIN}/api/account/details?api_key=***`,
      `GET ${ORIGIN}/api/items/all?api_key=***`,
      `GET ${ORIGIN}/api/items/item?item_id=101&api_key=***`,
      `GET ${ORIGIN}/api/account/details?api_key=***`,
    ]);
    const code = c.server.fixtures.purchaseCodes.supported;
    expect((await c.catalog.purchases.validate(code, null as never)).purchase_code).toBe(code);
  });

  it('purchases.validate takes cache too, with or without a client cache', async () => {
    const c = setup();
    const cached = new CatalogClient({
      siteUrl: ORIGIN,
      apiKey: c.server.keys.catalog[0],
      ...c.common,
      cache: { ttl: 60_000 },
    });
    const code = c.server.fixtures.purchaseCodes.supported;
    for (const client of [c.catalog, cached]) {
      await refused(
        () => client.purchases.validate(code, { cahce: false } as never),
        'purchases.validate: unknown option "cahce"; did you mean cache?',
        'cahce',
        c.server,
      );
      await refused(
        () => client.purchases.validate(code, { timout: 1 } as never),
        'purchases.validate: unknown option "timout"; did you mean timeout?',
        'timout',
        c.server,
      );
    }
    for (const client of [c.catalog, cached])
      expect((await client.purchases.validate(code, { cache: false, timeout: 5_000 })).purchase_code).toBe(
        code,
      );
  });

  it('every option ky receives still reaches it: signal, timeout, totalTimeout, headers, hooks', async () => {
    const c = setup();
    const seen: string[] = [];
    const all: Required<RequestOptions> = {
      signal: new AbortController().signal,
      timeout: 5_000,
      totalTimeout: 10_000,
      maxRetries: 1,
      maxRetryAfter: 1_000,
      maxResponseBytes: 1_000_000,
      headers: { 'x-per-call': 'yes' },
      hooks: { beforeRequest: [({ request }) => void seen.push(request.method)] },
      rateLimit: false,
    };
    expect(Object.keys(all).sort()).toEqual([...REQUEST_OPTIONS].sort());
    for (const call of calls(c, all)) await call();
    expect(seen).toHaveLength(15);
    expect(c.server.requests.every((request) => request.headers['x-per-call'] === 'yes')).toBe(true);
    // An aborted signal still aborts: it is read, not refused.
    const aborted = await failure(() => c.mgmt.pixels.get(1, { signal: AbortSignal.abort() }));
    expect(aborted.name).toBe('APIUserAbortError');
  });
});

describe('list walks and bulk jobs', () => {
  it('toArray and pages name the option', async () => {
    const c = setup();
    await refused(
      () => c.mgmt.pixels.list().toArray({ limt: 5 } as never),
      'toArray: unknown option "limt"; did you mean limit?',
      'limt',
    );
    await refused(
      () => c.mgmt.pixels.list().toArray({ limit: 5, max: 10 } as never),
      'toArray: unknown option "max"; the options are limit, onProgress.',
      'max',
    );
    await refused(
      () =>
        c.mgmt.pixels
          .list()
          .pages({ onprogress: () => {} } as never)
          .next(),
      'pages: unknown option "onprogress"; did you mean onProgress?',
      'onprogress',
    );
    expect(await c.mgmt.pixels.list().toArray({ limit: 2, onProgress: () => {} })).toHaveLength(2);
  });

  it('an onProgress that is not a function is refused before the walk goes past its first page', async () => {
    const c = setup();
    // The seed's 12 pixels are 2 pages of 10: a walk that went past its first page would ask for page 2.
    const walks = [c.mgmt.pixels.list({ per_page: 10 }), c.mgmt.pixels.list({ per_page: 10 })];
    const list = () => c.mgmt.pixels.list({ per_page: 10 });
    await refused(
      () => walks[0]?.toArray({ limit: 12, onProgress: 'x' as never }),
      'toArray: onProgress must be a function, got "x".',
      'onProgress',
    );
    await refused(
      () => walks[1]?.pages({ onProgress: 5 as never }).next(),
      'pages: onProgress must be a function, got 5.',
      'onProgress',
    );
    await refused(
      () => walks[0]?.toArray({ limit: 12, onProgress: {} as never }),
      'toArray: onProgress must be a function, got an object.',
      'onProgress',
    );
    // Each list sent its first page's request (a list starts at once), and no walk asked for page 2.
    for (const walk of walks) expect((await walk).meta.current_page).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(c.server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${ORIGIN}/api/v1/pixels?per_page=10`,
      `GET ${ORIGIN}/api/v1/pixels?per_page=10`,
    ]);
    // `null` is no callback, as `null` options are none: the walk goes on to the end.
    expect(await list().toArray({ limit: 12, onProgress: null as never })).toHaveLength(12);
    expect(c.server.requests.at(-1)?.url).toBe(`${ORIGIN}/api/v1/pixels?per_page=10&page=2`);
  });

  it("a bulk job's request options are checked up front, not row by row", async () => {
    const c = setup();
    const rows = [{ name: 'Bulk 1', type: 'facebook', value: '1' }] as const;
    await refused(
      () => c.mgmt.pixels.createMany(rows, { request: { timout: 1 } } as never),
      'pixels.createMany: request: unknown option "timout"; did you mean timeout?',
      'timout',
      c.server,
    );
    await refused(
      () => c.catalog.purchases.validateMany(['x'], { request: { retry: 1 } } as never),
      `purchases.validateMany: request: unknown option "retry"; the options are ${CALL_OPTIONS}.`,
      'retry',
      c.server,
    );
    await refused(
      () => c.mgmt.domains.sync([], { prun: true } as never),
      'domains.sync: unknown option "prun"; did you mean prune?',
      'prun',
      c.server,
    );
    await refused(
      () => c.mgmt.pixels.sync([], { request: { header: {} } } as never),
      'pixels.sync: request: unknown option "header"; did you mean headers?',
      'header',
      c.server,
    );
    const request = { timeout: 5_000, headers: { 'x-job': '1' } };
    expect((await c.mgmt.pixels.createMany(rows, { concurrency: 1, attempts: 1, request })).created).toBe(1);
    const plan = await c.mgmt.pixels.sync([...rows], {
      prune: false,
      request,
      signal: new AbortController().signal,
    });
    expect(plan.creates).toEqual([]);
  });

  it("a bad value in a bulk job's request rejects the job with nothing sent, instead of failing every row", async () => {
    const c = setup();
    const rows = Array.from({ length: 12 }, (_, n) => ({
      name: `Bulk ${n}`,
      type: 'facebook',
      value: `${n}`,
    }));
    const seen: number[] = [];
    const timeout = 'pixels.createMany: request: timeout must be a positive number of milliseconds; got "5".';
    await refused(
      () =>
        c.mgmt.pixels.createMany(rows as never, {
          request: { timeout: '5' } as never,
          onProgress: ({ done }) => seen.push(done),
        }),
      timeout,
      'timeout',
      c.server,
    );
    // The job never got as far as a row.
    expect(seen).toEqual([0]);
    const codes = Object.values(SEED_PURCHASE_CODES);
    await refused(
      () => c.catalog.purchases.validateMany(codes, { request: { maxRetries: -1 } }),
      'purchases.validateMany: request: maxRetries must be a whole number from 0 to 10; got -1.',
      'maxRetries',
      c.server,
    );
    await refused(
      () => c.mgmt.domains.sync([{ name: 'a.example.com' }], { request: { headers: { 'x-a': 'b\r\n' } } }),
      'domains.sync: request: headers: the value of "x-a" has a CR, LF or NUL, or a character beyond U+00FF, ' +
        'which no HTTP request can carry (not shown: it may be a secret).',
      'headers',
      c.server,
    );
    // A plan made with good options, applied with a bad one: nothing is created, updated or deleted.
    const plan = await c.mgmt.pixels.sync(rows.slice(0, 3) as never);
    const before = c.server.requests.length;
    await refused(
      () => plan.apply({ request: { totalTimeout: 0 } }),
      'pixels.sync: apply: request: totalTimeout must be a positive number of milliseconds; got 0.',
      'totalTimeout',
    );
    expect(c.server.requests.length).toBe(before);
    // A row's own bad field is still that row's failure alone.
    const report = await c.mgmt.pixels.createMany([rows[0], { ...rows[1], type: 'nope' }] as never, {
      attempts: 1,
    });
    expect(report.entries.map((entry) => entry.status)).toEqual(['created', 'failed']);
  });
});

describe('values the client would call, checked at construction', () => {
  it.each([
    [{ fetch: 'fetch' }, 'fetch needs to be a function; got a string.', 'fetch'],
    [{ fetch: {} }, 'fetch needs to be a function; got an object.', 'fetch'],
    [{ ky: {} }, 'ky needs to be a ky instance; got an object.', 'ky'],
    [{ ky: 'ky' }, 'ky needs to be a ky instance; got a string.', 'ky'],
    [{ logger: 'console' }, 'logger needs to be a Logger; got a string.', 'logger'],
    [{ logger: {} }, 'logger needs to be a Logger; got an object.', 'logger'],
    [{ baseUrl: 123 }, 'baseUrl must be a string; got a number.', 'baseUrl'],
    [{ apiKey: 123 }, 'apiKey must be a string; got a number.', 'apiKey'],
    [{ allowInsecureHttp: 'yes' }, 'allowInsecureHttp must be a boolean; got a string.', 'allowInsecureHttp'],
  ])('refuses %j, in the constructor and in withOptions', async (bad, message, param) => {
    // Before: a bad fetch failed the first call as a lost connection (APIConnectionError, mayHaveSucceeded: true,
    // nothing sent); a bad ky or URL threw a raw TypeError; a bad logger dropped every line without a word.
    const { server, common, mgmt } = setup();
    const apiKey = server.keys.management[0];
    await refused(
      () => new ManagementClient({ baseUrl: ORIGIN, apiKey, ...common, ...bad } as never),
      message,
      param,
      server,
    );
    await refused(() => mgmt.withOptions(bad as never), message, param, server);
  });

  it('takes what it calls when it has it: a ky instance, a fetch, a Logger', async () => {
    const { server, common } = setup();
    const lines: string[] = [];
    const note = (line: string) => void lines.push(line);
    const mgmt = new ManagementClient({
      baseUrl: ORIGIN,
      apiKey: server.keys.management[0],
      ...common,
      ky: ky.create({ headers: { 'x-team': 'growth' } }),
      fetch: (input, init) => server.fetch(new Request(input, init)),
      logger: { error: note, warn: note, info: note, debug: note },
      logLevel: 'info',
    });
    expect((await mgmt.pixels.get(1)).id).toBe(1);
    expect(server.requests.map((r) => [r.method, new URL(r.url).pathname, r.headers['x-team']])).toEqual([
      ['GET', '/api/v1/pixels/1', 'growth'],
    ]);
    expect(lines.length).toBeGreaterThan(0);
  });
});

describe('a key or a purchase code pasted where a value goes', () => {
  it('is never shown by the error: a string past 16 characters shows its last four', async () => {
    // Before: each message quoted the value whole ("logLevel must be one of …; got \"<the key>\"").
    const { server, common, mgmt, catalog } = setup();
    const key = server.keys.management[0] as string;
    const catalogKey = server.keys.catalog[0] as string;
    const code = SEED_PURCHASE_CODES.supported;
    const build = (options: object) => () =>
      new ManagementClient({ baseUrl: ORIGIN, apiKey: key, ...common, ...options } as never);
    const cases: [() => unknown, string, string][] = [
      [
        build({ logLevel: key }),
        key,
        `logLevel must be one of off, error, warn, info, debug; got "***${key.slice(-4)}".`,
      ],
      [
        build({ timeout: key }),
        key,
        `timeout must be a positive number of milliseconds; got "***${key.slice(-4)}".`,
      ],
      [
        build({ maxRetries: key }),
        key,
        `maxRetries must be a whole number from 0 to 10; got "***${key.slice(-4)}".`,
      ],
      [
        build({ rateLimit: { maxConcurrent: key } }),
        key,
        `rateLimit.maxConcurrent must be a whole number from 1 to 1000000, or Infinity (no cap); got "***${key.slice(-4)}".`,
      ],
      [
        () => mgmt.pixels.get(key),
        key,
        `id must be a positive whole number (such as 42 or '42'); got "***${key.slice(-4)}".`,
      ],
      [
        () => mgmt.pixels.get(1, { timeout: key as never }),
        key,
        `timeout must be a positive number of milliseconds; got "***${key.slice(-4)}".`,
      ],
      [() => mgmt.pixels.list({ per_page: key as never }), key, `pixels.list: per_page must be`],
      [
        () => mgmt.pixels.list().toArray({ limit: key as never }),
        key,
        `toArray: limit must be a positive integer, got "***${key.slice(-4)}".`,
      ],
      [
        () => catalog.items.get(code),
        code,
        `itemId must be a positive whole number (such as 42 or '42'); got "***${code.slice(-4)}".`,
      ],
      [() => catalog.items.get(catalogKey), catalogKey, `got "***${catalogKey.slice(-4)}".`],
    ];
    for (const [call, secret, message] of cases) {
      const error = await failure(call);
      expect(error).toBeInstanceOf(InvalidParamsError);
      expect(error.message).toContain(message);
      expect(leakSurface(error)).not.toContain(secret);
    }
    // Nothing was sent but the walk's first page (toArray checks its limit once the walk has begun).
    expect(server.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'GET /api/v1/pixels',
    ]);
    // A short value is still shown whole: it helps, and a secret is longer.
    expect((await failure(build({ timeout: '5000' }))).message).toBe(
      'timeout must be a positive number of milliseconds; got "5000".',
    );
  });
});

describe('types: an unknown key in a literal is a compile error', () => {
  it('the runtime lists are the types’ keys', () => {
    expectTypeOf<(typeof CLIENT_OPTIONS)[number]>().toEqualTypeOf<keyof ClientOptions>();
    expectTypeOf<(typeof REQUEST_OPTIONS)[number]>().toEqualTypeOf<keyof RequestOptions>();
    expectTypeOf<(typeof BULK_REQUEST_OPTIONS)[number]>().toEqualTypeOf<keyof RequestOptions>();
    expectTypeOf<keyof ManagementClientOptions>().toEqualTypeOf<keyof ClientOptions | 'baseUrl'>();
    expectTypeOf<keyof CatalogClientOptions>().toEqualTypeOf<keyof ClientOptions | 'siteUrl' | 'cache'>();
    expectTypeOf<keyof ValidateOptions>().toEqualTypeOf<keyof RequestOptions | 'cache'>();
    expectTypeOf<keyof BulkOptions>().toEqualTypeOf<
      'concurrency' | 'attempts' | 'signal' | 'onProgress' | 'request'
    >();
    expectTypeOf<keyof SyncOptions>().toEqualTypeOf<'prune' | 'request' | 'signal'>();
  });

  it('each surface (never called: tsc checks the lines)', () => {
    const typed = (c: ReturnType<typeof setup>) => {
      // @ts-expect-error baseUrl is the Management client's option
      new CatalogClient({ baseUrl: ORIGIN });
      // @ts-expect-error siteUrl is the Catalog client's option
      new ManagementClient({ siteUrl: ORIGIN });
      // @ts-expect-error a typo
      new ManagementClient({ timout: 1 });
      // @ts-expect-error withOptions takes the client's options only
      c.catalog.withOptions({ baseUrl: ORIGIN });
      // @ts-expect-error a typo
      c.mgmt.pixels.get(1, { timout: 1 });
      // @ts-expect-error ky's retry is not a request option
      c.mgmt.pixels.list({}, { retry: 2 });
      // @ts-expect-error a typo
      c.catalog.purchases.validate('code', { cahce: false });
      // @ts-expect-error a typo
      void c.mgmt.pixels.list().toArray({ limt: 5 });
      // @ts-expect-error a typo
      void c.mgmt.pixels.list().pages({ onprogress: () => {} });
      // @ts-expect-error a typo
      void c.mgmt.pixels.createMany([], { concurency: 2 });
      // @ts-expect-error a typo in the request options of a job
      void c.mgmt.pixels.createMany([], { request: { timout: 1 } });
      // @ts-expect-error a typo
      void c.mgmt.domains.sync([], { prun: true });
    };
    expect(typeof typed).toBe('function');
  });
});
