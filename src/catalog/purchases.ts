import { InvalidParamsError, maskCode, ResponseValidationError } from '../core/errors/index.js';
import type { HttpClient, RequestOptions } from '../core/transport/index.js';
import { type APIPromise, deferred } from '../core/transport/index.js';
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
   * @throws {ResponseValidationError} when the answer is about another purchase code.
   */
  validate(purchaseCode: string, options?: RequestOptions): APIPromise<Purchase> {
    return deferred(() => {
      const purchase_code = code(purchaseCode);
      return this.#http.request('POST', 'purchases/validation', PurchaseEnvelopeSchema, {
        body: { purchase_code },
        options,
        // Errors and log lines show the code by its last four characters only.
        secrets: [purchase_code],
        accept: aboutCode(purchase_code),
      });
    });
  }
}

/**
 * Fails an answer about another code than `asked` (a cache or proxy that ignores the body would serve another
 * caller's purchase). The case may differ: a MySQL lookup matches a code in any case and sends the stored one.
 */
function aboutCode(asked: string) {
  return (purchase: Purchase, call: { readonly label: string }, response: Response): void => {
    const sent = purchase.purchase_code;
    if (sent.trim().toLowerCase() === asked.toLowerCase()) return;
    const theirs = maskCode(sent);
    const ours = maskCode(asked);
    throw new ResponseValidationError({
      message: `${call.label}: the answer is about purchase code ${theirs}, not ${ours}.`,
      issues: [{ path: ['purchase_code'], message: `expected ${ours}, got ${theirs}` }],
      body: { ...purchase, purchase_code: theirs },
      status: response.status,
    });
  };
}

function code(value: unknown): string {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  throw new InvalidParamsError(
    // Only an empty string is quoted: any other value could be a whole code.
    `purchaseCode must be a non-empty string; got ${typeof value === 'string' ? JSON.stringify(value) : `a value of type ${value === null ? 'null' : typeof value}`}.`,
    'purchaseCode',
  );
}
