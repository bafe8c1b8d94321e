import {
  AccountRequestError,
  AuthenticationError,
  CatalogClient,
  InvalidPurchaseCodeError,
  ManagementClient,
  NoItemsError,
} from 'content-platform-sdk';
import { createReferenceServer } from 'content-platform-sdk/testing';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { anAccount, fail, ok } from '../catalog/fixtures.js';
import { failure } from '../helpers/failure.js';
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
    expect(error.message).toMatch(/^CatalogClient\.verifyCredentials: the server refused the API key \(/);
    expect(error.message).not.toContain('cat-key');
  });

  it('is how a script tells a bad key from real answers: items and validation answer a bad key with 404s', async () => {
    const server = createReferenceServer();
    const catalog = new CatalogClient({ siteUrl: SITE, apiKey: 'not-a-key', fetch: server.fetch, ...quiet });
    expect(await failure(catalog.items.list())).toBeInstanceOf(NoItemsError);
    expect(await failure(catalog.purchases.validate(server.fixtures.purchaseCodes.supported))).toBeInstanceOf(
      InvalidPurchaseCodeError,
    );
    expect(await failure(catalog.verifyCredentials())).toBeInstanceOf(AuthenticationError);
    const good = new CatalogClient({
      siteUrl: SITE,
      apiKey: server.keys.catalog[0],
      fetch: server.fetch,
      ...quiet,
    });
    await expect(good.verifyCredentials()).resolves.toMatchObject({ currency: expect.any(String) });
  });
});
