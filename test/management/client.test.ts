import { inspect } from 'node:util';
import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import * as sdk from '../../src/index.js';
import { Domains, InvalidParamsError, ManagementClient, Pixels } from '../../src/index.js';
import { useMsw } from '../helpers/msw.js';
import { BASE_URL, laravel, ROOT, SECRET, showBody, wirePixel } from './fixtures.js';

const msw = useMsw();

describe('ManagementClient', () => {
  it('exposes pixels and domains', () => {
    const client = new ManagementClient({ baseUrl: BASE_URL, apiKey: SECRET });
    expect(client.pixels).toBeInstanceOf(Pixels);
    expect(client.domains).toBeInstanceOf(Domains);
  });

  it('is exported from the package root with its pages and pixel types', () => {
    expect(sdk.ManagementClient).toBe(ManagementClient);
    expect(typeof sdk.Page).toBe('function');
    expect(typeof sdk.PagePromise).toBe('function');
    expect(sdk.PIXEL_TYPES).toHaveLength(10);
    expect(sdk.isKnownPixelType('google-tag-manager')).toBe(true);
    expect(sdk.isKnownPixelType('tiktok')).toBe(false);
  });

  it('fails at construction without a key or a URL', () => {
    vi.stubEnv('CONTENT_PLATFORM_MANAGEMENT_API_KEY', '');
    vi.stubEnv('CONTENT_PLATFORM_BASE_URL', '');
    expect(() => new ManagementClient({ baseUrl: BASE_URL })).toThrow(InvalidParamsError);
    expect(() => new ManagementClient({ apiKey: SECRET })).toThrow(
      /ManagementClient needs a URL: pass `baseUrl`/,
    );
  });

  it('reads the key and URL from the environment and appends /api/v1', async () => {
    vi.stubEnv('CONTENT_PLATFORM_MANAGEMENT_API_KEY', SECRET);
    vi.stubEnv('CONTENT_PLATFORM_BASE_URL', 'https://links.example.com/');
    msw.use(http.get(`${ROOT}/pixels/1`, () => laravel(showBody(wirePixel()))));
    await new ManagementClient().pixels.get(1);
    expect(msw.captured[0]?.url).toBe(`${ROOT}/pixels/1`);
    expect(msw.captured[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it('sends per-call headers and client headers', async () => {
    msw.use(http.get(`${ROOT}/pixels/1`, () => laravel(showBody(wirePixel()))));
    const client = new ManagementClient({ baseUrl: BASE_URL, apiKey: SECRET, headers: { 'x-team': 'a' } });
    await client.pixels.get(1, { headers: { 'x-trace': 't1' } });
    expect(msw.captured[0]?.headers).toMatchObject({ 'x-team': 'a', 'x-trace': 't1' });
  });

  it('never shows the key when inspected or serialised', () => {
    const client = new ManagementClient({ baseUrl: BASE_URL, apiKey: SECRET });
    expect(inspect(client, { depth: 10 })).not.toContain(SECRET);
    expect(JSON.stringify(client)).not.toContain(SECRET);
  });

  it('refuses a header value with a CR or LF, on the client or a call, without echoing it', async () => {
    const headers = { 'x-trace-id': `${SECRET}\r\nX-Injected: 1` };
    expect(() => new ManagementClient({ baseUrl: BASE_URL, apiKey: SECRET, headers })).toThrow(
      'headers: the value of "x-trace-id" has a CR, LF or NUL, or a character beyond U+00FF',
    );
    const client = new ManagementClient({ baseUrl: BASE_URL, apiKey: SECRET });
    const error = await client.pixels.get(1, { headers }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as InvalidParamsError).attempts).toBe(0);
    expect(JSON.stringify(error)).not.toContain(SECRET);
    expect(() => client.withOptions({ headers })).toThrow(InvalidParamsError);
    expect(msw.captured).toHaveLength(0);
  });

  it('refuses an Authorization header, on the client or a call: the key goes in apiKey', async () => {
    for (const name of ['Authorization', 'authorization', 'AUTHORIZATION']) {
      let error: unknown;
      try {
        new ManagementClient({ baseUrl: BASE_URL, apiKey: SECRET, headers: { [name]: 'Bearer other-key' } });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(InvalidParamsError);
      expect((error as InvalidParamsError).param).toBe('headers');
      expect((error as Error).message).toBe(
        'headers must not set Authorization: pass the key as `apiKey`, which the SDK sends the way each API expects.',
      );
    }
    const client = new ManagementClient({ baseUrl: BASE_URL, apiKey: SECRET });
    await expect(
      client.pixels.get(1, { headers: { authorization: 'Bearer other-key' } }),
    ).rejects.toBeInstanceOf(InvalidParamsError);
    expect(msw.captured).toHaveLength(0);
  });

  it('appends appInfo to the User-Agent, so servers can tell wrappers apart', async () => {
    msw.use(http.get(`${ROOT}/pixels/1`, () => laravel(showBody(wirePixel()))));
    const appInfo = { name: 'acme-wrapper', version: '1.2.3', url: 'https://acme.example/sdk' };
    await new ManagementClient({ baseUrl: BASE_URL, apiKey: SECRET, appInfo }).pixels.get(1);
    await new ManagementClient({
      baseUrl: BASE_URL,
      apiKey: SECRET,
      appInfo: { name: 'nightly-audit' },
    }).pixels.get(1);
    expect(msw.captured.map((c) => c.headers['user-agent'])).toEqual([
      'content-platform-sdk/0.2.0 acme-wrapper/1.2.3 (+https://acme.example/sdk)',
      'content-platform-sdk/0.2.0 nightly-audit',
    ]);
  });

  it.each([
    [{ name: 'acme wrapper' }, 'appInfo.name must be a product token'],
    [{ name: 'acme\r\nx-evil: 1' }, 'appInfo.name must be a product token'],
    [{ name: 'acme', version: '1.2 beta' }, 'appInfo.version must be a product token'],
    [{ name: 'acme', url: 'javascript:alert(1)' }, 'appInfo.url must be an http(s) URL'],
  ])('refuses appInfo %j at construction', (appInfo, message) => {
    expect(() => new ManagementClient({ baseUrl: BASE_URL, apiKey: SECRET, appInfo })).toThrow(message);
  });
});
