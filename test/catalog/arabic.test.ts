import { describe, expect, it } from 'vitest';
import {
  CATALOG_MESSAGES,
  catalogStatus,
  matchCatalogMessage,
  normalizeCatalogText,
} from '../../src/index.js';

describe('CATALOG_MESSAGES', () => {
  it('holds the spec §7 texts and the English defaults, byte-for-byte', () => {
    expect(CATALOG_MESSAGES).toEqual({
      request_unsuccessful: { arabic: 'طلب غير ناجح', english: 'Invalid request' },
      no_items: { arabic: 'لا يوجد أى منتجات', english: 'No Items Found' },
      item_not_found: { arabic: 'المنتج غير موجود', english: 'Item Not Found' },
      invalid_purchase_code: { arabic: 'كود الشراء غير صحيح', english: 'Invalid purchase code' },
    });
  });
});

describe('normalizeCatalogText', () => {
  it.each([
    ['  لا يوجـــد أيّ  منتجات ', 'لا يوجد اي منتجات'],
    ['أإآٱ', 'اااا'],
    ['ى', 'ي'],
    ['موجودة', 'موجوده'],
    ['ﻻ', 'لا'],
    ['\u200fخطأ\u200f', 'خطا'],
    ['  Item\tNot\nFound. ', 'item not found'],
    ['طَلَبٌ', 'طلب'],
  ])('%j → %j', (text, expected) => {
    expect(normalizeCatalogText(text)).toBe(expected);
  });

  it('gives the same form for NFC and NFD', () => {
    for (const { arabic } of Object.values(CATALOG_MESSAGES)) {
      expect(normalizeCatalogText(arabic.normalize('NFD'))).toBe(
        normalizeCatalogText(arabic.normalize('NFC')),
      );
    }
  });
});

describe('matchCatalogMessage', () => {
  it.each(Object.entries(CATALOG_MESSAGES))('%s: the Arabic and the English text', (condition, texts) => {
    expect(matchCatalogMessage(texts.arabic)).toBe(condition);
    expect(matchCatalogMessage(texts.english)).toBe(condition);
    expect(matchCatalogMessage(texts.english.toUpperCase())).toBe(condition);
    expect(matchCatalogMessage(` ${texts.arabic.normalize('NFD')} `)).toBe(condition);
    expect(matchCatalogMessage(texts.arabic.replace(/ /g, '  '))).toBe(condition);
  });

  it.each([
    ['لا يوجد أي منتجات', 'no_items'],
    ['لا يوجد اى منتجات', 'no_items'],
    ['لا يوجد إى منتجات', 'no_items'],
    ['لا يوجد آي منتجات', 'no_items'],
    ['لايوجد أى منتجات', 'no_items'],
    ['لا يوجد أى منتجات!', 'no_items'],
    ['المنتـج غيـر موجـود', 'item_not_found'],
    ['كود الشراء غير صحيح.', 'invalid_purchase_code'],
    ['كود الشراء غير صحيح؟', 'invalid_purchase_code'],
    ['طلب غير ناجح', 'request_unsuccessful'],
  ])('%j → %s', (msg, condition) => {
    expect(matchCatalogMessage(msg)).toBe(condition);
  });

  it.each([
    'المنتج',
    'غير موجود',
    'Item',
    'Item Not Found anywhere',
    'The api key field is required.',
    'Not Found',
    '',
    '   ',
    42,
    null,
    undefined,
    { msg: 'Item Not Found' },
  ])('%j matches nothing', (msg) => {
    expect(matchCatalogMessage(msg)).toBeUndefined();
  });
});

describe('catalogStatus', () => {
  it.each(['تم بنجاح', 'تم  بنجاح', 'تـم بنجاح', 'success', 'Success', ' SUCCESS '])(
    '%j is success',
    (status) => {
      expect(catalogStatus(status)).toBe('success');
    },
  );

  it.each(['خطأ', 'خطا', 'خطـأ', 'خطأ.', 'error', 'Error', 'ERROR'])('%j is error', (status) => {
    expect(catalogStatus(status)).toBe('error');
  });

  it.each(['pending', '', 200, true, null, undefined])('%j is neither', (status) => {
    expect(catalogStatus(status)).toBeUndefined();
  });
});
