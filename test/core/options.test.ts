import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidParamsError } from '../../src/core/errors/classes.js';
import { consoleLogger } from '../../src/core/transport/log.js';
import { extraHeaders, resolveOptions } from '../../src/core/transport/options.js';
import { ManagementClient } from '../../src/index.js';
import { createReferenceServer } from '../../src/testing/index.js';
import { CATALOG_KIND, MANAGEMENT_KIND, SECRET } from '../helpers/core.js';
import { leakSurface } from '../helpers/failure.js';

function failure(run: () => unknown): InvalidParamsError {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidParamsError) return error;
    throw error;
  }
  throw new Error('expected an InvalidParamsError');
}

describe('resolveOptions', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
  });

  it.each([
    ['https://links.example.com', 'https://links.example.com/api/v1'],
    ['https://links.example.com/', 'https://links.example.com/api/v1'],
    ['https://links.example.com/api/v1', 'https://links.example.com/api/v1'],
    ['https://links.example.com/api/v1/', 'https://links.example.com/api/v1'],
    ['https://links.example.com//', 'https://links.example.com/api/v1'],
    ['https://example.com/short', 'https://example.com/short/api/v1'],
    ['https://example.com/short/api/v1/', 'https://example.com/short/api/v1'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/api/v1'],
    ['  https://links.example.com  ', 'https://links.example.com/api/v1'],
  ])('management base URL %s → API root %s', (baseUrl, root) => {
    expect(resolveOptions({ apiKey: 'k', baseUrl }, MANAGEMENT_KIND).apiRoot).toBe(root);
  });

  it.each([
    ['https://market.example.com', 'https://market.example.com/api'],
    ['https://market.example.com/api', 'https://market.example.com/api'],
    ['https://market.example.com/api/', 'https://market.example.com/api'],
    ['https://example.com/shop/', 'https://example.com/shop/api'],
  ])('catalog site URL %s → API root %s', (siteUrl, root) => {
    expect(resolveOptions({ apiKey: 'k', siteUrl }, CATALOG_KIND).apiRoot).toBe(root);
  });

  it('falls back to the environment: each API its own key variable, and the URLs', () => {
    vi.stubEnv('CONTENT_PLATFORM_MANAGEMENT_API_KEY', 'management-key');
    vi.stubEnv('CONTENT_PLATFORM_CATALOG_API_KEY', 'catalog-key');
    vi.stubEnv('CONTENT_PLATFORM_BASE_URL', 'https://env.example.com');
    vi.stubEnv('CONTENT_PLATFORM_SITE_URL', 'https://shop.example.com');
    expect(resolveOptions({}, MANAGEMENT_KIND)).toMatchObject({
      apiKey: 'management-key',
      apiRoot: 'https://env.example.com/api/v1',
    });
    expect(resolveOptions({}, CATALOG_KIND)).toMatchObject({
      apiKey: 'catalog-key',
      apiRoot: 'https://shop.example.com/api',
    });
  });

  it("never falls back to the other API's key, nor to the shared CONTENT_PLATFORM_API_KEY", () => {
    vi.stubEnv('CONTENT_PLATFORM_API_KEY', 'shared-key');
    vi.stubEnv('CONTENT_PLATFORM_MANAGEMENT_API_KEY', 'management-key');
    vi.stubEnv('CONTENT_PLATFORM_CATALOG_API_KEY', '');
    vi.stubEnv('CONTENT_PLATFORM_SITE_URL', 'https://shop.example.com');
    const error = failure(() => resolveOptions({}, CATALOG_KIND));
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect(error.message).toBe(
      'CatalogClient needs an API key: pass `apiKey` or set CONTENT_PLATFORM_CATALOG_API_KEY.',
    );
    expect(error.param).toBe('apiKey');
    vi.stubEnv('CONTENT_PLATFORM_MANAGEMENT_API_KEY', '');
    vi.stubEnv('CONTENT_PLATFORM_BASE_URL', 'https://env.example.com');
    expect(failure(() => resolveOptions({}, MANAGEMENT_KIND)).message).toBe(
      'ManagementClient needs an API key: pass `apiKey` or set CONTENT_PLATFORM_MANAGEMENT_API_KEY.',
    );
  });

  it('prefers explicit options over the environment', () => {
    vi.stubEnv('CONTENT_PLATFORM_MANAGEMENT_API_KEY', 'env-key');
    vi.stubEnv('CONTENT_PLATFORM_BASE_URL', 'https://env.example.com');
    expect(
      resolveOptions({ apiKey: 'mine', baseUrl: 'https://mine.example.com' }, MANAGEMENT_KIND),
    ).toMatchObject({
      apiKey: 'mine',
      apiRoot: 'https://mine.example.com/api/v1',
    });
  });

  it('applies the documented defaults', () => {
    vi.stubEnv('CONTENT_PLATFORM_LOG', '');
    const resolved = resolveOptions({ apiKey: 'k', baseUrl: 'https://x.example.com' }, MANAGEMENT_KIND);
    expect(resolved).toMatchObject({
      timeout: 60_000,
      maxRetries: 2,
      logLevel: 'warn',
      headers: {},
      fetch: undefined,
    });
    // The console, one line per record; `console` itself means the same.
    expect(resolved.logger).toBe(consoleLogger);
    expect(
      resolveOptions({ apiKey: 'k', baseUrl: 'https://x.example.com', logger: console }, MANAGEMENT_KIND)
        .logger,
    ).toBe(consoleLogger);
  });

  it('records where the key and the URL came from: the option, or the variable it fell back to', () => {
    vi.stubEnv('CONTENT_PLATFORM_MANAGEMENT_API_KEY', 'management-key');
    vi.stubEnv('CONTENT_PLATFORM_SITE_URL', 'https://shop.example.com');
    expect(resolveOptions({ baseUrl: 'https://x.example.com/api' }, MANAGEMENT_KIND).setup).toEqual({
      keyFrom: 'CONTENT_PLATFORM_MANAGEMENT_API_KEY',
      urlOption: 'baseUrl',
      urlEnv: undefined,
      apiRoot: 'https://x.example.com/api/api/v1',
      apiPath: '/api/v1',
    });
    expect(resolveOptions({ apiKey: 'k' }, CATALOG_KIND).setup).toEqual({
      keyFrom: 'apiKey',
      urlOption: 'siteUrl',
      urlEnv: 'CONTENT_PLATFORM_SITE_URL',
      apiRoot: 'https://shop.example.com/api',
      apiPath: '/api',
    });
  });

  it('reads CONTENT_PLATFORM_LOG in any case', () => {
    vi.stubEnv('CONTENT_PLATFORM_LOG', ' INFO ');
    expect(resolveOptions({ apiKey: 'k', baseUrl: 'https://x.example.com' }, MANAGEMENT_KIND).logLevel).toBe(
      'info',
    );
  });

  it('falls back to warn, and says so, when CONTENT_PLATFORM_LOG is not a level', () => {
    vi.stubEnv('CONTENT_PLATFORM_LOG', 'verbose');
    const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() };
    expect(
      resolveOptions({ apiKey: 'k', baseUrl: 'https://x.example.com', logger }, MANAGEMENT_KIND).logLevel,
    ).toBe('warn');
    expect(logger.warn).toHaveBeenCalledWith(
      '[content-platform-sdk] CONTENT_PLATFORM_LOG="verbose" is not one of off, error, warn, info, debug; using warn.',
      { variable: 'CONTENT_PLATFORM_LOG' },
    );
  });

  it('says so once per logger: a client derived per call does not repeat it', () => {
    vi.stubEnv('CONTENT_PLATFORM_LOG', 'loud');
    const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() };
    const other = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() };
    for (const sink of [logger, logger, other, logger])
      expect(
        resolveOptions({ apiKey: 'k', baseUrl: 'https://x.example.com', logger: sink }, MANAGEMENT_KIND)
          .logLevel,
      ).toBe('warn');
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(other.warn).toHaveBeenCalledTimes(1);
  });

  it('falls back to warn even when the logger throws on that warning', () => {
    vi.stubEnv('CONTENT_PLATFORM_LOG', 'verbose');
    const down = () => {
      throw new Error('sink down');
    };
    const logger = { error: down, warn: vi.fn(down), info: down, debug: down };
    expect(
      resolveOptions({ apiKey: 'k', baseUrl: 'https://x.example.com', logger }, MANAGEMENT_KIND).logLevel,
    ).toBe('warn');
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });

  it('refuses an appInfo that is not an object, as InvalidParamsError', () => {
    const error = failure(() =>
      resolveOptions(
        { apiKey: 'k', baseUrl: 'https://x.example.com', appInfo: null as unknown as undefined },
        MANAGEMENT_KIND,
      ),
    );
    expect(error.param).toBe('appInfo');
    expect(error.message).toBe('appInfo must be an object: { name, version?, url? }.');
  });

  it.each([
    ['a CR', `${SECRET}\r`],
    ['an LF', `${SECRET}\nx`],
    ['a NUL', `${SECRET}\0`],
    ['a character beyond U+00FF', `${SECRET}\u2028`],
  ])('refuses a key with %s at construction, without showing it', (_, apiKey) => {
    for (const kind of [MANAGEMENT_KIND, CATALOG_KIND]) {
      const error = failure(() =>
        resolveOptions({ apiKey, [kind.urlOption]: 'https://x.example.com' }, kind),
      );
      expect(error.param).toBe('apiKey');
      expect(error.message).toBe(
        'apiKey has a CR, LF or NUL, or a character beyond U+00FF, which no HTTP request can carry (not shown).',
      );
      expect(JSON.stringify(error)).not.toContain(SECRET);
    }
  });

  it('names the environment variable when the key that cannot be sent came from there', () => {
    vi.stubEnv('CONTENT_PLATFORM_CATALOG_API_KEY', `${SECRET}\nx`);
    const error = failure(() => resolveOptions({ siteUrl: 'https://x.example.com' }, CATALOG_KIND));
    expect(error.param).toBe('apiKey');
    expect(error.message).toMatch(/^CONTENT_PLATFORM_CATALOG_API_KEY has a CR, LF or NUL/);
    expect(error.message).not.toContain(SECRET);
  });

  it('treats an environment it may not read (Deno without --allow-env) as unset', () => {
    const throwing = new Proxy(
      {},
      {
        get: () => {
          throw new Error('NotCapable: Requires env access');
        },
      },
    );
    vi.stubGlobal('process', { ...process, env: throwing });
    expect(resolveOptions({ apiKey: 'k', baseUrl: 'https://x.example.com' }, MANAGEMENT_KIND)).toMatchObject({
      logLevel: 'warn',
      apiRoot: 'https://x.example.com/api/v1',
    });
  });

  it('reads the log level from CONTENT_PLATFORM_LOG', () => {
    vi.stubEnv('CONTENT_PLATFORM_LOG', 'debug');
    expect(resolveOptions({ apiKey: 'k', baseUrl: 'https://x.example.com' }, MANAGEMENT_KIND).logLevel).toBe(
      'debug',
    );
  });

  it('fails at construction without a key, naming the option and the variable', () => {
    vi.stubEnv('CONTENT_PLATFORM_MANAGEMENT_API_KEY', '');
    const error = failure(() => resolveOptions({ baseUrl: 'https://x.example.com' }, MANAGEMENT_KIND));
    expect(error.message).toBe(
      'ManagementClient needs an API key: pass `apiKey` or set CONTENT_PLATFORM_MANAGEMENT_API_KEY.',
    );
    expect(error.param).toBe('apiKey');
    expect(
      failure(() => resolveOptions({ apiKey: '   ', baseUrl: 'https://x.example.com' }, MANAGEMENT_KIND))
        .param,
    ).toBe('apiKey');
  });

  it('refuses a key that is not a string by its kind, never its value (a numeric key is still a secret)', () => {
    for (const [apiKey, kind] of [
      [48151623, 'a number'],
      [{ key: 'k-481516' }, 'an object'],
      [['k-481516'], 'an array'],
    ] as const) {
      const error = failure(() =>
        resolveOptions({ apiKey: apiKey as never, baseUrl: 'https://x.example.com' }, MANAGEMENT_KIND),
      );
      expect(error).toBeInstanceOf(InvalidParamsError);
      expect([error.message, error.param]).toEqual([`apiKey must be a string; got ${kind}.`, 'apiKey']);
    }
  });

  it.each([
    ['allowInsecureHttp', 'yes', 'a string'],
    ['allowInsecureHttp', 1, 'a number'],
    ['dangerouslyAllowBrowser', () => 1, 'a function'],
    ['dangerouslyAllowBrowser', 'false', 'a string'],
  ])('refuses %s: %s (a flag that is not a boolean would read as false)', (name, value, kind) => {
    const error = failure(() =>
      resolveOptions({ apiKey: 'k', baseUrl: 'http://x.example.com', [name]: value }, MANAGEMENT_KIND),
    );
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect([error.message, error.param]).toEqual([`${name} must be a boolean; got ${kind}.`, name]);
  });

  it('takes the flags as booleans, null as unset', () => {
    const options = { apiKey: 'k', baseUrl: 'http://x.example.com', dangerouslyAllowBrowser: false };
    expect(
      failure(() => resolveOptions({ ...options, allowInsecureHttp: null as never }, MANAGEMENT_KIND)).param,
    ).toBe('baseUrl');
    expect(resolveOptions({ ...options, allowInsecureHttp: true }, MANAGEMENT_KIND).apiRoot).toBe(
      'http://x.example.com/api/v1',
    );
    expect(
      failure(() => resolveOptions({ ...options, allowInsecureHttp: false }, MANAGEMENT_KIND)).param,
    ).toBe('baseUrl');
  });

  it('refuses a URL that is not a string as such, even with the variable set', () => {
    vi.stubEnv('CONTENT_PLATFORM_BASE_URL', 'https://env.example.com');
    vi.stubEnv('CONTENT_PLATFORM_SITE_URL', 'https://shop.example.com');
    const management = failure(() => resolveOptions({ apiKey: 'k', baseUrl: 5 as never }, MANAGEMENT_KIND));
    expect([management.message, management.param]).toEqual([
      'baseUrl must be a string; got a number.',
      'baseUrl',
    ]);
    const catalog = failure(() =>
      resolveOptions({ apiKey: 'k', siteUrl: new URL('https://x.test') as never }, CATALOG_KIND),
    );
    expect([catalog.message, catalog.param]).toEqual(['siteUrl must be a string; got an object.', 'siteUrl']);
  });

  it('fails at construction without a URL', () => {
    vi.stubEnv('CONTENT_PLATFORM_SITE_URL', '');
    const error = failure(() => resolveOptions({ apiKey: 'k' }, CATALOG_KIND));
    expect(error.message).toBe('CatalogClient needs a URL: pass `siteUrl` or set CONTENT_PLATFORM_SITE_URL.');
    expect(error.param).toBe('siteUrl');
  });

  it.each([
    ['no scheme', 'links.example.com', 'baseUrl is not a valid URL: "***.com" has no scheme.'],
    [
      'a space in its host',
      'https://links example.com',
      'baseUrl is not a valid URL: "https://links example.com".',
    ],
    ['another protocol', 'ftp://links.example.com', 'baseUrl must use http or https; got ftp:'],
    ['a query', 'https://links.example.com/?x=1', 'must not carry a query'],
    ['a fragment', 'https://links.example.com/#x', 'must not carry a query'],
    ['credentials', 'https://user:pw@links.example.com', 'must not carry a query, fragment or credentials'],
  ])('rejects a base URL with %s', (_label, baseUrl, message) => {
    const error = failure(() => resolveOptions({ apiKey: SECRET, baseUrl }, MANAGEMENT_KIND));
    expect(error.message).toContain(message);
    expect(error.param).toBe('baseUrl');
  });

  it('quotes a malformed URL with a scheme, the key masked, as an api_key parameter or anywhere else (env too)', () => {
    const pasted = failure(() =>
      resolveOptions(
        { apiKey: SECRET, siteUrl: `https://market example.com/api/items/all?api_key=${SECRET}&x=1` },
        CATALOG_KIND,
      ),
    );
    expect(pasted.message).toBe(
      'siteUrl is not a valid URL: "https://market example.com/api/items/all?api_key=***&x=1".',
    );
    expect(leakSurface(pasted)).not.toContain(SECRET);
    // Another parameter name, URL-encoded: the scrubber finds the key in any form.
    vi.stubEnv(
      'CONTENT_PLATFORM_SITE_URL',
      `https://market example.com/?token=${encodeURIComponent(`${SECRET}+/`)}`,
    );
    const fromEnv = failure(() => resolveOptions({ apiKey: `${SECRET}+/` }, CATALOG_KIND));
    expect(fromEnv.message).toBe(
      'siteUrl (from CONTENT_PLATFORM_SITE_URL) is not a valid URL: "https://market example.com/?token=***".',
    );
    expect(leakSurface(fromEnv)).not.toContain(SECRET);
    const bare = failure(() =>
      resolveOptions({ apiKey: SECRET, baseUrl: `https://links example.com/${SECRET}` }, MANAGEMENT_KIND),
    );
    expect(bare.message).toBe('baseUrl is not a valid URL: "https://links example.com/***".');
    // A long one is quoted up to 200 characters.
    const long = failure(() =>
      resolveOptions({ apiKey: SECRET, baseUrl: `x://a b/${'a'.repeat(5_000)}` }, MANAGEMENT_KIND),
    );
    expect(long.message).toBe(`baseUrl is not a valid URL: "x://a b/${'a'.repeat(192)}…".`);
  });

  it.each([
    ['links.example.com', 'is not a valid URL: "***.com" has no scheme.'],
    ['ftp://links.example.com', 'must use http or https; got ftp:'],
    ['https://links.example.com/?page=2', 'must not carry a query, fragment or credentials'],
    ['https://links.example.com:6000', 'uses port 6000, which fetch refuses to call'],
    [
      'http://links.example.com',
      'uses http:// to links.example.com: the API key would travel in clear text.',
    ],
  ])('names a refused URL read from the environment by its variable too: %s', (url, says) => {
    vi.stubEnv('CONTENT_PLATFORM_BASE_URL', url);
    const error = failure(() => resolveOptions({ apiKey: 'k' }, MANAGEMENT_KIND));
    const fromEnv = `baseUrl (from CONTENT_PLATFORM_BASE_URL) ${says}`;
    expect(error.message.slice(0, fromEnv.length)).toBe(fromEnv);
    expect(error.param).toBe('baseUrl');
    // Given as the option, the same URL is the option's alone, whatever the variable holds.
    const given = failure(() => resolveOptions({ apiKey: 'k', baseUrl: url }, MANAGEMENT_KIND));
    expect(given.message.slice(0, `baseUrl ${says}`.length)).toBe(`baseUrl ${says}`);
  });

  it('shows a URL without a scheme as any refused value: a key given in its place is not printed', () => {
    const key = 'sk-live-9f8e7d6c5b4a39281706';
    // The options swapped, the key after a scheme word, the URL variable holding a key: none is a URL.
    const swapped = failure(() =>
      resolveOptions({ apiKey: 'https://links.example.com', baseUrl: key }, MANAGEMENT_KIND),
    );
    expect(swapped.message).toBe('baseUrl is not a valid URL: "***1706" has no scheme.');
    expect(swapped.param).toBe('baseUrl');
    const bearer = failure(() => resolveOptions({ apiKey: 'k', siteUrl: `Bearer ${key}` }, CATALOG_KIND));
    expect(bearer.message).toBe('siteUrl is not a valid URL: "***1706" has no scheme.');
    vi.stubEnv('CONTENT_PLATFORM_BASE_URL', key);
    const fromEnv = failure(() => resolveOptions({ apiKey: 'k' }, MANAGEMENT_KIND));
    expect(fromEnv.message).toBe(
      'baseUrl (from CONTENT_PLATFORM_BASE_URL) is not a valid URL: "***1706" has no scheme.',
    );
    for (const error of [swapped, bearer, fromEnv])
      expect(leakSurface(error)).not.toContain(key.slice(0, -4));
    // Short enough to be no secret: shown whole.
    expect(
      failure(() => resolveOptions({ apiKey: 'k', baseUrl: 'localhost' }, MANAGEMENT_KIND)).message,
    ).toBe('baseUrl is not a valid URL: "localhost" has no scheme.');
  });

  it.each([
    ['timeout', { timeout: 0 }],
    ['timeout', { timeout: -5 }],
    ['timeout', { timeout: Number.NaN }],
    ['timeout', { timeout: 2 ** 31 }],
    ['maxRetries', { maxRetries: -1 }],
    ['maxRetries', { maxRetries: 1.5 }],
    ['maxRetries', { maxRetries: 11 }],
    ['logLevel', { logLevel: 'verbose' }],
  ])('rejects a bad %s', (param, bad) => {
    const error = failure(() =>
      resolveOptions({ apiKey: 'k', baseUrl: 'https://x.example.com', ...(bad as object) }, MANAGEMENT_KIND),
    );
    expect(error.param).toBe(param);
  });

  it.each([
    ['timeout', 2 ** 31, '2147483648'],
    ['totalTimeout', Number.POSITIVE_INFINITY, 'Infinity'],
    ['maxRetryAfter', 1e12, '1000000000000'],
  ])('names the longest %s a timer can hold when given more (%s)', (param, value, got) => {
    const error = failure(() =>
      resolveOptions({ apiKey: 'k', baseUrl: 'https://x.example.com', [param]: value }, MANAGEMENT_KIND),
    );
    expect(error).toMatchObject({
      param,
      message: `${param} must be a positive number of milliseconds, at most 2147483647 (24.8 days); got ${got}.`,
    });
    // Not positive: the bound is not the point.
    expect(
      failure(() =>
        resolveOptions({ apiKey: 'k', baseUrl: 'https://x.example.com', [param]: -1 }, MANAGEMENT_KIND),
      ).message,
    ).toBe(`${param} must be a positive number of milliseconds; got -1.`);
  });

  it('refuses http:// to a host that is not loopback, unless allowed', () => {
    const error = failure(() =>
      resolveOptions({ apiKey: SECRET, baseUrl: 'http://links.example.com' }, MANAGEMENT_KIND),
    );
    expect(error.param).toBe('baseUrl');
    expect(error.message).toBe(
      'baseUrl uses http:// to links.example.com: the API key would travel in clear text. Use https://, or pass `allowInsecureHttp: true` if the network is trusted.',
    );
    expect(
      resolveOptions(
        { apiKey: 'k', baseUrl: 'http://links.example.com', allowInsecureHttp: true },
        MANAGEMENT_KIND,
      ).apiRoot,
    ).toBe('http://links.example.com/api/v1');
  });

  it.each([
    ['baseUrl', 'https://links.example.com:6000', MANAGEMENT_KIND, '6000'],
    ['baseUrl', 'http://127.0.0.1:10080/api/v1', MANAGEMENT_KIND, '10080'],
    ['siteUrl', 'https://market.example.com:25', CATALOG_KIND, '25'],
    ['siteUrl', 'http://localhost:6665/', CATALOG_KIND, '6665'],
  ])('refuses a %s on a port fetch refuses to call: %s', (param, url, kind, port) => {
    const error = failure(() => resolveOptions({ apiKey: 'k', [param]: url }, kind));
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect(error.param).toBe(param);
    expect(error.message).toBe(
      `${param} uses port ${port}, which fetch refuses to call (a "bad port" of the fetch standard, reserved for ` +
        'other protocols): every request would fail. Serve the API on another port (such as 443 or 8080), or ' +
        'reach it through a proxy on one.',
    );
  });

  it.each([
    ['https://links.example.com:8080', 'https://links.example.com:8080/api/v1'],
    ['https://links.example.com:443', 'https://links.example.com/api/v1'],
    ['http://127.0.0.1:6001', 'http://127.0.0.1:6001/api/v1'],
    ['http://127.0.0.1:80', 'http://127.0.0.1/api/v1'],
  ])('accepts a port fetch calls: %s', (baseUrl, root) => {
    expect(resolveOptions({ apiKey: 'k', baseUrl }, MANAGEMENT_KIND).apiRoot).toBe(root);
  });

  it("refuses only ports the runtime's fetch refuses too (the fetch standard's bad ports)", async () => {
    const refused: number[] = [];
    for (let port = 1; port <= 10_100; port += 1) {
      try {
        resolveOptions({ apiKey: 'k', baseUrl: `http://127.0.0.1:${port}` }, MANAGEMENT_KIND);
      } catch (error) {
        if (!(error instanceof InvalidParamsError) || error.param !== 'baseUrl') throw error;
        refused.push(port);
      }
    }
    // The standard's list has 82 ports, 1 to 10080: X11's 6000 and IRC's 6665-6669 among them, 6001 not.
    expect(refused).toHaveLength(82);
    expect(refused).toEqual(expect.arrayContaining([1, 6000, 6665, 6666, 6667, 6668, 6669, 10080]));
    expect(refused).not.toContain(6001);
    // fetch refuses each before connecting (no server listens): "fetch failed", caused by "bad port".
    const causes = await Promise.all(
      refused.map((port) =>
        fetch(`http://127.0.0.1:${port}/`).then(
          () => 'answered',
          (error: Error) => String((error.cause as Error | undefined)?.message),
        ),
      ),
    );
    expect(new Set(causes)).toEqual(new Set(['bad port']));
  });

  it.each([
    'http://localhost:4010',
    'http://127.0.0.1',
    'http://127.8.9.10:80',
    'http://[::1]:4010',
    'http://api.localhost',
  ])('allows http:// to the loopback host %s', (siteUrl) => {
    expect(resolveOptions({ apiKey: 'k', siteUrl }, CATALOG_KIND).apiRoot).toBe(
      `${new URL(siteUrl).origin}/api`,
    );
  });

  it('checks totalTimeout', () => {
    expect(
      resolveOptions({ apiKey: 'k', baseUrl: 'https://x.example.com', totalTimeout: 5000 }, MANAGEMENT_KIND)
        .totalTimeout,
    ).toBe(5000);
    expect(
      failure(() =>
        resolveOptions({ apiKey: 'k', baseUrl: 'https://x.example.com', totalTimeout: 0 }, MANAGEMENT_KIND),
      ).param,
    ).toBe('totalTimeout');
  });

  it('refuses to run in a browser unless dangerouslyAllowBrowser is set', () => {
    vi.stubGlobal('window', { document: {} });
    const error = failure(() =>
      resolveOptions({ apiKey: SECRET, baseUrl: 'https://x.example.com' }, MANAGEMENT_KIND),
    );
    expect(error.param).toBe('dangerouslyAllowBrowser');
    expect(error.message).toContain('ManagementClient refuses to run in a browser');
    expect(error.message).not.toContain(SECRET);
    expect(
      resolveOptions(
        { apiKey: 'k', baseUrl: 'https://x.example.com', dangerouslyAllowBrowser: true },
        MANAGEMENT_KIND,
      ).apiKey,
    ).toBe('k');
  });

  it('does not mistake a worker-like global without a document for a browser', () => {
    vi.stubGlobal('window', {});
    expect(resolveOptions({ apiKey: 'k', baseUrl: 'https://x.example.com' }, MANAGEMENT_KIND).apiKey).toBe(
      'k',
    );
  });
});

