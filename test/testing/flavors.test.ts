import { describe, expect, it } from 'vitest';
import { encodePhpJson } from '../../src/testing/index.js';
import { read, setup } from './helpers.js';

describe('encodePhpJson', () => {
  it('escapes slashes and non-ASCII as PHP json_encode does', () => {
    expect(encodePhpJson({ url: 'https://a.b/c', msg: 'خطأ' })).toBe(
      '{"url":"https:\\/\\/a.b\\/c","msg":"\\u062e\\u0637\\u0623"}',
    );
  });

  it('writes astral characters as surrogate pairs and round-trips through JSON.parse', () => {
    const value = { emoji: 'a😀é', nested: [{ s: 'ى/ي أ' }], n: 1.5, nil: null, t: true };
    const encoded = encodePhpJson(value);
    expect(encoded).toContain('\\ud83d\\ude00\\u00e9');
    expect([...encoded].every((ch) => ch.charCodeAt(0) < 0x80)).toBe(true);
    expect(JSON.parse(encoded)).toEqual(value);
  });
});

describe('laravel flavor bodies', () => {
  it('are PHP-escaped on the wire', async () => {
    const { catalog, catalogKey } = setup();
    const text = await (await catalog('GET', 'account/details', { query: { api_key: catalogKey } })).text();
    expect(text.startsWith('{"status":"\\u062a\\u0645 \\u0628\\u0646\\u062c\\u0627\\u062d","data":')).toBe(
      true,
    );
    expect(text).toContain('"avatar":"https:\\/\\/cdn.market.example.com\\/avatars\\/ahmed.png"');
    expect(JSON.parse(text).data.profile.heading).toBe('مطور قوالب وإضافات');
  });

  it('escapes Management bodies too', async () => {
    const { mgmt } = setup();
    const text = await (await mgmt('GET', 'domains/1')).text();
    expect(text).toContain('"url":"https:\\/\\/links.example.com"');
  });
});

describe('spec flavor', () => {
  it('sends plain JSON, tags and screenshots as arrays, options as a list', async () => {
    const { catalog, catalogKey } = setup({ flavor: 'spec' });
    const res = await catalog('GET', 'items/item', { query: { api_key: catalogKey, item_id: '101' } });
    const text = await res.clone().text();
    expect(text).toContain('"status":"تم بنجاح"');
    expect(text).toContain('"thumbnail":"https://cdn.market.example.com/items/101/thumb.jpg"');
    const { item } = await res.json();
    expect(item.tags).toEqual(['image', 'premium', 'pack-1']);
    expect(item.options).toEqual(['Regular', 'Extended', 'ZIP']);
    expect(item.media.screenshots).toEqual([
      'https://cdn.market.example.com/items/101/screenshots/1.jpg',
      'https://cdn.market.example.com/items/101/screenshots/2.jpg',
    ]);
  });

  it('omits screenshots when an item has none', async () => {
    const { catalog, catalogKey } = setup({ flavor: 'spec' });
    const { body } = await read(
      await catalog('GET', 'items/item', { query: { api_key: catalogKey, item_id: '104' } }),
    );
    expect(body.item.media).toEqual({
      thumbnail: 'https://cdn.market.example.com/items/104/thumb.jpg',
      preview_audio: 'https://cdn.market.example.com/items/104/preview.mp3',
    });
  });

  it('puts the purchase under data.purchase', async () => {
    const { catalog, catalogKey, server } = setup({ flavor: 'spec' });
    const code = server.fixtures.purchaseCodes.supported;
    const { body } = await read(
      await catalog('POST', 'purchases/validation', { json: { api_key: catalogKey, purchase_code: code } }),
    );
    expect(body.item).toBeUndefined();
    expect(body.data.purchase.purchase_code).toBe(code);
    expect(body.data.purchase.item.tags).toEqual(['image', 'premium', 'pack-1']);
  });
});
