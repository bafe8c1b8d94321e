import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import {
  APIPromise,
  CatalogClient,
  InvalidParamsError,
  isAudioItem,
  isImageItem,
  isVideoItem,
  ResponseValidationError,
} from '../../src/index.js';
import { useMsw } from '../helpers/msw.js';
import { API, anAccount, anAudioItem, anItem, aPurchase, aVideoItem, KEY, ok, SITE } from './fixtures.js';

const msw = useMsw();

function catalog(options: ConstructorParameters<typeof CatalogClient>[0] = {}) {
  return new CatalogClient({ siteUrl: SITE, apiKey: KEY, maxRetries: 0, ...options });
}

/** The one request of the test, with the headers every Catalog request carries. */
function sent() {
  expect(msw.captured).toHaveLength(1);
  const request = msw.captured[0]!;
  expect(request.headers).toMatchObject({
    accept: 'application/json',
    'user-agent': 'content-platform-sdk/0.2.0',
  });
  expect(request.headers['user-agent']).not.toMatch(/Mozilla|Chrome|Firefox|Opera|Edge/);
  expect(request.headers.authorization).toBeUndefined();
  return request;
}

describe('CatalogClient', () => {
  it('needs a key and a site URL at construction', () => {
    expect(() => new CatalogClient({ siteUrl: SITE })).toThrow(InvalidParamsError);
    expect(() => new CatalogClient({ apiKey: KEY })).toThrow(/siteUrl|CONTENT_PLATFORM_SITE_URL/);
  });

  it('does not take the Management key from the environment: it fails at construction, naming its variable', () => {
    vi.stubEnv('CONTENT_PLATFORM_MANAGEMENT_API_KEY', 'management-key');
    vi.stubEnv('CONTENT_PLATFORM_API_KEY', 'shared-key');
    vi.stubEnv('CONTENT_PLATFORM_CATALOG_API_KEY', '');
    expect(() => new CatalogClient({ siteUrl: SITE })).toThrow(
      'CatalogClient needs an API key: pass `apiKey` or set CONTENT_PLATFORM_CATALOG_API_KEY.',
    );
    expect(msw.captured).toHaveLength(0);
  });

  it('reads the key and the site URL from the environment', async ({ onTestFinished }) => {
    process.env.CONTENT_PLATFORM_CATALOG_API_KEY = KEY;
    process.env.CONTENT_PLATFORM_SITE_URL = SITE;
    onTestFinished(() => {
      delete process.env.CONTENT_PLATFORM_CATALOG_API_KEY;
      delete process.env.CONTENT_PLATFORM_SITE_URL;
    });
    msw.use(http.get(`${API}/items/all`, () => HttpResponse.json(ok('items', []))));
    await expect(new CatalogClient({ maxRetries: 0 }).items.list()).resolves.toEqual([]);
    expect(sent().url).toBe(`${API}/items/all?api_key=${KEY}`);
  });

  it.each([SITE, `${SITE}/`, `${SITE}/api`, `${SITE}/api/`])(
    'appends /api to the site URL %s once',
    async (siteUrl) => {
      msw.use(http.get(`${API}/account/details`, () => HttpResponse.json(ok('data', anAccount()))));
      await catalog({ siteUrl }).account.details();
      expect(sent().url).toBe(`${API}/account/details?api_key=${KEY}`);
    },
  );
});

describe('CatalogClient.account.details', () => {
  it('sends GET /api/account/details?api_key=KEY and returns the Account', async () => {
    msw.use(http.get(`${API}/account/details`, () => HttpResponse.json(ok('data', anAccount()))));
    const account = await catalog().account.details();
    const request = sent();
    expect(request.method).toBe('GET');
    expect(request.url).toBe(`${API}/account/details?api_key=${KEY}`);
    expect(request.body).toBe('');
    expect(account).toEqual(anAccount());
  });

  it('gives the raw Response with the result, from one request', async () => {
    msw.use(
      http.get(`${API}/account/details`, () =>
        HttpResponse.json(ok('data', anAccount()), { headers: { 'x-request-id': 'r-1' } }),
      ),
    );
    const promise = catalog().account.details();
    expect(promise).toBeInstanceOf(APIPromise);
    const { data, response } = await promise.withResponse();
    expect(data.username).toBe('layla');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('r-1');
    expect(msw.captured).toHaveLength(1);
  });

  it('sends per-call headers and the client headers', async () => {
    msw.use(http.get(`${API}/account/details`, () => HttpResponse.json(ok('data', anAccount()))));
    await catalog({ headers: { 'x-client': 'a' } }).account.details({ headers: { 'x-call': 'b' } });
    expect(sent().headers).toMatchObject({ 'x-client': 'a', 'x-call': 'b' });
  });

  it('refuses a header value with a CR or LF at construction and per call, sending nothing', async () => {
    const headers = { 'x-trace-id': `${KEY}\r\nX-Injected: 1` };
    expect(() => catalog({ headers })).toThrow(InvalidParamsError);
    expect(() => catalog({ headers })).toThrow('headers: the value of "x-trace-id" has a CR, LF or NUL');
    const error = await catalog()
      .account.details({ headers })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as InvalidParamsError).attempts).toBe(0);
    expect((error as Error).message).not.toContain(KEY);
    expect(msw.captured).toHaveLength(0);
  });
});

