import {
  AccountRequestError,
  AuthenticationError,
  CatalogClient,
  InvalidPurchaseCodeError,
  ItemNotFoundError,
  ManagementClient,
  NoItemsError,
  NotFoundError,
} from 'content-platform-sdk';
import { createReferenceServer } from 'content-platform-sdk/testing';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { anAccount, fail, ok } from '../catalog/fixtures.js';
import { failure, leakSurface } from '../helpers/failure.js';
import { useMsw } from '../helpers/msw.js';
import { BASE_URL, laravel, laravelPage, ROOT, SECRET, wirePixel } from '../management/fixtures.js';

const msw = useMsw();
const SITE = 'https://market.example.com';
const quiet = { logLevel: 'off' as const, maxRetries: 0 };

describe('ManagementClient.verifyCredentials', () => {
  it('sends one cheap request (the first 10 pixels) and resolves when the key is accepted', async () => {
    msw.use(
      http.get(`${ROOT}/pixels`, () =>
        laravel(laravelPage([wirePixel()], { perPage: 10, resource: 'pixels' })),
      ),
    );
    const client = new ManagementClient({ baseUrl: BASE_URL, apiKey: SECRET, ...quiet });
    await expect(client.verifyCredentials()).resolves.toBeUndefined();
    expect(msw.captured.map((c) => [c.method, c.url, c.headers.authorization])).toEqual([
      ['GET', `${ROOT}/pixels?per_page=10`, `Bearer ${SECRET}`],
    ]);
  });

  it('rejects with AuthenticationError when the server refuses the key', async () => {
    msw.use(
      http.get(`${ROOT}/pixels`, () => HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 })),
    );
    const client = new ManagementClient({ baseUrl: BASE_URL, apiKey: SECRET, ...quiet });
    expect(await failure(client.verifyCredentials())).toBeInstanceOf(AuthenticationError);
    expect(msw.captured).toHaveLength(1);
  });

  it('rejects with NotFoundError when baseUrl is not the site root (https://x/api), saying what it should be', async () => {
    const server = createReferenceServer();
    const client = new ManagementClient({
      baseUrl: `${BASE_URL}/api`,
      apiKey: server.keys.management[0],
      fetch: server.fetch,
      ...quiet,
    });
    const error = await failure(client.verifyCredentials());
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe(
      `GET ${BASE_URL}/api/api/v1/pixels?per_page=10 failed with 404: "Resource not found." ` +
        `The URL repeats the API path (/api/api/v1): \`baseUrl\` should be the site root, ${BASE_URL} (the SDK appends /api/v1).`,
    );
  });
});

