import { InvalidParamsError, maskCode, ResponseValidationError } from '../core/errors/index.js';
import type { HttpClient, RequestOptions } from '../core/transport/index.js';
import { APIPromise, deferred } from '../core/transport/index.js';
import type { PurchaseCache } from './cache.js';
import { type Purchase, PurchaseEnvelopeSchema } from './schemas.js';

/** Options of one validation: the request options, and `cache: false` to ask the server past a fresh entry. */
export interface ValidateOptions extends RequestOptions {
  /** `false`: ask the server even when the cache holds a fresh entry, and refresh it. No effect without a cache. */
  cache?: false | undefined;
}

/** `catalog.purchases`: purchase-code validation. */
export class Purchases {
  readonly #http: HttpClient;
  readonly #cache: PurchaseCache | undefined;

  /** Built by `CatalogClient`; not meant to be constructed directly. */
  constructor(http: HttpClient, cache?: PurchaseCache) {
    this.#http = http;
    this.#cache = cache;
  }

  /**
   * Validates a purchase code: `POST /api/purchases/validation` with a JSON body (the key rides in the body,
   * out of URL logs). Surrounding whitespace is trimmed off the code.
   * @throws {InvalidParamsError} before any request, when `purchaseCode` is not a non-empty string.
   * @throws {InvalidPurchaseCodeError} when the code is not valid (`كود الشراء غير صحيح`).
   * @throws {ResponseValidationError} when the answer is about another purchase code.
   * With the client's `cache`, a fresh entry answers without a request (`withResponse().cache` says `hit`), and a
   * transient failure is answered by an entry younger than `staleIfError` (`stale`); an invalid code's entry goes.
   */
  validate(purchaseCode: string, options?: ValidateOptions): APIPromise<Purchase> {
    return deferred(() => {
      const purchase_code = code(purchaseCode);
      const cache = options?.cache;
      if (cache !== undefined && cache !== false) {
        throw new InvalidParamsError(
          `cache for one validation can only be false; got ${String(cache)}.`,
          'cache',
        );
      }
      // `cache` is not a transport option: the transport reads only the options it knows, so they pass as given.
      const ask = () =>
        this.#http.request('POST', 'purchases/validation', PurchaseEnvelopeSchema, {
          body: { purchase_code },
          options,
          // Errors and log lines show the code by its last four characters only.
          secrets: [purchase_code],
          accept: aboutCode(purchase_code),
        });
      if (this.#cache === undefined) return ask();
      return new APIPromise(this.#cache.validate(purchase_code, () => ask().withResponse(), cache === false));
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
