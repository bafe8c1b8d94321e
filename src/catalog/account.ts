import type { APIPromise, HttpClient, RequestOptions } from '../core/transport/index.js';
import { AccountAnswer } from './responses.js';
import type { Account } from './schemas.js';

/**
 * `catalog.account`: the account that owns the API key. Named `AccountResource` because `Account` is the
 * entity type that `details()` returns.
 */
export class AccountResource {
  readonly #http: HttpClient;

  /** Built by `CatalogClient`; not meant to be constructed directly. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /**
   * Account details: `GET /api/account/details?api_key=…`.
   * @throws {AccountRequestError} when the server refuses the request (`طلب غير ناجح`, usually a bad key).
   */
  details(options?: RequestOptions): APIPromise<Account> {
    return this.#http.request('GET', 'account/details', AccountAnswer, {
      op: 'account.details',
      options,
    });
  }
}