describe('CatalogClient.verifyCredentials', () => {
  it('asks for the account details once and resolves to the Account', async () => {
    msw.use(
      http.get(`${SITE}/api/account/details`, () =>
        HttpResponse.json(ok('data', anAccount({ username: 'ahmed' }))),
      ),
    );
    const catalog = new CatalogClient({ siteUrl: SITE, apiKey: 'cat-key', ...quiet });
    const account = await catalog.verifyCredentials();
    expect(account.username).toBe('ahmed');
    expect(msw.captured.map((c) => [c.method, c.url])).toEqual([
      ['GET', `${SITE}/api/account/details?api_key=cat-key`],
    ]);
  });

  it("turns the 401 envelope into AuthenticationError, the envelope's error as its cause", async () => {
    msw.use(
      http.get(`${SITE}/api/account/details`, () =>
        HttpResponse.json(fail('الطلب غير ناجح'), { status: 401 }),
      ),
    );
    const catalog = new CatalogClient({ siteUrl: SITE, apiKey: 'cat-key', ...quiet });
    const error = (await failure(catalog.verifyCredentials())) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.status).toBe(401);
    expect(error.cause).toBeInstanceOf(AccountRequestError);
    expect(error.message).toBe(
      `CatalogClient.verifyCredentials: the server refused the API key (GET ${SITE}/api/account/details?api_key=***: ` +
        'the request was unsuccessful (HTTP 401, server said "الطلب غير ناجح")). ' +
        'Check the API key: it came from the `apiKey` option.',
    );
    expect(error.message).not.toContain('cat-key');
  });

  it('names CONTENT_PLATFORM_CATALOG_API_KEY in the message when the key came from it', async () => {
    vi.stubEnv('CONTENT_PLATFORM_CATALOG_API_KEY', 'cat-key');
    msw.use(
      http.get(`${SITE}/api/account/details`, () =>
        HttpResponse.json(fail('Invalid request'), { status: 401 }),
      ),
    );
    const error = await failure(new CatalogClient({ siteUrl: SITE, ...quiet }).verifyCredentials());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toMatch(
      / Check the API key: it came from the environment variable CONTENT_PLATFORM_CATALOG_API_KEY\.$/,
    );
  });

  it('rejects with NotFoundError when siteUrl repeats the API path, saying what the site root is', async () => {
    const server = createReferenceServer();
    const catalog = new CatalogClient({
      siteUrl: `${SITE}/api/api`,
      apiKey: server.keys.catalog[0],
      fetch: server.fetch,
      ...quiet,
    });
    const error = await failure(catalog.verifyCredentials());
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toMatch(
      / The URL repeats the API path \(\/api\/api\): `siteUrl` should be the site root, https:\/\/market\.example\.com \(the SDK appends \/api\)\.$/,
    );
  });

  it('is how a script tells a bad key from real answers: items and validation answer a bad key with 404s', async () => {
    const server = createReferenceServer();
    const catalog = new CatalogClient({ siteUrl: SITE, apiKey: 'not-a-key', fetch: server.fetch, ...quiet });
    const wrongKey =
      ' A wrong API key gets the same answer: check the key with `catalog.verifyCredentials()`.';
    const none = await failure(catalog.items.list());
    expect(none).toBeInstanceOf(NoItemsError);
    expect(none.message.endsWith(wrongKey)).toBe(true);
    const invalid = await failure(catalog.purchases.validate(server.fixtures.purchaseCodes.supported));
    expect(invalid).toBeInstanceOf(InvalidPurchaseCodeError);
    expect(invalid.message.endsWith(wrongKey)).toBe(true);
    expect(await failure(catalog.verifyCredentials())).toBeInstanceOf(AuthenticationError);
    const good = new CatalogClient({
      siteUrl: SITE,
      apiKey: server.keys.catalog[0],
      fetch: server.fetch,
      ...quiet,
    });
    expect((await failure(good.items.get(987_654))).message.endsWith(wrongKey)).toBe(true);
    await expect(good.verifyCredentials()).resolves.toMatchObject({ currency: expect.any(String) });
    // The key is known good now: a "not found" is one, for this client and those derived from it.
    for (const client of [good, good.withOptions({ timeout: 5_000 })]) {
      const missing = await failure(client.items.get(987_654));
      expect(missing).toBeInstanceOf(ItemNotFoundError);
      expect(missing.message).not.toContain('wrong API key');
    }
  });
});

describe('CatalogClient account.details() with a wrong key (the reference server answers 401)', () => {
  const WRONG = 'ck_WRONG_KEY_7f3a';
  const url = `GET ${SITE}/api/account/details?api_key=***`;
  const said = 'the request was unsuccessful (HTTP 401, server said "طلب غير ناجح")';

  it('says to check the key and where it came from, as every 401 does; never shows the key', async () => {
    const server = createReferenceServer();
    const catalog = new CatalogClient({ siteUrl: SITE, apiKey: WRONG, fetch: server.fetch, ...quiet });
    const error = (await failure(catalog.account.details())) as AccountRequestError;
    expect(error).toBeInstanceOf(AccountRequestError);
    expect(error).toMatchObject({ status: 401, code: 'request_unsuccessful', attempts: 1 });
    expect(error.message).toBe(`${url}: ${said}. Check the API key: it came from the \`apiKey\` option.`);
    expect(error.message).not.toContain('verifyCredentials');
    expect(leakSurface(error)).not.toContain(WRONG);
  });

  it('names CONTENT_PLATFORM_CATALOG_API_KEY when the key came from it', async () => {
    vi.stubEnv('CONTENT_PLATFORM_CATALOG_API_KEY', WRONG);
    const server = createReferenceServer();
    const catalog = new CatalogClient({ siteUrl: SITE, fetch: server.fetch, ...quiet });
    const error = await failure(catalog.account.details());
    expect(error.message).toBe(
      `${url}: ${said}. Check the API key: it came from the environment variable CONTENT_PLATFORM_CATALOG_API_KEY.`,
    );
    expect(leakSurface(error)).not.toContain(WRONG);
  });

  it('verifyCredentials() gives that hint once, at the end of its own message', async () => {
    const server = createReferenceServer();
    const catalog = new CatalogClient({ siteUrl: SITE, apiKey: WRONG, fetch: server.fetch, ...quiet });
    const error = await failure(catalog.verifyCredentials());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toBe(
      `CatalogClient.verifyCredentials: the server refused the API key (${url}: ${said}). ` +
        'Check the API key: it came from the `apiKey` option.',
    );
    expect((error.cause as Error).message).toBe(
      `${url}: ${said}. Check the API key: it came from the \`apiKey\` option.`,
    );
    expect(leakSurface(error)).not.toContain(WRONG);
  });
});
