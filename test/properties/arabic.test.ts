import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CATALOG_MESSAGES,
  type CatalogCondition,
  catalogStatus,
  matchCatalogMessage,
  normalizeCatalogText,
} from '../../src/catalog/arabic.js';

const RUNS = { numRuns: 1000 };

// Letters an admin's keyboard or editor may swap for each other; the matcher must not care which one is used.
const CLASSES = ['اأإآٱ', 'يىی', 'كک'];
const TATWEEL = 'ـ';
const HARAKAT = ['\u064B', '\u064C', '\u064D', '\u064E', '\u064F', '\u0650', '\u0651', '\u0652'];
const INVISIBLE = ['\u200B', '\u200C', '\u200F', '\u061C'];
const ARABIC_LETTER = /[\u0621-\u064A\u06A9\u06CC\u0671]/;

/**
 * A spelling variant of `text`, driven by a random tape: swapped letters (ى/ي, أ/إ/آ/ا, ك/ک), tatweel,
 * harakat and invisible marks after letters, spaces added inside and around words, Latin case changes,
 * sentence punctuation at the end, and the whole text in NFD or NFC.
 */
function variant(
  text: string,
  tape: number[],
  form: 'NFC' | 'NFD' | 'none',
  end: string,
  spacesInsideWords = true,
): string {
  let i = 0;
  const next = (n: number) => (tape.length === 0 ? 0 : (tape[i++ % tape.length] ?? 0) % n);
  let out = ' '.repeat(next(3));
  for (const char of text) {
    const cls = CLASSES.find((c) => c.includes(char));
    if (cls) out += [...cls][next(cls.length)];
    else if (char === ' ') out += [' ', '  ', '\u00A0', '\t', ' \u200C'][next(5)];
    else if (/[a-z]/i.test(char)) out += next(2) ? char.toUpperCase() : char.toLowerCase();
    else out += char;
    if (ARABIC_LETTER.test(char)) {
      const extra = next(8);
      if (extra === 1) out += TATWEEL;
      else if (extra === 2) out += TATWEEL.repeat(3);
      else if (extra === 3) out += HARAKAT[next(HARAKAT.length)];
      else if (extra === 4) out += INVISIBLE[next(INVISIBLE.length)];
      else if (extra === 5 && spacesInsideWords) out += ' ';
    }
  }
  out += end + ' '.repeat(next(3));
  return form === 'none' ? out : out.normalize(form);
}

const tape = fc.array(fc.nat(1_000), { minLength: 1, maxLength: 64 });
const form = fc.constantFrom<'NFC' | 'NFD' | 'none'>('NFC', 'NFD', 'none');
const ending = fc.constantFrom('', '.', '!', '؟', ' .', '...');

const conditions = Object.entries(CATALOG_MESSAGES) as [
  CatalogCondition,
  { arabic: string; english: string },
][];

describe('Arabic message matching under spelling variants', () => {
  it.each(conditions)(
    '%s: every variant of the Arabic and the English message matches it',
    (condition, texts) => {
      fc.assert(
        fc.property(fc.constantFrom(texts.arabic, texts.english), tape, form, ending, (text, t, f, e) => {
          const spelled = variant(text, t, f, e);
          expect(matchCatalogMessage(spelled)).toBe(condition);
        }),
        RUNS,
      );
    },
  );

  it('a variant that adds no space inside words normalises to exactly the original', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...conditions.flatMap(([, t]) => [t.arabic, t.english])),
        tape,
        form,
        ending,
        (text, t, f, e) => {
          expect(normalizeCatalogText(variant(text, t, f, e, false))).toBe(normalizeCatalogText(text));
        },
      ),
      RUNS,
    );
  });

  it('any sentence of the messages’ words matches the same condition (or none) in every spelling', () => {
    const words = [...new Set(conditions.flatMap(([, t]) => `${t.arabic} ${t.english}`.split(' ')))];
    const sentence = fc
      .array(fc.constantFrom(...words), { minLength: 1, maxLength: 5 })
      .map((w) => w.join(' '));
    fc.assert(
      fc.property(sentence, tape, form, ending, (text, t, f, e) => {
        expect(matchCatalogMessage(variant(text, t, f, e))).toBe(matchCatalogMessage(text));
      }),
      RUNS,
    );
  });

  it('the status words survive the same variants: خطأ/error → error, تم بنجاح/success → success', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('خطأ', 'error', 'تم بنجاح', 'success'),
        tape,
        form,
        ending,
        (word, t, f, e) => {
          const expected = word === 'خطأ' || word === 'error' ? 'error' : 'success';
          expect(catalogStatus(variant(word, t, f, e))).toBe(expected);
        },
      ),
      RUNS,
    );
  });

  it('normalizeCatalogText never throws, is idempotent, and matching never throws on any input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })), (text) => {
        const once = normalizeCatalogText(text);
        expect(normalizeCatalogText(once)).toBe(once);
        const match = matchCatalogMessage(text);
        expect(match === undefined || CATALOG_MESSAGES[match] !== undefined).toBe(true);
      }),
      RUNS,
    );
  });
});
