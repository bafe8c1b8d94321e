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

/**
 * Whether two purchase codes name the same purchase, as the real server decides: Marketbob looks a code up in a
 * MySQL column of collation `utf8mb4_unicode_ci`, which ignores letter case (its codes are UUIDs, so case is all that
 * can differ). Folded as the SDK's purchase cache folds its key, so the cache never shares an answer between two
 * spellings this server tells apart.
 */
export function sameCode(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The purchases with one of each code, the first spelling kept: the real column is unique, in any case. */
function oneOfEach(purchases: StoredPurchase[]): StoredPurchase[] {
  const seen = new Set<string>();
  return purchases.filter((p) => {
    const folded = p.purchase_code.toLowerCase();
    if (seen.has(folded)) return false;
    seen.add(folded);
    return true;
  });
}

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
   * and a purchase for each of `seed.purchaseCodes` (a code already there in another letter case is skipped).
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
    main.purchases = oneOfEach([...seedPurchases(), ...(seed.purchaseCodes ?? []).map(extraPurchase)]);
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

  /** The ids of a key's items, in order (no copies of the items). */
  itemIds(key: string): number[] {
    return (this.#accounts.get(key)?.items ?? []).map((item) => item.id);
  }

  /** The purchase codes of a key's account, as stored (no copies of the purchases). */
  purchaseCodes(key: string): string[] {
    return (this.#accounts.get(key)?.purchases ?? []).map((p) => p.purchase_code);
  }

  /**
   * Adds purchases to a key's account in one go, for a seed: the caller has checked the key, the items and that no
   * code is there already in any letter case (one pass, where {@link CatalogData.add} looks through the account for
   * each purchase).
   */
  append(key: string, purchases: readonly StoredPurchase[]): void {
    const entry = this.#accounts.get(key);
    if (!entry) throw new Error('reference server: unknown catalog key');
    for (const purchase of purchases) entry.purchases.push(clone(purchase));
  }

  /**
   * Refunds a purchase, its code given in any letter case: the code validates as invalid from now on, in every case,
   * as a marketplace answers for a refunded sale. Returns whether the key's account held it.
   */
  refund(key: string, code: string): boolean {
    const entry = this.#accounts.get(key);
    const at = entry?.purchases.findIndex((p) => sameCode(p.purchase_code, code)) ?? -1;
    if (entry === undefined || at === -1) return false;
    entry.purchases.splice(at, 1);
    return true;
  }

  /**
   * Adds an item or a purchase to a key's account. Throws for an unknown key, and for a purchase whose code the
   * account holds already in any letter case (the real column is unique, so the real server could not store it).
   */
  add(key: string, kind: 'items', value: StoredItem): void;
  add(key: string, kind: 'purchases', value: StoredPurchase): void;
  add(key: string, kind: 'items' | 'purchases', value: StoredItem | StoredPurchase): void {
    const entry = this.#accounts.get(key);
    if (!entry) throw new Error('reference server: unknown catalog key');
    if (kind === 'purchases') {
      const code = (value as StoredPurchase).purchase_code;
      // The code itself stays out of the message: it is a secret.
      if (entry.purchases.some((p) => sameCode(p.purchase_code, code)))
        throw new Error(
          'reference server: the account holds that purchase code already (in some letter case)',
        );
    }
    (entry[kind] as (StoredItem | StoredPurchase)[]).push(clone(value));
  }
}
