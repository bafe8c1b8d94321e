import { CatalogClient, InvalidParamsError, ManagementClient } from 'content-platform-sdk';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { anItem, ok } from '../catalog/fixtures.js';
import { failure } from '../helpers/failure.js';
import { useMsw } from '../helpers/msw.js';
import { BASE_URL, laravel, ROOT, SECRET, showBody, wirePixel } from '../management/fixtures.js';

const msw = useMsw();
const SITE = 'https://market.example.com';

describe('ManagementClient.withOptions', () => {
  it('derives a client with the overrides merged over the options; the original is unchanged', async () => {
    let calls = 0;
    msw.use(
      http.get(`${ROOT}/pixels/1`, () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ message: 'busy' }, { status: 503 })
          : laravel(showBody(wirePixel({ id: 1 })));
      }),
    );
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const order: string[] = [];
    const base = new ManagementClient({
      baseUrl: BASE_URL,
      apiKey: SECRET,
      maxRetries: 0,
      logLevel: 'off',
      headers: { 'x-team': 'growth', 'x-env': 'prod' },
      hooks: { beforeRequest: [() => void order.push('base')] },
    });
    const derived = base.withOptions({
      maxRetries: 1,
      headers: { 'x-env': 'staging' },
      appInfo: { name: 'nightly-audit', version: '2.0.0' },
      hooks: { beforeRequest: [() => void order.push('derived')] },
    });
    expect(derived).toBeInstanceOf(ManagementClient);
    expect(derived).not.toBe(base);

    expect((await derived.pixels.get(1)).id).toBe(1);
    expect(msw.captured).toHaveLength(2);
    expect(msw.captured[1]?.headers).toMatchObject({
      'x-team': 'growth',
      'x-env': 'staging',
      'user-agent': 'content-platform-sdk/0.2.0 nightly-audit/2.0.0',
      authorization: `Bearer ${SECRET}`,
    });
    expect(order).toEqual(['base', 'derived']);

    calls = 0;
    msw.captured.length = 0;
    order.length = 0;
    expect((await failure(base.pixels.get(1))).name).toBe('InternalServerError');
    expect(msw.captured).toHaveLength(1);
    expect(msw.captured[0]?.headers).toMatchObject({
      'x-env': 'prod',
      'user-agent': 'content-platform-sdk/0.2.0',
    });
    expect(order).toEqual(['base']);
  });

  it("a subclass's withOptions builds the subclass, sharing its parent's throttle", async () => {
    msw.use(
      http.get(`${ROOT}/pixels/1`, () =>
        laravel(showBody(wirePixel({ id: 1 })), 200, { 'x-ratelimit-remaining': '7' }),
      ),
    );
    class AcmeClient extends ManagementClient {
      team(): string {
        return 'acme';
      }
    }
    const base = new AcmeClient({ baseUrl: BASE_URL, apiKey: SECRET, logLevel: 'off' });
    const derived = base.withOptions({ timeout: 5_000 });
    expect(derived).toBeInstanceOf(AcmeClient);
    expect(derived.team()).toBe('acme');
    expect((await derived.pixels.get(1)).id).toBe(1);
    expect(msw.captured.map((c) => [c.method, c.url, c.headers.authorization])).toEqual([
      ['GET', `${ROOT}/pixels/1`, `Bearer ${SECRET}`],
    ]);
    // The derived client's answer is the parent's news too: one throttle for both.
    expect(base.rateLimit.remaining).toBe(7);
    expect(ManagementClient.name).toBe('ManagementClient');
  });

  it('an override given as undefined is not given: the parent’s key, URL and settings stay, not the env’s', async () => {
    // Before: `{ apiKey: undefined }` replaced the key with CONTENT_PLATFORM_MANAGEMENT_API_KEY (another workspace),
    // `{ baseUrl: undefined }` the URL with CONTENT_PLATFORM_BASE_URL, and `{ maxRetries: undefined }` the parent's
    // 0 with the default 2.
    vi.stubEnv('CONTENT_PLATFORM_MANAGEMENT_API_KEY', 'env-workspace-key');
    vi.stubEnv('CONTENT_PLATFORM_BASE_URL', 'https://env.example.com');
    msw.use(http.get(`${ROOT}/pixels/1`, () => HttpResponse.json({ message: 'busy' }, { status: 503 })));
    const base = new ManagementClient({ baseUrl: BASE_URL, apiKey: SECRET, maxRetries: 0, logLevel: 'off' });
    const config: { apiKey?: string; baseUrl?: string; maxRetries?: number } = {};
    const derived = base.withOptions({
      apiKey: config.apiKey,
      baseUrl: config.baseUrl,
      maxRetries: config.maxRetries,
    });
    expect((await failure(derived.pixels.get(1))).name).toBe('InternalServerError');
    expect(msw.captured.map((c) => [c.method, c.url, c.headers.authorization])).toEqual([
      ['GET', `${ROOT}/pixels/1`, `Bearer ${SECRET}`],
    ]);
    vi.unstubAllEnvs();
  });

  it('checks the merged options like a constructor does', () => {
    const base = new ManagementClient({ baseUrl: BASE_URL, apiKey: SECRET });
    expect(() => base.withOptions({ timeout: -1 })).toThrow(InvalidParamsError);
    expect(() => base.withOptions({ headers: { Authorization: 'Bearer x' } })).toThrow(InvalidParamsError);
  });
});

describe('CatalogClient.withOptions', () => {
  it('keeps the key and site, and applies the overrides', async () => {
    msw.use(http.get(`${SITE}/api/items/all`, () => HttpResponse.json(ok('items', [anItem()]))));
    const base = new CatalogClient({ siteUrl: SITE, apiKey: 'cat-key', logLevel: 'off' });
    const derived = base.withOptions({ headers: { 'x-job': 'audit' } });
    expect(derived).toBeInstanceOf(CatalogClient);
    await derived.items.list();
    await base.items.list();
    expect(msw.captured.map((c) => [c.url, c.headers['x-job']])).toEqual([
      [`${SITE}/api/items/all?api_key=cat-key`, 'audit'],
      [`${SITE}/api/items/all?api_key=cat-key`, undefined],
    ]);
  });

  it('an override given as undefined keeps the parent’s key and site', async () => {
    vi.stubEnv('CONTENT_PLATFORM_CATALOG_API_KEY', 'env-cat-key');
    vi.stubEnv('CONTENT_PLATFORM_SITE_URL', 'https://env-market.example.com');
    msw.use(http.get(`${SITE}/api/items/all`, () => HttpResponse.json(ok('items', [anItem()]))));
    const base = new CatalogClient({ siteUrl: SITE, apiKey: 'cat-key', logLevel: 'off' });
    await base.withOptions({ apiKey: undefined, siteUrl: undefined }).items.list();
    expect(msw.captured.map((c) => [c.method, c.url])).toEqual([
      ['GET', `${SITE}/api/items/all?api_key=cat-key`],
    ]);
    vi.unstubAllEnvs();
  });
});
