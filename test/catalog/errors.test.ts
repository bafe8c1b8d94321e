import { HttpResponse, http, type JsonBodyType } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  AccountRequestError,
  APIConnectionError,
  APIError,
  CatalogClient,
  CatalogError,
  type CatalogErrorCode,
  InternalServerError,
  InvalidPurchaseCodeError,
  ItemNotFoundError,
  NoItemsError,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
} from '../../src/index.js';
import { failure, leakSurface } from '../helpers/failure.js';
import { useMsw } from '../helpers/msw.js';
import { API, anAccount, aPurchase, fail, KEY, ok, SITE } from './fixtures.js';

const msw = useMsw();
const WRONG_KEY = 'A wrong API key gets the same answer: check the key with `catalog.verifyCredentials()`.';

function catalog(options: ConstructorParameters<typeof CatalogClient>[0] = {}) {
  return new CatalogClient({ siteUrl: SITE, apiKey: KEY, maxRetries: 0, ...options });
}

type Operation = {
  name: string;
  method: 'get' | 'post';
  path: string;
  /** The full URL as error messages show it: the key masked. */
  url: string;
  call: (client: CatalogClient) => Promise<unknown>;
  type: typeof CatalogError;
  code: CatalogErrorCode;
  /** HTTP statuses the condition arrives with: 200 (spec-style) and the real server's. */
  statuses: number[];
  /** The spec's Arabic text, the English default, and spelling variants. */
  messages: string[];
};

const OPERATIONS: Operation[] = [
  {
    name: 'account.details',
    method: 'get',
    path: 'account/details',
    url: `${API}/account/details?api_key=***`,
    call: (client) => client.account.details(),
    type: AccountRequestError,
    code: 'request_unsuccessful',
    statuses: [200, 401, 404],
    messages: [
      'طلب غير ناجح',
      'Invalid request',
      'invalid request.',
      '  طلب   غير\u00a0ناجح  ',
      'طلـــب غير نـاجح',
      'طَلَبٌ غَيْرُ نَاجِحٍ',
      '\u200fطلب غير ناجح\u200f',
    ],
  },
  {
    name: 'items.list',
    method: 'get',
    path: 'items/all',
    url: `${API}/items/all?api_key=***`,
    call: (client) => client.items.list(),
    type: NoItemsError,
    code: 'no_items',
    statuses: [200, 404],
    messages: [
      'لا يوجد أى منتجات',
      'No Items Found',
      'no items found',
      'لا يوجد أي منتجات',
      'لا يوجد اى منتجات',
      'لا يوجد إي منتجات',
      'لايوجد أى منتجات',
      'لا يوجـــد أيّ منتجات',
      'لا يوجد أى منتجات'.normalize('NFD'),
      'ﻻ يوجد أى منتجات',
    ],
  },
  {
    name: 'items.get',
    method: 'get',
    path: 'items/item',
    url: `${API}/items/item?item_id=42&api_key=***`,
    call: (client) => client.items.get(42),
    type: ItemNotFoundError,
    code: 'item_not_found',
    statuses: [200, 404],
    messages: [
      'المنتج غير موجود',
      'Item Not Found',
      'ITEM NOT FOUND',
      'Item  not found.',
      'المنتـــج غير موجود',
      'المُنْتَج غير موجود',
      'المنتج غير موجود.',
    ],
  },
  {
    name: 'purchases.validate',
    method: 'post',
    path: 'purchases/validation',
    url: `${API}/purchases/validation`,
    call: (client) => client.purchases.validate('bad-code'),
    type: InvalidPurchaseCodeError,
    code: 'invalid_purchase_code',
    statuses: [200, 404],
    messages: [
      'كود الشراء غير صحيح',
      'Invalid purchase code',
      'Invalid Purchase Code!',
      'كود  الشراء   غير صحيح',
      'كود الشراء غير صحيح'.normalize('NFD'),
      'كود الشـراء غيـر صحيح',
      'كُود الشِّرَاء غَيْر صَحِيح',
    ],
  },
];