describe('CatalogClient.items.list', () => {
  it('sends GET /api/items/all?api_key=KEY and returns the Item list', async () => {
    msw.use(
      http.get(`${API}/items/all`, () =>
        HttpResponse.json(ok('items', [anItem(), anAudioItem(), aVideoItem()])),
      ),
    );
    const items = await catalog().items.list();
    const request = sent();
    expect(request.method).toBe('GET');
    expect(request.url).toBe(`${API}/items/all?api_key=${KEY}`);
    expect(items.map((item) => [item.id, item.media.kind])).toEqual([
      [42, 'image'],
      [7, 'audio'],
      [8, 'video'],
    ]);
    expect(items[1]).toEqual({
      id: 7,
      name: 'Calm Loop',
      description: '<p>A <b>landing</b> page kit.</p>',
      category: 'Audio',
      sub_category: null,
      options: null,
      version: null,
      demo_link: null,
      tags: ['ambient', 'loop', 'calm'],
      media: {
        kind: 'audio',
        thumbnail: 'https://cdn.example.com/7/thumb.jpg',
        preview_audio: 'https://cdn.example.com/7/preview.mp3',
        screenshots: [],
      },
      price: { regular: 19.5, extended: 99 },
      currency: 'USD',
      published_at: '2024-05-01T10:00:00.000000Z',
    });
  });

  it('narrows items with the type guards', async () => {
    msw.use(
      http.get(`${API}/items/all`, () =>
        HttpResponse.json(ok('items', [anItem(), anAudioItem(), aVideoItem()])),
      ),
    );
    const items = await catalog().items.list();
    expect(items.filter(isAudioItem).map((item) => item.media.preview_audio)).toEqual([
      'https://cdn.example.com/7/preview.mp3',
    ]);
    expect(items.filter(isVideoItem).map((item) => item.media.preview_video)).toEqual([
      'https://cdn.example.com/8/preview.mp4',
    ]);
    expect(items.filter(isImageItem).map((item) => item.id)).toEqual([42]);
  });

  it('accepts the English success word and an empty list', async () => {
    msw.use(http.get(`${API}/items/all`, () => HttpResponse.json(ok('items', [], 'success'))));
    await expect(catalog().items.list()).resolves.toEqual([]);
  });
});

