import { type APIPromise, deferred } from '../core/api-promise.js';
import { InvalidParamsError } from '../core/errors.js';
import type { HttpClient } from '../core/http.js';
import type { RequestOptions } from '../core/options.js';
import { type Purchase, PurchaseEnvelopeSchema } from './schemas.js';

/** `catalog.purchases`: purchase-code validation. */
export class Purchases {
  readonly #http: HttpClient;

  /** Built by `CatalogClient`; not meant to be constructed directly. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /**
   * Validates a purchase code: `POST /api/purchases/validation` with a JSON body (the key rides in the body,
   * out of URL logs). Surrounding whitespace is trimmed off the code.
   * @throws {InvalidParamsError} before any request, when `purchaseCode` is not a non-empty string.
   * @throws {InvalidPurchaseCodeError} when the code is not valid (`كود الشراء غير صحيح`).
   */
  validate(purchaseCode: string, options?: RequestOptions): APIPromise<Purchase> {
    return deferred(() => {
      const purchase_code = code(purchaseCode);
      // Errors and log lines show the code by its last four characters only.
      return this.#http.post('purchases/validation', PurchaseEnvelopeSchema, { purchase_code }, options, [
        purchase_code,
      ]);
    });
  }
}

function code(value: unknown): string {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  throw new InvalidParamsError(
    // Only an empty string is quoted: any other value could be a whole code.
    `purchaseCode must be a non-empty string; got ${typeof value === 'string' ? JSON.stringify(value) : `a value of type ${value === null ? 'null' : typeof value}`}.`,
    'purchaseCode',
  );
}
