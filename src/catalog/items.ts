import type { HttpClient, RequestOptions } from '../core/transport/index.js';
import { type APIPromise, checkId, deferred, type Id } from '../core/transport/index.js';
import { type Item, ItemEnvelopeSchema, ItemsEnvelopeSchema } from './schemas.js';

/** `catalog.items`: the items tied to the API key. */
export class Items {
  readonly #http: HttpClient;

  /** Built by `CatalogClient`; not meant to be constructed directly. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /**
   * Every item of the key's account: `GET /api/items/all` (no pagination).
   * @throws {NoItemsError} when the account has no items (`لا يوجد أى منتجات`).
   */
  list(options?: RequestOptions): APIPromise<Item[]> {
    return deferred(() => this.#http.get('items/all', ItemsEnvelopeSchema, options));
  }

  /**
   * One item: `GET /api/items/item?item_id=…`.
   * @throws {InvalidParamsError} before any request, when `itemId` is not a non-negative whole number.
   * @throws {ItemNotFoundError} when no item has that id (`المنتج غير موجود`).
   */
  get(itemId: Id, options?: RequestOptions): APIPromise<Item> {
    return deferred(() =>
      this.#http.get('items/item', ItemEnvelopeSchema, options, { item_id: checkId(itemId, 'itemId') }),
    );
  }
}
