import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AccountEnvelopeSchema,
  AccountSchema,
  ItemEnvelopeSchema,
  ItemSchema,
  ItemsEnvelopeSchema,
  PurchaseEnvelopeSchema,
  PurchaseSchema,
} from '../../src/catalog/schemas.js';
import { anAccount, anAudioItem, anItem, aPurchase, aVideoItem, ok, type WireItem } from './fixtures.js';

const media = (overrides: Partial<WireItem['media']>) =>
  ({ ...anItem().media, ...overrides }) as WireItem['media'];

describe('ItemSchema', () => {
  it('parses the item the spec documents', () => {
    expect(ItemSchema.parse(anItem())).toEqual({ ...anItem(), media: { kind: 'image', ...anItem().media } });
  });

  it('tolerates extra fields and leaves them out of the result', () => {
    const parsed = ItemSchema.parse({ ...anItem(), rating: 4.5, media: { ...anItem().media, extra: 1 } });
    expect(parsed).not.toHaveProperty('rating');
    expect(parsed.media).not.toHaveProperty('extra');
  });

  describe('tags', () => {
    it.each([
      [
        ['php', 'laravel'],
        ['php', 'laravel'],
      ],
      ['php,laravel', ['php', 'laravel']],
      [' php , laravel ,, ', ['php', 'laravel']],
      ['single', ['single']],
      ['', []],
      [
        [' a ', '', 'b'],
        ['a', 'b'],
      ],
      [
        [2024, 'x'],
        ['2024', 'x'],
      ],
      [null, []],
      [undefined, []],
    ])('%j → %j', (tags, expected) => {
      expect(ItemSchema.parse({ ...anItem(), tags }).tags).toEqual(expected);
    });

    it('a comma-separated string splits and trims exactly as split(",") and trim() do, for any text', () => {
      // Every code unit trim() removes, beside commas, letters, and spaces it keeps (U+180E, U+200B are not spaces).
      const units = [
        ',',
        ',',
        'a',
        'é',
        'ب',
        ' ',
        '\t',
        '\n',
        '\v',
        '\f',
        '\r',
        '\u00a0',
        '\u1680',
        '\u2000',
        '\u200a',
        '\u2028',
        '\u2029',
        '\u202f',
        '\u205f',
        '\u3000',
        '\ufeff',
        '\u180e',
        '\u200b',
        '\u0085',
      ];
      const text = fc.array(fc.constantFrom(...units), { maxLength: 24 }).map((parts) => parts.join(''));
      fc.assert(
        fc.property(text, (tags) => {
          const expected = tags
            .split(',')
            .map((tag) => tag.trim())
            .filter((tag) => tag !== '');
          expect(ItemSchema.parse({ ...anItem(), tags }).tags).toEqual(expected);
        }),
        { numRuns: 1000 },
      );
    });
  });

  describe('media.screenshots', () => {
    it.each([
      [
        ['a', 'b'],
        ['a', 'b'],
      ],
      [{ '0': 'a', '1': 'b' }, ['a', 'b']],
      [{ '0': 'a', '7': 'h' }, ['a', 'h']],
      [{ '1': 'b', '0': 'a', '10': 'k', '2': 'c' }, ['a', 'b', 'c', 'k']],
      // Keys that are not array indices come after the indices, as written: sorted by their number.
      [{ '9': 'j', '03': 'd' }, ['d', 'j']],
      [{ '01': 'x', '1': 'y', '0': 'z' }, ['z', 'y', 'x']],
      [{ '4294967296': 'big', '2': 'c', '0': 'a' }, ['a', 'c', 'big']],
      [{}, []],
      [[], []],
      [null, []],
      [undefined, []],
    ])('%j → %j', (screenshots, expected) => {
      expect(ItemSchema.parse({ ...anItem(), media: media({ screenshots }) }).media.screenshots).toEqual(
        expected,
      );
    });

    it('rejects an object with non-index keys', () => {
      expect(
        ItemSchema.safeParse({ ...anItem(), media: media({ screenshots: { a: 'x' } as never }) }).success,
      ).toBe(false);
    });

    it('rejects an object that is not plain, even with index keys', () => {
      const instance = new (class {
        0 = 'a';
      })();
      const parsed = ItemSchema.safeParse({ ...anItem(), media: media({ screenshots: instance as never }) });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(['media', 'screenshots']);
    });

    it('names a bad entry of an index-keyed object by its place in the list, as in an array', () => {
      const screenshots = { '0': 'a', '5': 7 } as never;
      const parsed = ItemSchema.safeParse({ ...anItem(), media: media({ screenshots }) });
      expect(parsed.error?.issues.map((issue) => issue.path)).toEqual([['media', 'screenshots', 1]]);
    });
  });

  describe('media variants', () => {
    it('an audio item has preview_audio and no preview_image', () => {
      expect(ItemSchema.parse(anAudioItem()).media).toEqual({
        kind: 'audio',
        thumbnail: 'https://cdn.example.com/7/thumb.jpg',
        preview_audio: 'https://cdn.example.com/7/preview.mp3',
        screenshots: [],
      });
    });

    it('a video item has preview_video and its preview_image', () => {
      expect(ItemSchema.parse(aVideoItem()).media).toEqual({
        kind: 'video',
        thumbnail: 'https://cdn.example.com/8/thumb.jpg',
        preview_image: 'https://cdn.example.com/8/preview.jpg',
        preview_video: 'https://cdn.example.com/8/preview.mp4',
        screenshots: ['https://cdn.example.com/8/s1.jpg', 'https://cdn.example.com/8/s2.jpg'],
      });
    });

    it('null previews count as absent', () => {
      const parsed = ItemSchema.parse({
        ...anItem(),
        media: {
          thumbnail: 't',
          preview_image: null,
          preview_video: null,
          preview_audio: null,
          screenshots: null,
        },
      });
      expect(parsed.media).toEqual({ kind: 'image', thumbnail: 't', screenshots: [] });
    });

    it('an item needs a thumbnail', () => {
      expect(ItemSchema.safeParse({ ...anItem(), media: { preview_image: 'x' } as never }).success).toBe(
        false,
      );
    });

    it('TypeScript knows preview_audio only on audio media', () => {
      const item = ItemSchema.parse(anAudioItem());
      // @ts-expect-error preview_audio is not known until kind is checked
      expect(item.media.preview_audio).toBeDefined();
      if (item.media.kind !== 'audio') throw new Error('expected audio');
      const url: string = item.media.preview_audio;
      expect(url).toMatch(/mp3$/);
    });
  });

  describe('options', () => {
    it.each([
      [null, null],
      [undefined, null],
      [
        ['Responsive', 'RTL'],
        ['Responsive', 'RTL'],
      ],
      [[], []],
      [
        { License: 'GPL', Browsers: ['Chrome', 'Firefox'] },
        { License: 'GPL', Browsers: ['Chrome', 'Firefox'] },
      ],
      [{}, {}],
    ])('%j → %j', (options, expected) => {
      expect(ItemSchema.parse({ ...anItem(), options }).options).toEqual(expected);
    });

    it.each([{ License: 5 }, { Browsers: ['Chrome', 7] }, 'Responsive', 7])('%j is refused', (options) => {
      const parsed = ItemSchema.safeParse({ ...anItem(), options });
      expect(parsed.error?.issues.map((issue) => [issue.code, issue.path])).toEqual([
        ['invalid_union', ['options']],
      ]);
    });

    it('an option named __proto__ is dropped, and the map keeps its prototype', () => {
      const item = { ...anItem(), options: JSON.parse('{"__proto__":"x","License":"GPL"}') };
      const options = ItemSchema.parse(item).options as Record<string, string>;
      expect(Object.keys(options)).toEqual(['License']);
      expect(Object.getPrototypeOf(options)).toBe(Object.prototype);
    });

    it('absent, and version absent, give null', () => {
      const { options: _, version: __, ...without } = anItem();
      const parsed = ItemSchema.parse(without);
      expect([parsed.options, parsed.version]).toEqual([null, null]);
    });
  });

  describe('version', () => {
    it.each([
      ['1.2.0', '1.2.0'],
      [null, null],
      [undefined, null],
      [2, '2'],
      [1.5, '1.5'],
    ])('%j → %j', (version, expected) => {
      expect(ItemSchema.parse({ ...anItem(), version }).version).toBe(expected);
    });
  });

  describe('nullable strings', () => {
    it.each(['demo_link', 'sub_category'] as const)('%s: null or absent → null', (field) => {
      expect(ItemSchema.parse({ ...anItem(), [field]: null })[field]).toBeNull();
      const { [field]: _, ...without } = anItem();
      expect(ItemSchema.parse(without)[field]).toBeNull();
    });
  });

  describe('numbers', () => {
    it('money and id may arrive as decimal strings', () => {
      const parsed = ItemSchema.parse({ ...anItem(), id: '42', price: { regular: '19.50', extended: '99' } });
      expect(parsed.id).toBe(42);
      expect(parsed.price).toEqual({ regular: 19.5, extended: 99 });
    });

    it.each([{ id: 'x' }, { id: 1.5 }, { price: { regular: 'ten', extended: 1 } }])(
      'rejects %j',
      (overrides) => {
        expect(ItemSchema.safeParse({ ...anItem(), ...overrides }).success).toBe(false);
      },
    );
  });
});

