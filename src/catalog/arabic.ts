import type { CatalogErrorCode } from '../core/errors/index.js';

/** One of the four error conditions of the Catalog API (spec §7), as a stable code. */
export type CatalogCondition = Exclude<CatalogErrorCode, 'bad_request' | 'unknown'>;

/** The spec's Arabic `msg` and the server's English default for each Catalog condition. */
export const CATALOG_MESSAGES: Readonly<Record<CatalogCondition, { arabic: string; english: string }>> = {
  request_unsuccessful: { arabic: 'طلب غير ناجح', english: 'Invalid request' },
  no_items: { arabic: 'لا يوجد أى منتجات', english: 'No Items Found' },
  item_not_found: { arabic: 'المنتج غير موجود', english: 'Item Not Found' },
  invalid_purchase_code: { arabic: 'كود الشراء غير صحيح', english: 'Invalid purchase code' },
};

/** The envelope's `status` words: the spec's Arabic ones, the English defaults, and close variants. */
const STATUS_WORDS: Readonly<Record<'success' | 'error', readonly string[]>> = {
  success: ['تم بنجاح', 'بنجاح', 'نجاح', 'ناجح', 'success', 'successful', 'succeeded', 'ok'],
  error: ['خطأ', 'خطاء', 'خطا', 'error', 'failed', 'failure', 'fail'],
};

// Invisible marks an admin may paste along with a translation: zero-width, bidi controls, BOM.
const INVISIBLE = /[\u00AD\u061C\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g;
// Tatweel (kashida), harakat and Quranic annotation marks: they never change which word it is.
const MARKS = /[\u0640\u064B-\u065F\u0670\u06D6-\u06ED]/g;
const LETTERS: Readonly<Record<string, string>> = {
  أ: 'ا',
  إ: 'ا',
  آ: 'ا',
  ٱ: 'ا',
  ى: 'ي',
  ی: 'ي',
  ئ: 'ي',
  ؤ: 'و',
  ة: 'ه',
  ک: 'ك',
};
const VARIANT_LETTERS = /[أإآٱىیئؤةک]/g;
// Sentence punctuation at either end ("Item Not Found.", "!خطأ"): Latin and Arabic forms.
const EDGE_PUNCTUATION = /^[\s.!?؟،,;؛:]+|[\s.!?؟،,;؛:]+$/g;

/**
 * Folds a Catalog `status` or `msg` to a comparable form: NFKC, no invisible marks, tatweel or harakat,
 * one alef, ي for ى, ه for ة, single spaces, no edge punctuation, lower case. Never throws.
 * @example normalizeCatalogText('  لا يوجـــد أيّ  منتجات ') // 'لا يوجد اي منتجات'
 */
export function normalizeCatalogText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .normalize('NFD')
    .replace(MARKS, '')
    .normalize('NFC')
    .replace(VARIANT_LETTERS, (letter) => LETTERS[letter] ?? letter)
    .replace(/\s+/g, ' ')
    .replace(EDGE_PUNCTUATION, '')
    .toLowerCase();
}

/**
 * Comparison key: the normalised text without any space, so `لايوجد` and `لا يوجد` compare equal. A text longer than
 * `MAX_FOLDED` names no word or message (their keys are a few dozen characters): it gets `''`, which none has.
 */
function key(text: string): string {
  return text.length > MAX_FOLDED ? '' : normalizeCatalogText(text).replace(/ /g, '');
}

// Folding a 14 MB `msg` took 1.3 s and 400 MB; any real variant of a known text is far shorter than this.
const MAX_FOLDED = 1024;

const CONDITION_KEYS = new Map<string, CatalogCondition>(
  (Object.entries(CATALOG_MESSAGES) as [CatalogCondition, { arabic: string; english: string }][]).flatMap(
    ([condition, texts]) => [
      [key(texts.arabic), condition],
      [key(texts.english), condition],
    ],
  ),
);

const STATUS_KEYS = new Map<string, 'success' | 'error'>(
  (['success', 'error'] as const).flatMap((kind) =>
    STATUS_WORDS[kind].map((word) => [key(word), kind] as const),
  ),
);

/**
 * Which Catalog condition a `msg` names, in Arabic or English, tolerant of spelling variants
 * (ى/ي, أ/ا/إ, tatweel, harakat, spaces, NFC/NFD). `undefined` for any other text or a non-string.
 * @example matchCatalogMessage('المنتج غير موجود') // 'item_not_found'
 */
export function matchCatalogMessage(msg: unknown): CatalogCondition | undefined {
  return typeof msg === 'string' ? CONDITION_KEYS.get(key(msg)) : undefined;
}

/**
 * Reads an envelope's `status`: `'success'` for `تم بنجاح` / `success`, `'error'` for `خطأ` / `error`
 * (and their variants), `undefined` for anything else.
 * @example catalogStatus('تم  بنجاح') // 'success'
 */
export function catalogStatus(status: unknown): 'success' | 'error' | undefined {
  if (typeof status !== 'string') return undefined;
  // Every answer carries a status word and a server sends the same few: normalising it each time cost ~4 µs.
  if (STATUS_SEEN.has(status)) return STATUS_SEEN.get(status);
  const kind = STATUS_KEYS.get(key(status));
  if (STATUS_SEEN.size < MAX_STATUS_SEEN) STATUS_SEEN.set(status, kind);
  return kind;
}

const STATUS_SEEN = new Map<string, 'success' | 'error' | undefined>();
const MAX_STATUS_SEEN = 64;

/** A purchase's license, whatever language the server labels it in. */
export type LicenseKind = 'regular' | 'extended';

// "License" in English and Arabic (رخصة, ترخيص, with or without the article), folded like any Catalog text.
const LICENSE_WORDS = /licen[cs]e|الترخيص|ترخيص|الرخصه|رخصه/g;
const LICENSE_KINDS = new Map<string, LicenseKind>([
  ['regular', 'regular'],
  ['عادي', 'regular'],
  ['عاديه', 'regular'],
  ['extended', 'extended'],
  ['موسع', 'extended'],
  ['موسعه', 'extended'],
  ['ممتد', 'extended'],
  ['ممتده', 'extended'],
]);

/**
 * Which license a `license_type` label names: `Regular`, `Extended License`, `رخصة عادية`, `الرخصة الموسعة`…
 * in any case and spelling variant. `null` for a word it does not know (never throws).
 * @example licenseKind('رخصة موسعة') // 'extended'
 */
export function licenseKind(label: unknown): LicenseKind | null {
  if (typeof label !== 'string') return null;
  // Every validation reads one: the few labels a server sends are folded once (Unicode normalisation is slow).
  const seen = LICENSES_SEEN.get(label);
  if (seen !== undefined) return seen;
  const word = key(label).replace(LICENSE_WORDS, '').replace(/^ال/, '');
  const kind = LICENSE_KINDS.get(word) ?? null;
  if (LICENSES_SEEN.size < MAX_STATUS_SEEN) LICENSES_SEEN.set(label, kind);
  return kind;
}

const LICENSES_SEEN = new Map<string, LicenseKind | null>();