describe('CatalogClient.items.get', () => {
  it.each([42, '42'])('sends GET /api/items/item?item_id=42&api_key=KEY for %j', async (itemId) => {
    msw.use(http.get(`${API}/items/item`, () => HttpResponse.json(ok('item', anItem()))));
    const item = await catalog().items.get(itemId);
    const request = sent();
    expect(request.method).toBe('GET');
    expect(request.url).toBe(`${API}/items/item?item_id=42&api_key=${KEY}`);
    expect(item).toEqual({
      ...anItem(),
      media: {
        kind: 'image',
        thumbnail: 'https://cdn.example.com/42/thumb.jpg',
        preview_image: 'https://cdn.example.com/42/preview.jpg',
        screenshots: ['https://cdn.example.com/42/s1.jpg', 'https://cdn.example.com/42/s2.jpg'],
      },
    });
  });

  it.each([-1, 1.5, '', '../x', '1/2', '42 ', 'abc', null, undefined, Number.NaN])(
    'rejects the item id %j before any request',
    async (itemId) => {
      await expect(catalog().items.get(itemId as never)).rejects.toBeInstanceOf(InvalidParamsError);
      expect(msw.captured).toHaveLength(0);
    },
  );

  it('names the parameter in the InvalidParamsError, through every way of reading the promise', async () => {
    const error = await catalog()
      .items.get('../x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as InvalidParamsError).param).toBe('itemId');
    await expect(catalog().items.get('../x').withResponse()).rejects.toBeInstanceOf(InvalidParamsError);
  });
});

describe('CatalogClient.purchases.validate', () => {
  const CODE = '0c7a3d2e-5b1f-4c6a-9e8d-2f4b6a8c0d1e';

  it('sends POST /api/purchases/validation with the code and the key in a JSON body', async () => {
    msw.use(
      http.post(`${API}/purchases/validation`, () =>
        HttpResponse.json(ok('data', { purchase: aPurchase() })),
      ),
    );
    const purchase = await catalog().purchases.validate(CODE);
    const request = sent();
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`${API}/purchases/validation`);
    expect(request.url).not.toContain(KEY);
    expect(request.headers['content-type']).toMatch(/^application\/json/);
    expect(request.body).toBe(`{"purchase_code":"${CODE}","api_key":"${KEY}"}`);
    expect(purchase).toEqual({
      ...aPurchase(),
      item: { ...anItem(), media: { kind: 'image', ...anItem().media } },
      // The fixture's 'ترخيص عادي', read as a language-free kind.
      license: 'regular',
    });
  });

  it('trims whitespace around the code', async () => {
    msw.use(
      http.post(`${API}/purchases/validation`, () =>
        HttpResponse.json(ok('data', { purchase: aPurchase() })),
      ),
    );
    await catalog().purchases.validate(`  ${CODE}\n`);
    expect(JSON.parse(sent().body)).toEqual({ purchase_code: CODE, api_key: KEY });
  });

  it('reads the purchase under `item`, as the real server sends it', async () => {
    msw.use(
      http.post(`${API}/purchases/validation`, () =>
        HttpResponse.json(ok('item', aPurchase({ supported_until: null, downloaded: 0 }), 'success')),
      ),
    );
    const purchase = await catalog().purchases.validate(CODE);
    expect(purchase.purchase_code).toBe(CODE);
    expect(purchase.downloaded).toBe(false);
    expect(purchase).not.toHaveProperty('supported_until');
    expect(purchase.item.id).toBe(42);
  });

  it('fails an answer about another code: ResponseValidationError, neither code in its texts or the log', async () => {
    const other = 'ffffffff-5b1f-4c6a-9e8d-00000000beef';
    msw.use(
      http.post(`${API}/purchases/validation`, () =>
        HttpResponse.json(ok('data', { purchase: aPurchase({ purchase_code: other }) }), { status: 201 }),
      ),
    );
    const lines: string[] = [];
    const write = (...args: unknown[]) => lines.push(JSON.stringify(args));
    const logger = { error: write, warn: write, info: write, debug: write };
    const error = await catalog({ logger, logLevel: 'debug' })
      .purchases.validate(CODE)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    const invalid = error as ResponseValidationError;
    expect(invalid.message).toBe(
      `POST ${API}/purchases/validation: the answer is about purchase code ***beef, not ***0d1e.`,
    );
    expect(invalid.status).toBe(201);
    expect(invalid.attempts).toBe(1);
    expect(invalid.issues).toEqual([{ path: ['purchase_code'], message: 'expected ***0d1e, got ***beef' }]);
    expect((invalid.body as { purchase_code: string }).purchase_code).toBe('***beef');
    const shown = [invalid.message, JSON.stringify(invalid), inspect(invalid, { depth: 12 }), ...lines].join(
      '\n',
    );
    expect(lines.length).toBeGreaterThan(0);
    for (const code of [CODE, other, KEY]) expect(shown).not.toContain(code);
  });

  it('accepts an answer that spells the code in another case or with spaces around it', async () => {
    msw.use(
      http.post(`${API}/purchases/validation`, () =>
        HttpResponse.json(ok('data', { purchase: aPurchase({ purchase_code: ` ${CODE.toUpperCase()}` }) })),
      ),
    );
    await expect(catalog().purchases.validate(CODE)).resolves.toMatchObject({ item: { id: 42 } });
  });

  it.each(['', '   ', null, undefined, 42])(
    'rejects the purchase code %j before any request',
    async (code) => {
      await expect(catalog().purchases.validate(code as never)).rejects.toBeInstanceOf(InvalidParamsError);
      expect(msw.captured).toHaveLength(0);
    },
  );

  it('fails clearly when the success envelope has no purchase', async () => {
    msw.use(http.post(`${API}/purchases/validation`, () => HttpResponse.json(ok('data', {}))));
    const error = await catalog()
      .purchases.validate(CODE)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).message).toMatch(/data\.purchase/);
  });
});