describe('AccountSchema', () => {
  it('parses the account the spec documents', () => {
    expect(AccountSchema.parse(anAccount())).toEqual(anAccount());
  });

  it.each([
    [null, {}],
    [undefined, {}],
    [[], {}],
    [
      { facebook: 'f', x: null, github: 'g' },
      { facebook: 'f', github: 'g' },
    ],
  ])('social_links %j → %j', (social_links, expected) => {
    const wire = anAccount();
    const parsed = AccountSchema.parse({ ...wire, profile: { ...(wire.profile as object), social_links } });
    expect(parsed.profile.social_links).toEqual(expected);
  });

  it('tolerates null or absent optional parts', () => {
    const parsed = AccountSchema.parse({
      username: 'u',
      email: 'e@example.com',
      balance: '0.00',
      currency: 'USD',
      name: { firstname: null },
      profile: { heading: null, contact: null, media: { avatar: 'a' } },
    });
    expect(parsed).toEqual({
      name: { firstname: null, lastname: null, full_name: null },
      username: 'u',
      email: 'e@example.com',
      balance: 0,
      currency: 'USD',
      profile: {
        heading: null,
        description: null,
        contact: { email: null },
        social_links: {},
        media: { avatar: 'a', cover: null },
      },
      registered_at: null,
    });
  });

  it('tolerates a null profile and name', () => {
    const parsed = AccountSchema.parse({ ...anAccount(), profile: null, name: null });
    expect(parsed.profile.media).toEqual({ avatar: null, cover: null });
    expect(parsed.name.full_name).toBeNull();
  });

  it('needs the balance as a number', () => {
    expect(AccountSchema.safeParse({ ...anAccount(), balance: 'lots' }).success).toBe(false);
  });
});

