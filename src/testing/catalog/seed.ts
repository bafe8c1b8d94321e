import type { StoredAccount, StoredItem, StoredItemMedia, StoredPurchase } from './records.js';

/** The seeded Catalog keys: an account with items and purchases, and an account with no items. */
export const SEED_CATALOG_KEYS = ['test-catalog-key-main', 'test-catalog-key-no-items'] as const;

const CDN = 'https://cdn.market.example.com';

/** The seeded account of the main Catalog key (Arabic profile text, social links). */
export const MAIN_ACCOUNT: StoredAccount = {
  name: { firstname: 'Ahmed', lastname: 'Hassan', full_name: 'Ahmed Hassan' },
  username: 'ahmedhassan',
  email: 'ahmed@example.com',
  balance: 1520.75,
  currency: 'USD',
  profile: {
    heading: 'مطور قوالب وإضافات',
    description: 'أصمم قوالب ووسائط رقمية عالية الجودة منذ عام 2015.',
    contact: { email: 'support@example.com' },
    social_links: { facebook: 'https://facebook.com/ahmedhassan', x: 'https://x.com/ahmedhassan' },
    media: { avatar: `${CDN}/avatars/ahmed.png`, cover: `${CDN}/covers/ahmed.jpg` },
  },
  registered_at: '2020-03-01T08:00:00.000000Z',
};

/** The account of the key that owns no items. */
export const EMPTY_ACCOUNT: StoredAccount = {
  name: { firstname: 'Sara', lastname: 'Ali', full_name: 'Sara Ali' },
  username: 'saraali',
  email: 'sara@example.com',
  balance: 0,
  currency: 'USD',
  profile: {
    heading: 'حساب جديد',
    description: 'لا توجد منتجات بعد.',
    contact: { email: 'sara@example.com' },
    social_links: null,
    media: { avatar: `${CDN}/avatars/default.png`, cover: `${CDN}/covers/default.jpg` },
  },
  registered_at: '2024-11-20T12:30:00.000000Z',
};

/** The media kinds of catalog items. */
export type MediaKind = 'image' | 'audio' | 'video';

const KINDS: readonly MediaKind[] = ['image', 'audio', 'video'];

function media(kind: MediaKind, id: number): StoredItemMedia {
  const base = `${CDN}/items/${id}`;
  if (kind === 'audio') return { thumbnail: `${base}/thumb.jpg`, preview_audio: `${base}/preview.mp3` };
  if (kind === 'video') {
    return {
      thumbnail: `${base}/thumb.jpg`,
      preview_image: `${base}/preview.jpg`,
      preview_video: `${base}/preview.mp4`,
    };
  }
  return {
    thumbnail: `${base}/thumb.jpg`,
    preview_image: `${base}/preview.jpg`,
    screenshots: [`${base}/screenshots/1.jpg`, `${base}/screenshots/2.jpg`],
  };
}

const CATEGORY: Record<MediaKind, string> = { image: 'Graphics', audio: 'Audio', video: 'Video' };

/** Builds one item of a media kind; `n` varies the name, price and date. */
export function makeItem(id: number, kind: MediaKind, n: number): StoredItem {
  return {
    id,
    name: `${CATEGORY[kind]} Item ${n}`,
    description: `<p>${CATEGORY[kind]} item number ${n} &amp; its <strong>HTML</strong> description.</p>`,
    category: CATEGORY[kind],
    sub_category: `${kind}-pack`,
    options: { License: ['Regular', 'Extended'], Format: kind === 'audio' ? 'MP3' : 'ZIP' },
    version: `1.${n}.0`,
    demo_link: `https://demo.market.example.com/items/${id}`,
    tags: [kind, 'premium', `pack-${n}`],
    media: media(kind, id),
    price: { regular: 10 + n + 0.99, extended: 50 + n * 10 + 0.5 },
    currency: 'USD',
    published_at: `2024-0${1 + (n % 9)}-1${n % 10}T09:00:00.000000Z`,
  };
}

/** The nine seeded items: ids 101–103 image, 104–106 audio, 107–109 video. Item 106 has the nullable fields null. */
export function seedItems(): StoredItem[] {
  const items = KINDS.flatMap((kind, k) => [1, 2, 3].map((n) => makeItem(101 + k * 3 + n - 1, kind, n)));
  const sparse = items[5];
  if (sparse) Object.assign(sparse, { sub_category: null, demo_link: null, options: null, version: null });
  return items;
}

/** `count` more items from id `firstId`, cycling image, audio, video (for benchmarks). */
export function generatedItems(count: number, firstId: number): StoredItem[] {
  return Array.from({ length: count }, (_, i) => makeItem(firstId + i, KINDS[i % 3] ?? 'image', 4 + i));
}

/** The seeded purchase codes, one per support state, plus a code that matches nothing. */
export const SEED_PURCHASE_CODES = {
  supported: '5f3c2a10-1d2e-4f6a-9b8c-000000000001',
  supportExpired: '5f3c2a10-1d2e-4f6a-9b8c-000000000002',
  supportDisabled: '5f3c2a10-1d2e-4f6a-9b8c-000000000003',
  downloaded: '5f3c2a10-1d2e-4f6a-9b8c-000000000004',
  invalid: '00000000-0000-4000-8000-000000000000',
} as const;

/** The seeded purchases of the main account. */
export function seedPurchases(): StoredPurchase[] {
  const codes = SEED_PURCHASE_CODES;
  return [
    {
      purchase_code: codes.supported,
      license_type: 'رخصة عادية',
      price: 11.99,
      currency: 'USD',
      item_id: 101,
      supported_until: '2099-12-31T23:59:59.000000Z',
      downloaded: false,
      date: '2025-01-15T10:20:30.000000Z',
    },
    {
      purchase_code: codes.supportExpired,
      license_type: 'رخصة موسعة',
      price: 70.5,
      currency: 'USD',
      item_id: 104,
      supported_until: '2024-06-30T00:00:00.000000Z',
      downloaded: false,
      date: '2023-12-30T14:05:00.000000Z',
    },
    {
      purchase_code: codes.supportDisabled,
      license_type: 'رخصة عادية',
      price: 12.99,
      currency: 'USD',
      item_id: 107,
      supported_until: null,
      downloaded: false,
      date: '2024-08-01T07:45:10.000000Z',
    },
    {
      purchase_code: codes.downloaded,
      license_type: 'رخصة عادية',
      price: 13.99,
      currency: 'USD',
      item_id: 103,
      supported_until: '2099-01-01T00:00:00.000000Z',
      downloaded: true,
      date: '2025-02-02T02:02:02.000000Z',
    },
  ];
}

/** A valid purchase for a code given at start (`seed.purchaseCodes`): a regular license of a seeded item, supported. */
export function extraPurchase(code: string, index: number): StoredPurchase {
  return {
    purchase_code: code,
    license_type: 'رخصة عادية',
    price: 19.99,
    currency: 'USD',
    item_id: 101 + (index % 9),
    supported_until: '2099-12-31T23:59:59.000000Z',
    downloaded: false,
    date: '2025-03-01T12:00:00.000000Z',
  };
}
