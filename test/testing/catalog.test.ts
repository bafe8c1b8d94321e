import { describe, expect, it } from 'vitest';
import { ORIGIN, read, setup } from './helpers.js';

const AR = {
  success: 'تم بنجاح',
  error: 'خطأ',
  requestUnsuccessful: 'طلب غير ناجح',
  noItems: 'لا يوجد أى منتجات',
  itemNotFound: 'المنتج غير موجود',
  invalidPurchaseCode: 'كود الشراء غير صحيح',
};

describe('Catalog account details', () => {
  it('returns the account of the key (query) with the Arabic success word', async () => {
    const { catalog, catalogKey } = setup();
    const { status, body } = await read(
      await catalog('GET', 'account/details', { query: { api_key: catalogKey } }),
    );
    expect(status).toBe(200);
    expect(body.status).toBe(AR.success);
    expect(body.data.name).toEqual({ firstname: 'Ahmed', lastname: 'Hassan', full_name: 'Ahmed Hassan' });
    expect(body.data.profile.heading).toBe('مطور قوالب وإضافات');
    expect(body.data.profile.social_links).toEqual({
      facebook: 'https://facebook.com/ahmedhassan',
      x: 'https://x.com/ahmedhassan',
    });
    expect(body.data.balance).toBe(1520.75);
    expect(body.data.registered_at).toBe('2020-03-01T08:00:00.000000Z');
  });

  it('answers 401 طلب غير ناجح for a wrong key', async () => {
    const { catalog } = setup();
    expect(await read(await catalog('GET', 'account/details', { query: { api_key: 'wrong' } }))).toEqual({
      status: 401,
      body: { status: AR.error, msg: AR.requestUnsuccessful },
    });
  });

  it('answers 400 with a Laravel message when api_key is missing or blank', async () => {
    const { catalog } = setup();
    const missing = { status: 400, body: { status: AR.error, msg: 'The api key field is required.' } };
    expect(await read(await catalog('GET', 'account/details'))).toEqual(missing);
    expect(await read(await catalog('GET', 'account/details', { query: { api_key: ' ' } }))).toEqual(missing);
  });

  it('ignores a key sent in headers', async () => {
    const { catalog, catalogKey } = setup();
    const res = await catalog('GET', 'items/all', {
      headers: { authorization: `Bearer ${catalogKey}`, 'x-api-key': catalogKey },
    });
    expect(res.status).toBe(400);
  });

  it('redirects browsers (by User-Agent) to the site root', async () => {
    const { catalog, catalogKey } = setup();
    for (const ua of ['Mozilla/5.0', 'something Chrome/120', 'Opera', 'Edge', 'Firefox']) {
      const res = await catalog('GET', 'items/all', {
        query: { api_key: catalogKey },
        headers: { 'user-agent': ua },
      });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`${ORIGIN}/`);
    }
  });
});

