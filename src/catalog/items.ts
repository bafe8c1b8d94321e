import type { HttpClient, RequestOptions } from '../core/transport/index.js';
import { type APIPromise, aboutId, checkId, deferred, type Id } from '../core/transport/index.js';
import { ItemAnswer, ItemsAnswer } from './responses.js';
import type { Item } from './schemas.js';

// Far more items than any author's account holds: a longer list is a broken or hostile server.
const ITEM_LIST = { key: 'items', most: 10_000, why: 'the SDK accepts in an item list' };

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
   * @throws {ResponseValidationError} a list of more than 10 000 items, refused before it is read.
   */
  list(options?: RequestOptions): APIPromise<Item[]> {
    return deferred(() =>
      this.#http.request('GET', 'items/all', ItemsAnswer, {
        op: 'items.list',
        options,
        records: ITEM_LIST,
      }),
    );
  }

  /**
   * One item: `GET /api/items/item?item_id=…`.
   * @throws {InvalidParamsError} before any request, when `itemId` is not a positive whole number.
   * @throws {ItemNotFoundError} when no item has that id (`المنتج غير موجود`).
   * @throws {ResponseValidationError} when the answer is about another item.
   */
  get(itemId: Id, options?: RequestOptions): APIPromise<Item> {
    return deferred(() =>
      this.#http.request('GET', 'items/item', ItemAnswer, {
        op: 'items.get',
        options,
        query: { item_id: checkId(itemId, 'itemId') },
        accept: aboutId(itemId, 'item'),
      }),
    );
  }
}