function answer(op: Operation, status: number, body: JsonBodyType) {
  const handler = op.method === 'get' ? http.get : http.post;
  msw.use(handler(`${API}/${op.path}`, () => HttpResponse.json(body, { status })));
}

const matrix = OPERATIONS.flatMap((op) =>
  op.statuses.flatMap((status) =>
    op.messages.map((msg, i) => ({ op, status, msg, word: i % 2 === 0 ? 'خطأ' : 'error' })),
  ),
);

describe('Catalog error envelope', () => {
  it.each(matrix)(
    '$op.name: "$msg" ($word) at HTTP $status → $op.type.name',
    async ({ op, status, msg, word }) => {
      answer(op, status, fail(msg, word));
      const error = await failure(op.call(catalog()));
      expect(error).toBeInstanceOf(op.type);
      expect(error).toBeInstanceOf(CatalogError);
      expect(error).toBeInstanceOf(APIError);
      const catalogError = error as CatalogError;
      expect(catalogError.name).toBe(op.type.name);
      expect(catalogError.code).toBe(op.code);
      expect(catalogError.msg).toBe(msg);
      expect(catalogError.status).toBe(status);
      expect(catalogError.body).toEqual({ status: word, msg });
      // The method and the full URL (the key masked), so an ops log shows which host failed.
      expect(catalogError.message).toContain(`${op.method.toUpperCase()} ${API}/${op.path}`);
      expect(catalogError.message).not.toContain(KEY);
      expect(catalogError.message).toContain(`server said ${JSON.stringify(msg)}`);
      expect(catalogError.toJSON()).toMatchObject({ name: op.type.name, code: op.code, msg, status });
      expect(msw.captured).toHaveLength(1);
    },
  );

  it('reads as English with the Arabic text quoted', async () => {
    answer(OPERATIONS[2]!, 404, fail('المنتج غير موجود'));
    const error = await failure(catalog().items.get(42));
    expect(error.message).toBe(
      `GET ${API}/items/item?item_id=42&api_key=***: item not found (HTTP 404, server said "المنتج غير موجود"). ` +
        WRONG_KEY,
    );
  });

  it.each([
    ['خطا', 'Item Not Found'],
    ['Error', 'المنتج غير موجود'],
    [' ERROR ', 'المنتج غير موجود'],
    ['خطـأ', 'المنتج غير موجود'],
  ])('accepts the status word %j', async (word, msg) => {
    answer(OPERATIONS[2]!, 200, fail(msg, word));
    expect(await failure(catalog().items.get(42))).toBeInstanceOf(ItemNotFoundError);
  });

  it('matches the message whatever the endpoint: "Invalid request" for a bad key on items/all', async () => {
    answer(OPERATIONS[1]!, 404, fail('Invalid request', 'error'));
    const error = (await failure(catalog().items.list())) as CatalogError;
    expect(error).toBeInstanceOf(AccountRequestError);
    expect(error.code).toBe('request_unsuccessful');
  });

  it('treats an envelope with an unknown status word and a msg as an error (a translated word)', async () => {
    answer(OPERATIONS[2]!, 200, fail('Article introuvable', 'Erreur'));
    const error = (await failure(catalog().items.get(42))) as CatalogError;
    expect(error).toBeInstanceOf(CatalogError);
    expect(error.code).toBe('unknown');
    expect(error.msg).toBe('Article introuvable');
  });

  it('builds an error from an envelope without msg', async () => {
    answer(OPERATIONS[0]!, 200, { status: 'خطأ' });
    const error = (await failure(catalog().account.details())) as CatalogError;
    expect(error.constructor).toBe(CatalogError);
    expect(error.msg).toBe('');
    expect(error.message).toBe(
      `GET ${API}/account/details?api_key=***: the server reported an error (HTTP 200, the server gave no message)`,
    );
  });

  it('is not retried when sent with 200 or 404', async () => {
    answer(OPERATIONS[2]!, 404, fail('المنتج غير موجود'));
    await failure(catalog({ maxRetries: 2 }).items.get(42));
    expect(msw.captured).toHaveLength(1);
  });
});

