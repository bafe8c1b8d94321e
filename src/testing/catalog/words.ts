import type { Locale } from '../core/types.js';

/** The Catalog envelope words: the spec's Arabic (§7) or the real server's English defaults. */
export const CATALOG_WORDS = {
  ar: {
    success: 'تم بنجاح',
    error: 'خطأ',
    requestUnsuccessful: 'طلب غير ناجح',
    noItems: 'لا يوجد أى منتجات',
    itemNotFound: 'المنتج غير موجود',
    invalidPurchaseCode: 'كود الشراء غير صحيح',
  },
  en: {
    success: 'success',
    error: 'error',
    requestUnsuccessful: 'Invalid request',
    noItems: 'No Items Found',
    itemNotFound: 'Item Not Found',
    invalidPurchaseCode: 'Invalid purchase code',
  },
} as const satisfies Record<Locale, Record<string, string>>;

const ENGLISH_LICENSES: Record<string, string> = { 'رخصة عادية': 'Regular', 'رخصة موسعة': 'Extended' };

/** The license label in the locale (seeded labels are Arabic). */
export function licenseLabel(label: string, locale: Locale): string {
  return locale === 'en' ? (ENGLISH_LICENSES[label] ?? label) : label;
}
