import type { z } from 'zod';
import type { AccountSchema, ItemSchema, PurchaseSchema } from '../../src/catalog/schemas.js';

/** Wire shapes, as a server may send them (every accepted variant). */
export type WireItem = z.input<typeof ItemSchema>;
export type WireAccount = z.input<typeof AccountSchema>;
export type WirePurchase = z.input<typeof PurchaseSchema>;

/** The spec's Arabic status words. */
export const SUCCESS = 'تم بنجاح';
export const ERROR = 'خطأ';

/** A key distinctive enough that finding it anywhere in a text is certainly a leak. */
export const KEY = 'sk_live_SECRET_123';
export const SITE = 'https://market.example.com';
export const API = `${SITE}/api`;

/** An image item exactly as the spec documents it (arrays, a dotted version). */
export function anItem(overrides: Partial<WireItem> = {}): WireItem {
  return {
    id: 42,
    name: 'Landing Kit',
    description: '<p>A <b>landing</b> page kit.</p>',
    category: 'Templates',
    sub_category: 'Landing pages',
    options: ['Responsive', 'RTL'],
    version: '1.2.0',
    demo_link: 'https://demo.example.com/landing',
    tags: ['html', 'landing'],
    media: {
      thumbnail: 'https://cdn.example.com/42/thumb.jpg',
      preview_image: 'https://cdn.example.com/42/preview.jpg',
      screenshots: ['https://cdn.example.com/42/s1.jpg', 'https://cdn.example.com/42/s2.jpg'],
    },
    price: { regular: 19.5, extended: 99 },
    currency: 'USD',
    published_at: '2024-05-01T10:00:00.000000Z',
    ...overrides,
  };
}

/** An audio item as the real server sends it: comma tags, index-keyed screenshots, no preview_image. */
export function anAudioItem(overrides: Partial<WireItem> = {}): WireItem {
  return anItem({
    id: 7,
    name: 'Calm Loop',
    category: 'Audio',
    sub_category: null,
    options: null,
    version: null,
    demo_link: null,
    tags: 'ambient, loop,,calm ',
    media: {
      thumbnail: 'https://cdn.example.com/7/thumb.jpg',
      preview_audio: 'https://cdn.example.com/7/preview.mp3',
      screenshots: null,
    },
    ...overrides,
  });
}

/** A video item with a preview image and a preview video. */
export function aVideoItem(overrides: Partial<WireItem> = {}): WireItem {
  return anItem({
    id: 8,
    name: 'Intro Reel',
    media: {
      thumbnail: 'https://cdn.example.com/8/thumb.jpg',
      preview_image: 'https://cdn.example.com/8/preview.jpg',
      preview_video: 'https://cdn.example.com/8/preview.mp4',
      screenshots: { '1': 'https://cdn.example.com/8/s2.jpg', '0': 'https://cdn.example.com/8/s1.jpg' },
    },
    ...overrides,
  });
}

/** An account with every field the spec lists. */
export function anAccount(overrides: Partial<WireAccount> = {}): WireAccount {
  return {
    name: { firstname: 'Layla', lastname: 'Haddad', full_name: 'Layla Haddad' },
    username: 'layla',
    email: 'layla@example.com',
    balance: 1250.75,
    currency: 'USD',
    profile: {
      heading: 'Designer',
      description: 'Templates and audio loops.',
      contact: { email: 'contact@example.com' },
      social_links: { facebook: 'https://facebook.com/layla', x: 'https://x.com/layla' },
      media: { avatar: 'https://cdn.example.com/avatar.png', cover: 'https://cdn.example.com/cover.png' },
    },
    registered_at: '2023-02-03T04:05:06.000000Z',
    ...overrides,
  };
}

/** A valid purchase of `anItem()`, with support. */
export function aPurchase(overrides: Partial<WirePurchase> = {}): WirePurchase {
  return {
    purchase_code: '0c7a3d2e-5b1f-4c6a-9e8d-2f4b6a8c0d1e',
    license_type: 'ترخيص عادي',
    price: 19.5,
    currency: 'USD',
    item: anItem(),
    supported_until: '2025-05-01T10:00:00.000000Z',
    downloaded: true,
    date: '2024-05-02T11:00:00.000000Z',
    ...overrides,
  };
}

/** A success envelope `{ status, [key]: value }`. */
export function ok(key: string, value: unknown, status: string = SUCCESS): Record<string, unknown> {
  return { status, [key]: value };
}

/** An error envelope `{ status, msg }`. */
export function fail(msg: string, status: string = ERROR): { status: string; msg: string } {
  return { status, msg };
}
