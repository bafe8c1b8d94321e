import type { StoredAccount, StoredItem, StoredPurchase } from './records.js';
import {
  EMPTY_ACCOUNT,
  extraPurchase,
  generatedItems,
  MAIN_ACCOUNT,
  seedItems,
  seedPurchases,
} from './seed.js';

interface CatalogAccount {
  account: StoredAccount;
  items: StoredItem[];
  purchases: StoredPurchase[];
}

const clone = <T>(value: T): T => structuredClone(value);

/** The Catalog side of the store: one account per key; the first key owns the seeded items and purchases. */
export class CatalogData {
  readonly #keys: readonly string[];
  #accounts = new Map<string, CatalogAccount>();

  /** Creates the accounts of `keys` (empty until {@link CatalogData.load}). */
  constructor(keys: readonly string[]) {
    this.#keys = keys;
    this.load(false);
  }

  /**
   * Recreates the accounts; unless `seed` is false, gives the first one the seed plus `seed.items` generated items
   * and a purchase for each of `seed.purchaseCodes`.
   */
  load(seed: false | { items?: number; purchaseCodes?: readonly string[] }): void {
    this.#accounts = new Map(
      this.#keys.map((key, i) => [
        key,
        { account: clone(i === 0 ? MAIN_ACCOUNT : EMPTY_ACCOUNT), items: [], purchases: [] },
      ]),
    );
    const main = this.#accounts.get(this.mainKey);
    if (seed === false || !main) return;
    main.items = [...seedItems(), ...generatedItems(seed.items ?? 0, 110)];
    main.purchases = [...seedPurchases(), ...(seed.purchaseCodes ?? []).map(extraPurchase)];
  }

  /** The key of the seeded account. */
  get mainKey(): string {
    return this.#keys[0] ?? '';
  }

  /** The account of a key (a copy), or undefined. */
  account(key: string): StoredAccount | undefined {
    const entry = this.#accounts.get(key);
    return entry && clone(entry.account);
  }

  /** The items of a key (copies). */
  items(key: string): StoredItem[] {
    return clone(this.#accounts.get(key)?.items ?? []);
  }

  /** The purchases of a key (copies). */
  purchases(key: string): StoredPurchase[] {
    return clone(this.#accounts.get(key)?.purchases ?? []);
  }

  /**
   * Refunds a purchase: its code validates as invalid from now on, as a marketplace answers for a refunded sale.
   * Returns whether the key's account held it.
   */
  refund(key: string, code: string): boolean {
    const entry = this.#accounts.get(key);
    const at = entry?.purchases.findIndex((p) => p.purchase_code === code) ?? -1;
    if (entry === undefined || at === -1) return false;
    entry.purchases.splice(at, 1);
    return true;
  }

  /** Adds an item or a purchase to a key's account. Throws for an unknown key. */
  add(key: string, kind: 'items', value: StoredItem): void;
  add(key: string, kind: 'purchases', value: StoredPurchase): void;
  add(key: string, kind: 'items' | 'purchases', value: StoredItem | StoredPurchase): void {
    const entry = this.#accounts.get(key);
    if (!entry) throw new Error('reference server: unknown catalog key');
    (entry[kind] as (StoredItem | StoredPurchase)[]).push(clone(value));
  }
}