describe('PurchaseSchema', () => {
  it('parses the purchase the spec documents', () => {
    expect(PurchaseSchema.parse(aPurchase())).toEqual({
      ...aPurchase(),
      item: { ...anItem(), media: { kind: 'image', ...anItem().media } },
      // The fixture's 'ترخيص عادي', read as a language-free kind.
      license: 'regular',
    });
  });

  it.each([null, undefined])('supported_until %j → absent', (supported_until) => {
    expect(PurchaseSchema.parse(aPurchase({ supported_until }))).not.toHaveProperty('supported_until');
  });

  it.each([
    [true, true],
    [false, false],
    [1, true],
    [0, false],
    ['1', true],
    ['0', false],
  ] as const)('downloaded %j → %j', (downloaded, expected) => {
    expect(PurchaseSchema.parse(aPurchase({ downloaded })).downloaded).toBe(expected);
  });

  it.each([
    ['Regular', 'regular'],
    ['Regular License', 'regular'],
    ['REGULAR LICENCE', 'regular'],
    ['regular-license', null],
    ['Extended', 'extended'],
    ['extended license', 'extended'],
    ['License Extended', 'extended'],
    ['رخصة عادية', 'regular'],
    ['ترخيص عادي', 'regular'],
    ['الرخصة العادية', 'regular'],
    ['رخصـــة عاديّة', 'regular'],
    ['عادية', 'regular'],
    ['رخصة موسعة', 'extended'],
    ['ترخيص ممتد', 'extended'],
    ['الرخصة الموسّعة', 'extended'],
    ['ممتدة', 'extended'],
    ['Enterprise', null],
    ['', null],
    ['رخصة', null],
  ] as const)(
    'reads license_type %j as license %j, never throwing on a word it does not know',
    (label, license) => {
      const parsed = PurchaseSchema.parse(aPurchase({ license_type: label }));
      expect(parsed.license).toBe(license);
      expect(parsed.license_type).toBe(label);
    },
  );

  it('keeps an Arabic license_type and a string price as a number', () => {
    const parsed = PurchaseSchema.parse(aPurchase({ license_type: 'ممتد', price: '49.00' }));
    expect(parsed.license_type).toBe('ممتد');
    expect(parsed.price).toBe(49);
  });

  it('reads the item of an audio purchase with its variants', () => {
    const parsed = PurchaseSchema.parse(aPurchase({ item: anAudioItem() }));
    expect(parsed.item.media.kind).toBe('audio');
    expect(parsed.item.tags).toEqual(['ambient', 'loop', 'calm']);
  });
});

