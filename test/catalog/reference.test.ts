import { describe, expect, it } from 'vitest';
import { CatalogClient, InvalidPurchaseCodeError, ItemNotFoundError, NoItemsError } from '../../src/index.js';
import { createReferenceServer, SEED_CATALOG_KEYS, SEED_PURCHASE_CODES } from '../../src/testing/index.js';

// The SDK against the embedded reference server, in each flavor and locale: no msw, no network.
const VARIANTS = (['spec', 'laravel'] as const).flatMap((flavor) =>
  (['ar', 'en'] as const).map((locale) => ({ flavor, locale })),
);

describe.each(VARIANTS)(
  'CatalogClient against the reference server ($flavor, $locale)',
  ({ flavor, locale }) => {
    function catalog(apiKey: string = SEED_CATALOG_KEYS[0]) {
      const server = createReferenceServer({ flavor, locale, rateLimit: false });
      return new CatalogClient({
        siteUrl: 'https://market.example.com',
        apiKey,
        maxRetries: 0,
        fetch: server.fetch,
      });
    }

    it('reads the account, the items, one item and a purchase', async () => {
      const client = catalog();
      const account = await client.account.details();
      expect(typeof account.balance).toBe('number');
      const items = await client.items.list();
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) expect(Array.isArray(item.tags)).toBe(true);
      const first = items[0]!;
      await expect(client.items.get(first.id)).resolves.toEqual(first);
      const purchase = await client.purchases.validate(SEED_PURCHASE_CODES.supported);
      expect(purchase.purchase_code).toBe(SEED_PURCHASE_CODES.supported);
    });

    it('refuses a short or odd code as an invalid purchase code, whatever its characters', async () => {
      // Each is inside the envelope's text ("5", "u" and "0" in \uXXXX escapes, "s" and "a" in its keys, Arabic
      // words in its msg): masked there, the answer read as not JSON, or as no envelope, and failed as a plain
      // NotFoundError.
      for (const code of [
        '5',
        '7',
        'e',
        '0627',
        'u',
        '0',
        'a',
        's',
        'S',
        'g',
        '62',
        'status',
        'msg',
        'خطأ',
        'كود',
        '"',
        '\\',
      ]) {
        const error = await catalog()
          .purchases.validate(code)
          .catch((e: unknown) => e);
        expect(error, code).toBeInstanceOf(InvalidPurchaseCodeError);
        expect((error as InvalidPurchaseCodeError).code).toBe('invalid_purchase_code');
      }
    });

    it('maps the error conditions to their classes', async () => {
      await expect(catalog().items.get(999_999)).rejects.toBeInstanceOf(ItemNotFoundError);
      await expect(catalog().purchases.validate(SEED_PURCHASE_CODES.invalid)).rejects.toBeInstanceOf(
        InvalidPurchaseCodeError,
      );
      await expect(catalog(SEED_CATALOG_KEYS[1]).items.list()).rejects.toBeInstanceOf(NoItemsError);
    });
  },
);
