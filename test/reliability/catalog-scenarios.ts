import { expect } from 'vitest';
import {
  APIConnectionTimeoutError,
  type APIError,
  CatalogError,
  InternalServerError,
  InvalidPurchaseCodeError,
  ItemNotFoundError,
  NoItemsError,
  ResponseValidationError,
} from '../../src/core/errors/classes.js';
import { attempts, editJson, failure, type Scenario } from './harness.js';

const isValidation = (r: Request) => r.method === 'POST';

/** Catalog-specific faults: the envelope, the read-only POST, the Arabic words. */
export const catalogScenarios: Scenario[] = [
  {
    name: 'Catalog: an error envelope sent with 200 is not retried (ItemNotFoundError, status 200)',
    via: ['socket', 'msw', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      rig.server.faults.script([{ status: 200, body: { status: 'خطأ', msg: 'المنتج غير موجود' } }]);
      const error = await failure(rig.catalog(via).items.get(101));
      expect(error).toBeInstanceOf(ItemNotFoundError);
      expect((error as ItemNotFoundError).status).toBe(200);
      expect((error as ItemNotFoundError).msg).toBe('المنتج غير موجود');
      expect(attempts(rig)).toBe(1);
    },
  },
  {
    name: 'Catalog: 503 on purchase validation (a read-only POST) is retried and succeeds',
    via: ['socket', 'msw', 'fetch'],
    within: 2_000,
    async run(rig, via) {
      rig.server.faults.script([{ status: 503 }], { match: isValidation });
      const purchase = await rig.catalog(via).purchases.validate(rig.server.fixtures.purchaseCodes.supported);
      expect(purchase).toMatchObject({ item: { id: 101 } });
      expect(rig.server.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    },
  },
  {
    name: 'Catalog: connection reset and a lost answer on purchase validation are both retried',
    via: ['socket', 'fetch'],
    within: 2_000,
    async run(rig, via) {
      rig.server.faults.script(['reset', 'lose-response'], { match: isValidation });
      await expect(
        rig.catalog(via).purchases.validate(rig.server.fixtures.purchaseCodes.supportExpired),
      ).resolves.toMatchObject({ item: { id: expect.any(Number) } });
      expect(attempts(rig)).toBe(3);
    },
  },
  {
    name: 'Catalog: an invalid purchase code (404 envelope) is InvalidPurchaseCodeError, not retried',
    via: ['socket', 'msw'],
    within: 1_000,
    async run(rig, via) {
      const error = await failure(
        rig.catalog(via).purchases.validate(rig.server.fixtures.purchaseCodes.invalid),
      );
      expect(error).toBeInstanceOf(InvalidPurchaseCodeError);
      expect((error as InvalidPurchaseCodeError).code).toBe('invalid_purchase_code');
      expect(attempts(rig)).toBe(1);
    },
  },
  {
    name: 'Catalog: 429 without an envelope on items.list: retried after Retry-After 0, succeeds',
    via: ['socket'],
    within: 1_500,
    async run(rig, via) {
      rig.server.faults.script([
        { status: 429, body: { message: 'Too Many Attempts.' }, headers: { 'retry-after': '0' } },
      ]);
      expect((await rig.catalog(via).items.list()).length).toBeGreaterThan(0);
      expect(attempts(rig)).toBe(2);
    },
  },
  {
    name: 'Catalog: an HTML 500 on every attempt of account.details: InternalServerError after 3 attempts',
    via: ['socket', 'msw'],
    within: 2_000,
    async run(rig, via) {
      const page = {
        status: 500,
        body: '<h1>Whoops, looks like something went wrong.</h1>',
        headers: { 'content-type': 'text/html' },
      };
      rig.server.faults.script([page, page, page]);
      const error = await failure(rig.catalog(via).account.details());
      expect(error).toBeInstanceOf(InternalServerError);
      expect(error).not.toBeInstanceOf(CatalogError);
      expect(attempts(rig)).toBe(3);
    },
  },
  {
    name: 'Catalog: the server hangs on purchase validation: APIConnectionTimeoutError after 2 attempts',
    via: ['socket'],
    within: 1_500,
    async run(rig, via) {
      rig.server.faults.script(['hang', 'hang'], { match: isValidation });
      const error = await failure(
        rig
          .catalog(via, { timeout: 200, maxRetries: 1 })
          .purchases.validate(rig.server.fixtures.purchaseCodes.supported),
      );
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      expect(attempts(rig)).toBe(2);
    },
  },
  {
    name: 'Catalog: truncated JSON on items.get: ResponseValidationError, not retried',
    via: ['socket', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      rig.server.faults.script(['truncated']);
      const error = await failure(rig.catalog(via).items.get(102));
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(attempts(rig)).toBe(1);
    },
  },
  {
    name: 'Catalog: the envelope in English with spelling noise still maps (NoItemsError at 404)',
    via: ['fetch'],
    within: 1_000,
    async run(rig, via) {
      rig.server.faults.script([{ status: 404, body: { status: 'Error', msg: '  no   items found. ' } }]);
      const error = await failure(rig.catalog(via).items.list());
      expect(error).toBeInstanceOf(NoItemsError);
      expect((error as NoItemsError).msg).toBe('  no   items found. ');
    },
  },
  {
    name: 'Catalog: an error envelope with a status word nobody knows (a translation): CatalogError "unknown"',
    via: ['socket'],
    within: 1_000,
    async run(rig, via) {
      rig.server.faults.script([{ status: 200, body: { status: 'فشل العملية', msg: 'حدث شيء ما' } }]);
      const error = await failure(rig.catalog(via).account.details());
      expect(error.constructor).toBe(CatalogError);
      expect((error as CatalogError).code).toBe('unknown');
    },
  },
  {
    name: 'Catalog: an item that gained fields, with a null version: parsed',
    via: ['socket', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      rig.use(
        editJson((body) => {
          const envelope = body as { item?: Record<string, unknown> };
          if (envelope.item) Object.assign(envelope.item, { version: null, rating: 4.5, badges: ['new'] });
          return { ...envelope, server_time: 1 };
        }),
      );
      const item = await rig.catalog(via).items.get(101);
      expect(item).toMatchObject({ id: 101, version: null });
      expect(item).not.toHaveProperty('rating');
    },
  },
  {
    name: 'Catalog: a 502 HTML page is an HTTP error, not a Catalog envelope',
    via: ['msw'],
    within: 1_000,
    async run(rig, via) {
      rig.server.faults.script([
        { status: 502, body: '<html>Bad Gateway</html>', headers: { 'content-type': 'text/html' } },
      ]);
      const error = await failure(rig.catalog(via, { maxRetries: 0 }).items.list());
      expect(error).toBeInstanceOf(InternalServerError);
      expect((error as APIError).status).toBe(502);
    },
  },
];