describe('Catalog errors a wrong key also gets', () => {
  it.each([
    [
      OPERATIONS[1]!,
      `GET ${API}/items/all?api_key=***: no items found (HTTP 404, server said "No Items Found")`,
    ],
    [
      OPERATIONS[2]!,
      `GET ${API}/items/item?item_id=42&api_key=***: item not found (HTTP 404, server said "Item Not Found")`,
    ],
    [
      OPERATIONS[3]!,
      `POST ${API}/purchases/validation: invalid purchase code (HTTP 404, server said "Invalid purchase code")`,
    ],
  ])('$name says a wrong key answers the same, and names verifyCredentials()', async (op, said) => {
    const msg =
      { 'items.list': 'No Items Found', 'items.get': 'Item Not Found' }[op.name] ?? 'Invalid purchase code';
    answer(op, 404, fail(msg, 'error'));
    const error = await failure(op.call(catalog()));
    expect(error).toBeInstanceOf(op.type);
    expect(error.message).toBe(`${said}. ${WRONG_KEY}`);
  });

  it("account details' 401, the answer a wrong key gets there, ends with the key hint every 401 gives", async () => {
    answer(OPERATIONS[0]!, 401, fail('Invalid request', 'error'));
    const error = await failure(catalog().account.details());
    expect(error.message).toBe(
      `GET ${API}/account/details?api_key=***: the request was unsuccessful (HTTP 401, server said "Invalid request"). ` +
        'Check the API key: it came from the `apiKey` option.',
    );
    expect(leakSurface(error)).not.toContain(KEY);
    // Sent with another status, the envelope says nothing of the key: it is not a refusal of it.
    answer(OPERATIONS[0]!, 200, fail('Invalid request', 'error'));
    expect((await failure(catalog().account.details())).message).toBe(
      `GET ${API}/account/details?api_key=***: the request was unsuccessful (HTTP 200, server said "Invalid request")`,
    );
  });

  it('drops the advice once a call succeeded with the key, for the clients derived with it too', async () => {
    msw.use(
      http.get(`${API}/account/details`, () => HttpResponse.json(ok('data', anAccount()))),
      http.get(`${API}/items/item`, () =>
        HttpResponse.json(fail('Item Not Found', 'error'), { status: 404 }),
      ),
    );
    const client = catalog();
    const derived = client.withOptions({ timeout: 5_000 });
    expect((await failure(derived.items.get(42))).message).toContain(WRONG_KEY);
    await client.verifyCredentials();
    const plain = `GET ${API}/items/item?item_id=42&api_key=***: item not found (HTTP 404, server said "Item Not Found")`;
    expect((await failure(client.items.get(42))).message).toBe(plain);
    expect((await failure(derived.items.get(42))).message).toBe(plain);
    expect((await failure(client.withOptions({ maxRetries: 1 }).items.get(42))).message).toBe(plain);
    // Another key, or the same key on a client of its own, has proved nothing yet.
    expect((await failure(client.withOptions({ apiKey: 'another' }).items.get(42))).message).toContain(
      WRONG_KEY,
    );
    expect((await failure(catalog().items.get(42))).message).toContain(WRONG_KEY);
  });
});