describe('Catalog items', () => {
  it('lists the key items in the laravel shapes (comma tags, index-keyed screenshots)', async () => {
    const { catalog, catalogKey } = setup();
    const { status, body } = await read(
      await catalog('GET', 'items/all', { query: { api_key: catalogKey } }),
    );
    expect(status).toBe(200);
    expect(body.status).toBe(AR.success);
    expect(body.items.map((i: { id: number }) => i.id)).toEqual([
      101, 102, 103, 104, 105, 106, 107, 108, 109,
    ]);
    const [image] = body.items;
    expect(image.tags).toBe('image,premium,pack-1');
    expect(image.media).toEqual({
      thumbnail: 'https://cdn.market.example.com/items/101/thumb.jpg',
      preview_image: 'https://cdn.market.example.com/items/101/preview.jpg',
      screenshots: {
        0: 'https://cdn.market.example.com/items/101/screenshots/1.jpg',
        1: 'https://cdn.market.example.com/items/101/screenshots/2.jpg',
      },
    });
    expect(image.price).toEqual({ regular: 11.99, extended: 60.5 });
    expect(image.options).toEqual({ License: ['Regular', 'Extended'], Format: 'ZIP' });
  });

  it('gives audio items preview_audio and no preview_image; video items preview_video', async () => {
    const { catalog, catalogKey } = setup();
    const { body } = await read(await catalog('GET', 'items/all', { query: { api_key: catalogKey } }));
    expect(body.items[3].media).toEqual({
      thumbnail: 'https://cdn.market.example.com/items/104/thumb.jpg',
      preview_audio: 'https://cdn.market.example.com/items/104/preview.mp3',
      screenshots: null,
    });
    expect(body.items[6].media.preview_video).toBe('https://cdn.market.example.com/items/107/preview.mp4');
    expect(body.items[5]).toMatchObject({
      sub_category: null,
      demo_link: null,
      options: null,
      version: null,
    });
  });

  it('answers 404 لا يوجد أى منتجات for an account with no items and for a wrong key', async () => {
    const { catalog, noItemsKey } = setup();
    const none = { status: 404, body: { status: AR.error, msg: AR.noItems } };
    expect(await read(await catalog('GET', 'items/all', { query: { api_key: noItemsKey } }))).toEqual(none);
    expect(await read(await catalog('GET', 'items/all', { query: { api_key: 'wrong' } }))).toEqual(none);
  });

  it('seeds many items on request (cycling the kinds)', async () => {
    const { catalog, catalogKey, server } = setup({ seed: { items: 60 } });
    const { body } = await read(await catalog('GET', 'items/all', { query: { api_key: catalogKey } }));
    expect(body.items).toHaveLength(69);
    expect(server.store.items().at(-1)?.id).toBe(169);
  });

  it('reads one item by item_id; 404 المنتج غير موجود when absent or another key', async () => {
    const { catalog, catalogKey, noItemsKey } = setup();
    const { body } = await read(
      await catalog('GET', 'items/item', { query: { api_key: catalogKey, item_id: '105' } }),
    );
    expect(body.item.id).toBe(105);
    expect(body.item.name).toBe('Audio Item 2');
    const missing = { status: 404, body: { status: AR.error, msg: AR.itemNotFound } };
    expect(
      await read(await catalog('GET', 'items/item', { query: { api_key: catalogKey, item_id: '999999' } })),
    ).toEqual(missing);
    expect(
      await read(await catalog('GET', 'items/item', { query: { api_key: noItemsKey, item_id: '105' } })),
    ).toEqual(missing);
    expect(
      await read(await catalog('GET', 'items/item', { query: { api_key: 'bad', item_id: '105' } })),
    ).toEqual(missing);
  });

  it('answers 400 for a missing or non-integer item_id', async () => {
    const { catalog, catalogKey } = setup();
    expect(await read(await catalog('GET', 'items/item', { query: { api_key: catalogKey } }))).toEqual({
      status: 400,
      body: { status: AR.error, msg: 'The item id field is required.' },
    });
    expect(
      await read(await catalog('GET', 'items/item', { query: { api_key: catalogKey, item_id: '1.5' } })),
    ).toEqual({
      status: 400,
      body: { status: AR.error, msg: 'The item id field must be an integer.' },
    });
  });

  it('answers 405 for a POST to a GET endpoint', async () => {
    const { catalog } = setup();
    expect((await catalog('POST', 'items/all')).status).toBe(405);
  });
});