describe('extraHeaders', () => {
  it('keeps token names and values fetch can send (a tab inside, Latin-1)', () => {
    const headers = { 'x-trace-id': 'a\tb', 'X-Name': 'café', "x-!#$%&'*+-.^_`|~": '' };
    expect(extraHeaders(headers, 'headers')).toEqual(headers);
    expect(extraHeaders(undefined, 'headers')).toEqual({});
  });

  it('takes a null value as undefined (no such header is sent), not as the text "null"', () => {
    const given = { 'x-a': '1', 'x-b': null } as unknown as Record<string, string>;
    const out = extraHeaders(given, 'headers');
    expect(out).toEqual({ 'x-a': '1', 'x-b': undefined });
    expect(Object.keys(out)).toEqual(['x-a', 'x-b']);
    expect(extraHeaders([['x-b', null]] as never, 'headers')).toEqual({ 'x-b': undefined });
  });

  it.each([
    [{ 'x-b': { id: 1 } }, 'an object'],
    [{ 'x-b': ['a', 'b'] }, 'an array'],
    [{ 'x-b': () => 'a' }, 'a function'],
    [{ 'x-b': Symbol('a') }, 'a symbol'],
  ])(
    'refuses a header value that is not text (%o), naming the header, not showing the value',
    (headers, kind) => {
      const error = failure(() => extraHeaders({ 'x-a': '1', ...headers } as never, 'headers'));
      expect(error.param).toBe('headers');
      expect(error.message).toBe(`headers: the value of "x-b" must be text; got ${kind}.`);
    },
  );

  it("refuses a call's headers that are no headers at all ('', 0, false, NaN): they were skipped unchecked", async () => {
    const server = createReferenceServer();
    const mgmt = new ManagementClient({
      baseUrl: 'https://links.example.com',
      apiKey: server.keys.management[0],
      fetch: server.fetch,
    });
    for (const headers of ['', 0, false, Number.NaN]) {
      const error = await mgmt.pixels.get(1, { headers: headers as never }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidParamsError);
      expect((error as InvalidParamsError).param).toBe('headers');
    }
    expect(server.requests).toEqual([]);
    // `null` per call is no headers, as `null` options are none.
    expect((await mgmt.pixels.get(1, { headers: null as never })).id).toBe(1);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET https://links.example.com/api/v1/pixels/1',
    ]);
  });

  it('sends a number or a boolean as its text, as fetch does', () => {
    expect(extraHeaders({ 'x-n': 5, 'x-t': true } as never, 'headers')).toEqual({ 'x-n': 5, 'x-t': true });
  });

  it("sends no header for a null value, and a null per call drops the client's header of that name", async () => {
    const server = createReferenceServer();
    const mgmt = new ManagementClient({
      baseUrl: 'https://links.example.com',
      apiKey: server.keys.management[0],
      fetch: server.fetch,
      headers: { 'x-team': 'growth', 'x-none': null } as never,
    });
    await mgmt.pixels.get(1);
    await mgmt.pixels.get(1, { headers: { 'x-team': null, 'x-trace': null, 'x-call': '7' } as never });
    const [plain, call] = server.requests.map((r) => r.headers);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET https://links.example.com/api/v1/pixels/1',
      'GET https://links.example.com/api/v1/pixels/1',
    ]);
    expect(plain?.['x-team']).toBe('growth');
    expect(plain && 'x-none' in plain).toBe(false);
    expect(call?.['x-call']).toBe('7');
    expect(call && ['x-team', 'x-trace', 'x-none'].filter((name) => name in call)).toEqual([]);
  });

  it.each([
    ['a CR', `${SECRET}\r`],
    ['an LF', `${SECRET}\nX-Injected: 1`],
    ['a NUL', `${SECRET}\0`],
    ['a character beyond U+00FF', `${SECRET} سلام`],
  ])('refuses a value with %s, naming the header and not the value', (_, value) => {
    const error = failure(() => extraHeaders({ 'x-ok': '1', 'x-trace-id': value }, 'headers'));
    expect(error.param).toBe('headers');
    expect(error.message).toBe(
      'headers: the value of "x-trace-id" has a CR, LF or NUL, or a character beyond U+00FF, which no HTTP ' +
        'request can carry (not shown: it may be a secret).',
    );
    expect([error.message, JSON.stringify(error), inspect(error)].join()).not.toContain(SECRET);
  });

  it.each(['x trace', 'x-a\r\n', 'x-a\0', 'x:a', ''])(
    'refuses the header name %j without showing it',
    (name) => {
      const error = failure(() => extraHeaders({ 'x-ok': '1', [name]: SECRET }, 'headers'));
      expect(error.param).toBe('headers');
      expect(error.message).toBe('headers: header name 2 of 2 is not an HTTP token (not shown).');
      expect(JSON.stringify(error)).not.toContain(SECRET);
    },
  );
});