describe('Catalog error fallbacks for an unknown msg', () => {
  const ODD = 'حدث شيء غير متوقع';

  it.each([
    [0, 401, AccountRequestError, 'request_unsuccessful'],
    [1, 404, NoItemsError, 'no_items'],
    [2, 404, ItemNotFoundError, 'item_not_found'],
    [3, 404, InvalidPurchaseCodeError, 'invalid_purchase_code'],
  ] as const)(
    'operation %i at HTTP %i falls back to the endpoint condition',
    async (index, status, type, code) => {
      const op = OPERATIONS[index]!;
      answer(op, status, fail(ODD));
      const error = (await failure(op.call(catalog()))) as CatalogError;
      expect(error).toBeInstanceOf(type);
      expect(error.code).toBe(code);
      expect(error.msg).toBe(ODD);
    },
  );

  it.each(OPERATIONS)('$name: a 400 with a Laravel message is CatalogError bad_request', async (op) => {
    answer(op, 400, fail('The api key field is required.', 'error'));
    const error = (await failure(op.call(catalog()))) as CatalogError;
    expect(error.constructor).toBe(CatalogError);
    expect(error.name).toBe('CatalogError');
    expect(error.code).toBe('bad_request');
    expect(error.status).toBe(400);
    expect(error.msg).toBe('The api key field is required.');
    expect(error.message).toBe(
      `${op.method.toUpperCase()} ${op.url}: the request was rejected (HTTP 400, server said "The api key field is required.")`,
    );
  });

  it.each([
    [0, 200],
    [0, 404],
    [1, 200],
    [1, 401],
    [2, 200],
    [2, 401],
    [3, 200],
    [3, 500],
  ] as const)(
    'operation %i at HTTP %i, where the status does not agree, is CatalogError unknown',
    async (index, status) => {
      const op = OPERATIONS[index]!;
      answer(op, status, fail(ODD));
      const error = (await failure(op.call(catalog()))) as CatalogError;
      expect(error.constructor).toBe(CatalogError);
      expect(error.code).toBe('unknown');
      expect(error.status).toBe(status);
      expect(error.msg).toBe(ODD);
    },
  );
});

describe('Catalog answers that are not the envelope', () => {
  it('an HTML 502 is InternalServerError', async () => {
    msw.use(
      http.get(
        `${API}/items/all`,
        () =>
          new HttpResponse('<html><body>Bad Gateway</body></html>', {
            status: 502,
            headers: { 'content-type': 'text/html' },
          }),
      ),
    );
    const error = await failure(catalog().items.list());
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).not.toBeInstanceOf(CatalogError);
    expect(error.message).toMatch(/HTML page/);
  });

  it('a 429 is RateLimitError with retryAfter', async () => {
    msw.use(
      http.get(`${API}/items/item`, () =>
        HttpResponse.json(
          { message: 'Too Many Attempts.' },
          { status: 429, headers: { 'retry-after': '30' } },
        ),
      ),
    );
    const error = (await failure(catalog().items.get(1))) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfter).toBe(30);
  });

  it('a plain 404 page is NotFoundError', async () => {
    msw.use(http.get(`${API}/account/details`, () => new HttpResponse('Not Found', { status: 404 })));
    const error = await failure(catalog().account.details());
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).not.toBeInstanceOf(CatalogError);
  });

  it('a redirect (the server bouncing a browser user agent) is not followed', async () => {
    msw.use(
      http.get(
        `${API}/items/all`,
        () => new HttpResponse(null, { status: 302, headers: { location: SITE } }),
      ),
    );
    const error = await failure(catalog().items.list());
    expect(error).toBeInstanceOf(APIError);
    expect(error.message).toMatch(/redirect/);
    expect(msw.captured).toHaveLength(1);
  });

  it.each([
    ['an unknown status word', { status: 'pending', items: [] }],
    ['no status', { items: [] }],
    ['the success word without its key', ok('data', [])],
    ['a malformed item', ok('items', [{ id: 'x' }])],
  ])('%s on a 2xx is ResponseValidationError', async (_, body) => {
    msw.use(http.get(`${API}/items/all`, () => HttpResponse.json(body)));
    const error = await failure(catalog().items.list());
    expect(error).toBeInstanceOf(ResponseValidationError);
  });

  it('an HTML 200 is ResponseValidationError', async () => {
    msw.use(
      http.get(
        `${API}/items/all`,
        () => new HttpResponse('<html>hi</html>', { headers: { 'content-type': 'text/html' } }),
      ),
    );
    expect(await failure(catalog().items.list())).toBeInstanceOf(ResponseValidationError);
  });

  it('retries the read-only purchase validation POST on a 503', async () => {
    let calls = 0;
    msw.use(
      http.post(`${API}/purchases/validation`, () => {
        calls += 1;
        if (calls === 1)
          return HttpResponse.json({ message: 'busy' }, { status: 503, headers: { 'retry-after': '0' } });
        return HttpResponse.json(ok('data', { purchase: aPurchase() }));
      }),
    );
    const logged: [string, unknown][] = [];
    const logger = { ...console, info: (line: string, fields: unknown) => logged.push([line, fields]) };
    const client = catalog({ maxRetries: 1, logger, logLevel: 'info' });
    const purchase = await client.purchases.validate(aPurchase().purchase_code);
    expect(purchase.price).toBe(19.5);
    expect(logged.filter(([line]) => line.includes(': retry '))).toEqual([
      [
        `[content-platform-sdk] POST ${API}/purchases/validation: retry 1 of 1 in 0 ms after HTTP 503`,
        { method: 'POST', url: `${API}/purchases/validation`, attempt: 1, retryInMs: 0, status: 503 },
      ],
    ]);
    expect(msw.captured).toHaveLength(2);
    expect(msw.captured.map((request) => JSON.parse(request.body).api_key)).toEqual([KEY, KEY]);
  });
});