describe('envelopes', () => {
  it.each(['تم بنجاح', 'success', 'Success', ' تم  بنجاح ', 'تـم بنجاح'])(
    'accept the success word %j',
    (status) => {
      expect(ItemEnvelopeSchema.parse(ok('item', anItem(), status)).id).toBe(42);
    },
  );

  it.each(['خطأ', 'error', 'pending', '', 1, null])('reject the status %j', (status) => {
    expect(ItemEnvelopeSchema.safeParse({ status, item: anItem() }).success).toBe(false);
  });

  it('unwrap data, items and item', () => {
    expect(AccountEnvelopeSchema.parse(ok('data', anAccount())).username).toBe('layla');
    expect(ItemsEnvelopeSchema.parse(ok('items', [anItem()]))).toHaveLength(1);
    expect(
      ItemsEnvelopeSchema.parse(ok('items', { '0': anItem(), '1': anAudioItem() })).map((i) => i.id),
    ).toEqual([42, 7]);
    expect(ItemEnvelopeSchema.parse(ok('item', anItem())).name).toBe('Landing Kit');
  });

  it('find the purchase under data.purchase or under item, preferring data.purchase', () => {
    expect(PurchaseEnvelopeSchema.parse(ok('data', { purchase: aPurchase() })).price).toBe(19.5);
    expect(PurchaseEnvelopeSchema.parse(ok('item', aPurchase({ price: 5 }))).price).toBe(5);
    expect(
      PurchaseEnvelopeSchema.parse({
        status: 'success',
        data: { purchase: aPurchase() },
        item: aPurchase({ price: 5 }),
      }).price,
    ).toBe(19.5);
  });

  it('require the expected key', () => {
    expect(AccountEnvelopeSchema.safeParse({ status: 'success' }).success).toBe(false);
    expect(ItemsEnvelopeSchema.safeParse({ status: 'success', item: anItem() }).success).toBe(false);
    expect(PurchaseEnvelopeSchema.safeParse({ status: 'success', data: {} }).success).toBe(false);
  });
});
