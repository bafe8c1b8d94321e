import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCatalogError } from '../../src/catalog/errors.js';
import { decodeAnswer } from '../../src/core/errors/answer.js';
import { APIError, CatalogError } from '../../src/core/errors/classes.js';
import { scrubber } from '../../src/core/errors/redact.js';
import { readManagementError } from '../../src/management/errors.js';

const RUNS = { numRuns: 1000 };
const KEY = 'ck+PROPKEY~9z/=';

/** Any text a server could send: JSON of any shape, binary junk, decoded random bytes, HTML. */
const anyText = fc.oneof(
  fc.json(),
  fc.string({ unit: 'binary' }),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => new TextDecoder().decode(bytes)),
  fc.string().map((s) => `<html><body>${s}</body></html>`),
);

const laravelMessage = fc.oneof(
  fc.string(),
  fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.array(fc.string()), fc.jsonValue())),
  fc.jsonValue(),
);
/** Bodies shaped like Laravel's error bodies, and near misses. */
const laravelBody = fc
  .record(
    { message: laravelMessage, errors: laravelMessage, status: fc.oneof(fc.integer(), fc.string()) },
    { requiredKeys: [] },
  )
  .map((body) => JSON.stringify(body));

const catalogWord = fc.constantFrom(
  'خطأ',
  'خطا',
  'error',
  'Error',
  'تم بنجاح',
  'success',
  'طلب غير ناجح',
  'لا يوجد أى منتجات',
  'المنتج غير موجود',
  'كود الشراء غير صحيح',
  'Item Not Found',
  KEY,
);
/** Bodies shaped like the Catalog envelope, and near misses (any key may hold any JSON). */
const envelopeBody = fc
  .record(
    {
      status: fc.oneof(catalogWord, fc.jsonValue()),
      msg: fc.oneof(
        catalogWord,
        fc.string(),
        fc.jsonValue(),
        catalogWord.map((w) => `${w} ${KEY}`),
      ),
      data: fc.jsonValue(),
      items: fc.jsonValue(),
      item: fc.jsonValue(),
    },
    { requiredKeys: [] },
  )
  .map((body) => JSON.stringify(body));

const status = fc.integer({ min: 200, max: 599 });
const path = fc.oneof(
  fc.constantFrom('account/details', 'items/all', 'items/item', 'purchases/validation'),
  fc.string(),
);

function answer(raw: string, code: number) {
  // Error statuses are decoded with the key scrubbed (as core does); a 2xx reaches the reader raw.
  return decodeAnswer(
    new Response(null, { status: code }),
    raw,
    'GET x',
    code >= 400 ? scrubber(KEY) : undefined,
  );
}

describe('Management error-body parser (readManagementError)', () => {
  it('never throws on arbitrary JSON or bytes at any status; gives undefined or an APIError of that status', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, laravelBody), status, (raw, code) => {
        const error = readManagementError(answer(raw, code));
        if (error === undefined) return;
        expect(code).toBeGreaterThanOrEqual(400);
        expect(error).toBeInstanceOf(APIError);
        expect(error.status).toBe(code);
        expect(typeof error.message).toBe('string');
        expect(() => JSON.stringify(error)).not.toThrow();
      }),
      RUNS,
    );
  });

  it('reads every Laravel field map as string lists', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1 }), fc.array(fc.string(), { minLength: 1 }), { minKeys: 1 }),
        (fields) => {
          const error = readManagementError(answer(JSON.stringify({ message: fields, status: 422 }), 422));
          expect((error as { fieldErrors?: unknown })?.fieldErrors).toEqual(fields);
        },
      ),
      RUNS,
    );
  });
});

describe('Catalog error reader (readCatalogError)', () => {
  it('never throws on arbitrary JSON or bytes at any status and path; gives undefined or a CatalogError', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, envelopeBody), status, path, (raw, code, where) => {
        const error = readCatalogError(answer(raw, code), where, scrubber(KEY));
        if (error === undefined) return;
        expect(error).toBeInstanceOf(CatalogError);
        expect(error.status).toBe(code);
        expect(typeof error.msg).toBe('string');
        expect(typeof error.code).toBe('string');
      }),
      RUNS,
    );
  });

  it('never lets an echoed key into an error: message, msg, body and toJSON() mask it', () => {
    fc.assert(
      fc.property(envelopeBody, status, path, (raw, code, where) => {
        const error = readCatalogError(answer(raw, code), where, scrubber(KEY));
        if (error === undefined) return;
        for (const text of [error.message, error.msg, JSON.stringify(error), JSON.stringify(error.body)]) {
          expect(text).not.toContain('PROPKEY');
        }
      }),
      RUNS,
    );
  });
});