describe('Catalog purchase validation', () => {
  it('validates a supported code (JSON body) with the purchase under item (laravel)', async () => {
    const { catalog, catalogKey, server } = setup();
    const code = server.fixtures.purchaseCodes.supported;
    const { status, body } = await read(
      await catalog('POST', 'purchases/validation', { json: { api_key: catalogKey, purchase_code: code } }),
    );
    expect(status).toBe(200);
    expect(body.status).toBe(AR.success);
    expect(body.data).toBeUndefined();
    const { item, ...purchase } = body.item;
    expect(purchase).toEqual({
      purchase_code: code,
      license_type: 'رخصة عادية',
      price: 11.99,
      currency: 'USD',
      supported_until: '2099-12-31T23:59:59.000000Z',
      downloaded: false,
      date: '2025-01-15T10:20:30.000000Z',
    });
    expect(item.id).toBe(101);
    expect(item.tags).toBe('image,premium,pack-1');
  });

  it('takes the key and code from a form body or the query too', async () => {
    const { catalog, catalogKey, server } = setup();
    const code = server.fixtures.purchaseCodes.downloaded;
    const form = await read(
      await catalog('POST', 'purchases/validation', { form: { api_key: catalogKey, purchase_code: code } }),
    );
    expect(form.body.item.downloaded).toBe(true);
    const query = await read(
      await catalog('POST', 'purchases/validation', { query: { api_key: catalogKey, purchase_code: code } }),
    );
    expect(query.status).toBe(200);
  });

  it('omits supported_until when support is disabled; keeps a past date when expired', async () => {
    const { catalog, catalogKey, server } = setup();
    const codes = server.fixtures.purchaseCodes;
    const disabled = await read(
      await catalog('POST', 'purchases/validation', {
        json: { api_key: catalogKey, purchase_code: codes.supportDisabled },
      }),
    );
    expect('supported_until' in disabled.body.item).toBe(false);
    expect(disabled.body.item.item.media.preview_video).toBe(
      'https://cdn.market.example.com/items/107/preview.mp4',
    );
    const expired = await read(
      await catalog('POST', 'purchases/validation', {
        json: { api_key: catalogKey, purchase_code: codes.supportExpired },
      }),
    );
    expect(expired.body.item.supported_until).toBe('2024-06-30T00:00:00.000000Z');
    expect(expired.body.item.license_type).toBe('رخصة موسعة');
  });

  it('answers 404 كود الشراء غير صحيح for an invalid code and for a wrong key', async () => {
    const { catalog, catalogKey, server } = setup();
    const invalid = { status: 404, body: { status: AR.error, msg: AR.invalidPurchaseCode } };
    const { supported, invalid: bad } = server.fixtures.purchaseCodes;
    expect(
      await read(
        await catalog('POST', 'purchases/validation', { json: { api_key: catalogKey, purchase_code: bad } }),
      ),
    ).toEqual(invalid);
    expect(
      await read(
        await catalog('POST', 'purchases/validation', { json: { api_key: 'x', purchase_code: supported } }),
      ),
    ).toEqual(invalid);
  });

  it('answers 400 for a missing code, a non-string key and an unparsable JSON body', async () => {
    const { catalog, catalogKey, server } = setup();
    expect(
      await read(await catalog('POST', 'purchases/validation', { json: { api_key: catalogKey } })),
    ).toEqual({
      status: 400,
      body: { status: AR.error, msg: 'The purchase code field is required.' },
    });
    expect(
      await read(await catalog('POST', 'purchases/validation', { json: { api_key: 5, purchase_code: 'x' } })),
    ).toEqual({
      status: 400,
      body: { status: AR.error, msg: 'The api key field must be a string.' },
    });
    const broken = await server.fetch(
      new Request(`${ORIGIN}/api/purchases/validation`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"api_key":',
      }),
    );
    expect(await read(broken)).toEqual({
      status: 400,
      body: { status: AR.error, msg: 'The api key field is required.' },
    });
  });
});

describe('Catalog locale en', () => {
  it('uses the English defaults for status, msg and license labels', async () => {
    const { catalog, catalogKey, server } = setup({ locale: 'en' });
    expect(await read(await catalog('GET', 'items/all', { query: { api_key: 'x' } }))).toEqual({
      status: 404,
      body: { status: 'error', msg: 'No Items Found' },
    });
    expect(await read(await catalog('GET', 'account/details', { query: { api_key: 'x' } }))).toEqual({
      status: 401,
      body: { status: 'error', msg: 'Invalid request' },
    });
    const ok = await read(
      await catalog('POST', 'purchases/validation', {
        json: { api_key: catalogKey, purchase_code: server.fixtures.purchaseCodes.supportExpired },
      }),
    );
    expect([ok.body.status, ok.body.item.license_type]).toEqual(['success', 'Extended']);
    expect(
      (await read(await catalog('GET', 'items/item', { query: { api_key: catalogKey, item_id: '1' } }))).body
        .msg,
    ).toBe('Item Not Found');
  });
});