describe('Catalog errors never show the API key', () => {
  const cases: [string, () => void, (client: CatalogClient) => Promise<unknown>][] = [
    [
      'an envelope at 200',
      () => answer(OPERATIONS[2]!, 200, fail('المنتج غير موجود')),
      (c) => c.items.get(1),
    ],
    [
      'an envelope at 404',
      () => answer(OPERATIONS[3]!, 404, fail('كود الشراء غير صحيح')),
      (c) => c.purchases.validate('x'),
    ],
    [
      'an envelope echoing the key at 200',
      () => answer(OPERATIONS[0]!, 200, fail(`Invalid key ${KEY}`)),
      (c) => c.account.details(),
    ],
    [
      'an envelope echoing the key at 400',
      () => answer(OPERATIONS[1]!, 400, fail(`The api key ${KEY} is invalid.`)),
      (c) => c.items.list(),
    ],
    [
      'an envelope echoing the key in another field at 200',
      () => answer(OPERATIONS[1]!, 200, { status: 'error', msg: 'No Items Found', key: KEY }),
      (c) => c.items.list(),
    ],
    [
      'an HTML 502 echoing the key',
      () =>
        msw.use(
          http.get(
            `${API}/items/all`,
            () =>
              new HttpResponse(`<p>${KEY}</p>`, { status: 502, headers: { 'content-type': 'text/html' } }),
          ),
        ),
      (c) => c.items.list(),
    ],
    [
      'a connection failure',
      () => msw.use(http.get(`${API}/items/all`, () => HttpResponse.error())),
      (c) => c.items.list(),
    ],
  ];

  it.each(cases)('%s', async (_, setup, call) => {
    setup();
    const error = await failure(call(catalog()));
    expect(error).toBeInstanceOf(error instanceof APIConnectionError ? APIConnectionError : APIError);
    expect(leakSurface(error)).not.toContain(KEY);
  });

  it('replaces an echoed key in msg with ***', async () => {
    answer(OPERATIONS[0]!, 200, fail(`Invalid key ${KEY}`));
    const error = (await failure(catalog().account.details())) as CatalogError;
    expect(error.msg).toBe('Invalid key ***');
  });
});
