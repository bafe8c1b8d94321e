import type { StoredAccount, StoredItem, StoredPurchase } from './catalog/records.js';
import { CatalogData } from './catalog/store.js';
import { timestamp } from './core/json.js';
import { ACCEPTED_PIXEL_TYPES, type StoredDomain, type StoredPixel } from './management/records.js';
import {
  ALPHA_DOMAINS,
  ALPHA_PIXELS,
  BETA_DOMAINS,
  BETA_PIXELS,
  type DomainSeed,
  generatedDomains,
  generatedPixels,
  type PixelSeed,
} from './management/seed.js';
import {
  checkSeedRecords,
  originOf,
  placeOf,
  type SeedOrigin,
  SeedRecordError,
  type SeedRecords,
  storedPurchase,
} from './seed-records.js';

/**
 * The most generated pixels, domains or items a seed adds (`SeedOptions.pixels`…, the bin's `--pixels`): 100 000 of
 * a kind take about 100 MB.
 */
export const MAX_GENERATED = 100_000;

/** Extra generated records on top of the fixed seed (for paging tests and benchmarks). */
export interface SeedOptions {
  /** Generated pixels added to the first workspace (0 to 100 000). */
  pixels?: number;
  /** Generated domains added to the first workspace (0 to 100 000). */
  domains?: number;
  /** Generated items added to the first Catalog account (cycling image, audio, video; 0 to 100 000). */
  items?: number;
  /**
   * More valid purchase codes for the first Catalog account (a regular license with support, of a seeded item). Codes
   * match in any letter case, as on the real server, so one that differs from an earlier one only in case is skipped.
   */
  purchaseCodes?: readonly string[];
  /**
   * Records to add after the fixed seed and the generated ones, such as a seed file holds (`readSeedFile`):
   * pixels and domains go to the first workspace, purchases to the first Catalog account, unless a record's `key`
   * names another of the server's keys. Refused with a {@link SeedRecordError} naming the record and the field when a
   * field breaks the API's rules, a key is not the server's, a name or code is taken (pixel names in a workspace,
   * domain names across workspaces, codes in an account, each in any letter case), or an `item_id` is not an item of
   * the account.
   */
  records?: SeedRecords;
}

/** What a store is built from. */
export interface StoreConfig {
  managementKeys: readonly string[];
  catalogKeys: readonly string[];
  seed: false | SeedOptions;
  now: () => Date;
}

const SEED_TIME = Date.parse('2025-01-15T10:20:30Z');
const clone = <T>(value: T): T => structuredClone(value);

/**
 * The in-memory data of a reference server: one workspace per Management key, one Catalog account per
 * Catalog key. Readers return copies, so assertions never mutate the store.
 */
export class ReferenceStore {
  readonly #config: StoreConfig;
  #pixels = new Map<string, StoredPixel[]>();
  #domains = new Map<string, StoredDomain[]>();
  readonly #catalog: CatalogData;
  #nextPixelId = 1;
  #nextDomainId = 1;
  #seeding = false;
  #seedTick = 0;

  /** Builds the store and loads its seed. */
  constructor(config: StoreConfig) {
    if (config.seed !== false && config.seed.records !== undefined) checkSeedRecords(config.seed.records);
    this.#config = config;
    this.#catalog = new CatalogData(config.catalogKeys);
    this.reset();
  }

  /** Drops every change and reloads the seed. */
  reset(): void {
    const { managementKeys, seed } = this.#config;
    this.#pixels = new Map(managementKeys.map((key) => [key, []]));
    this.#domains = new Map(managementKeys.map((key) => [key, []]));
    this.#catalog.load(seed);
    this.#nextPixelId = 1;
    this.#nextDomainId = 1;
    if (seed === false) return;
    this.#seeding = true;
    this.#seedTick = 0;
    const [alpha, beta] = managementKeys;
    if (alpha !== undefined) {
      for (const p of [...ALPHA_PIXELS, ...generatedPixels(seed.pixels ?? 0, ACCEPTED_PIXEL_TYPES)])
        this.addPixel(alpha, p);
      for (const d of [...ALPHA_DOMAINS, ...generatedDomains(seed.domains ?? 0)]) this.addDomain(alpha, d);
    }
    if (beta !== undefined) {
      for (const p of BETA_PIXELS) this.addPixel(beta, p);
      for (const d of BETA_DOMAINS) this.addDomain(beta, d);
    }
    if (seed.records) this.#addRecords(seed.records);
    this.#seeding = false;
  }

  /** The Management keys, one workspace each. */
  get managementKeys(): readonly string[] {
    return this.#config.managementKeys;
  }

  /** Whether a Management key opens a workspace. */
  hasWorkspace(key: string): boolean {
    return this.#pixels.has(key);
  }

  /** The workspace's pixels, oldest first (copies). */
  pixels(key: string): StoredPixel[] {
    return clone(this.#pixels.get(key) ?? []);
  }

  /** The workspace's domains, oldest first (copies). */
  domains(key: string): StoredDomain[] {
    return clone(this.#domains.get(key) ?? []);
  }

  /** The workspace's live pixels, oldest (lowest id) first, for the list route: no per-request copy. Do not mutate. */
  pixelRecords(key: string): readonly StoredPixel[] {
    return this.#pixels.get(key) ?? [];
  }

  /** The workspace's live domains, oldest (lowest id) first, for the list route: no per-request copy. Do not mutate. */
  domainRecords(key: string): readonly StoredDomain[] {
    return this.#domains.get(key) ?? [];
  }

  /** Every domain of every workspace (copies); domain names are unique across workspaces. */
  allDomains(): StoredDomain[] {
    return clone([...this.#domains.values()].flat());
  }

  /** Adds a pixel to a workspace, as a successful store would. Throws for an unknown key. */
  addPixel(key: string, input: PixelSeed): StoredPixel {
    const list = this.#list(this.#pixels, key);
    const at = this.#stamp();
    const pixel: StoredPixel = { id: this.#nextPixelId++, ...pick(input), created_at: at, updated_at: at };
    list.push(pixel);
    return clone(pixel);
  }

  /** Adds a domain to a workspace. Throws for an unknown key. */
  addDomain(key: string, input: DomainSeed): StoredDomain {
    const list = this.#list(this.#domains, key);
    const at = this.#stamp();
    const domain: StoredDomain = {
      id: this.#nextDomainId++,
      name: input.name,
      url: `https://${input.name}`,
      index_page: input.index_page ?? null,
      not_found_page: input.not_found_page ?? null,
      created_at: at,
      updated_at: at,
    };
    list.push(domain);
    return clone(domain);
  }

  /** The workspace's pixel with this id (a live record, for the routes), or undefined. */
  findPixel(key: string, id: number): StoredPixel | undefined {
    return this.#pixels.get(key)?.find((p) => p.id === id);
  }

  /** The workspace's domain with this id (a live record, for the routes), or undefined. */
  findDomain(key: string, id: number): StoredDomain | undefined {
    return this.#domains.get(key)?.find((d) => d.id === id);
  }

  /** Applies changes to a live record and bumps its `updated_at`. */
  touch<T extends { updated_at: string }>(record: T, changes: Partial<T>): T {
    Object.assign(record, changes, { updated_at: this.#stamp() });
    return clone(record);
  }

  /** Removes a pixel; true when it existed in that workspace. */
  deletePixel(key: string, id: number): boolean {
    return remove(this.#pixels.get(key), id);
  }

  /** Removes a domain; true when it existed in that workspace. */
  deleteDomain(key: string, id: number): boolean {
    return remove(this.#domains.get(key), id);
  }

  /** The Catalog keys; the first owns the seeded items. */
  get catalogKeys(): readonly string[] {
    return this.#config.catalogKeys;
  }

  /** The account of a Catalog key (a copy), or undefined for an unknown key. */
  account(key: string): StoredAccount | undefined {
    return this.#catalog.account(key);
  }

  /** The items of a Catalog key (copies); the first key's by default. */
  items(key: string = this.#catalog.mainKey): StoredItem[] {
    return this.#catalog.items(key);
  }

  /** The purchases of a Catalog key's items (copies); the first key's by default. */
  purchases(key: string = this.#catalog.mainKey): StoredPurchase[] {
    return this.#catalog.purchases(key);
  }

  /**
   * Refunds a purchase of a Catalog account (first key by default), its code given in any letter case: the code
   * validates as invalid from now on, in every case. Returns whether the account held it.
   */
  refundPurchase(code: string, key: string = this.#catalog.mainKey): boolean {
    return this.#catalog.refund(key, code);
  }

  /** Adds an item to a Catalog account (first key by default). Throws for an unknown key. */
  addItem(item: StoredItem, key: string = this.#catalog.mainKey): void {
    this.#catalog.add(key, 'items', item);
  }

  /**
   * Adds a purchase to a Catalog account (first key by default). Throws for an unknown key, and for a code the account
   * holds already in any letter case (validation matches a code in any case, as the real server does).
   */
  addPurchase(purchase: StoredPurchase, key: string = this.#catalog.mainKey): void {
    this.#catalog.add(key, 'purchases', purchase);
  }

  // Adds `seed.records` (their fields checked already), refusing an unknown key, a taken name or code, or an item
  // the account lacks. Names and codes are looked up in maps, so thousands of records load in one pass.
  #addRecords(records: SeedRecords): void {
    const { managementKeys, catalogKeys } = this.#config;
    const fold = (name: string) => name.toLowerCase();
    // What took a name first: a record of the seed itself, or an earlier record (named as the file names it).
    const taken = (by: SeedOrigin | undefined, origin: SeedOrigin, place: string) =>
      by === undefined
        ? `is already seeded${place}`
        : `is taken${place} by ${by.source === origin.source ? by.at : placeOf(by)}`;
    const refuse = (origin: SeedOrigin, problem: string): never => {
      throw new SeedRecordError(origin, problem);
    };
    const workspace = (origin: SeedOrigin, kind: string, key: string | undefined): string => {
      if (key === undefined && managementKeys[0] === undefined)
        refuse(origin, `${kind} has no workspace to go to: the server has no Management keys`);
      const chosen = key ?? (managementKeys[0] as string);
      if (!this.#pixels.has(chosen))
        refuse(origin, `${kind} "key" is not one of the server's Management keys`);
      return chosen;
    };

    // Pixel names are unique in a workspace, domain names across workspaces, in any letter case (as the API checks).
    const pixelNames = new Map<string, Map<string, SeedOrigin | undefined>>();
    (records.pixels ?? []).forEach((pixel, i) => {
      const origin = originOf(pixel, `pixels[${i}]`);
      const key = workspace(origin, 'pixel', pixel.key);
      let names = pixelNames.get(key);
      if (names === undefined) {
        names = new Map(this.#list(this.#pixels, key).map((p) => [fold(p.name), undefined]));
        pixelNames.set(key, names);
      }
      const name = fold(pixel.name);
      if (names.has(name))
        refuse(
          origin,
          `pixel name ${JSON.stringify(pixel.name)} ${taken(names.get(name), origin, ' in its workspace')} (pixel names are unique in a workspace, in any letter case)`,
        );
      names.set(name, origin);
      this.addPixel(key, pixel);
    });
    const domainNames = new Map<string, SeedOrigin | undefined>(
      records.domains?.length ? [...this.#domains.values()].flat().map((d) => [fold(d.name), undefined]) : [],
    );
    (records.domains ?? []).forEach((domain, i) => {
      const origin = originOf(domain, `domains[${i}]`);
      const key = workspace(origin, 'domain', domain.key);
      const name = fold(domain.name);
      if (domainNames.has(name))
        refuse(
          origin,
          `domain name ${JSON.stringify(domain.name)} ${taken(domainNames.get(name), origin, '')} (domain names are unique across workspaces, in any letter case)`,
        );
      domainNames.set(name, origin);
      this.addDomain(key, domain);
    });

    // Purchase codes are unique in an account in any letter case (the real column ignores case); the code itself
    // stays out of the message: it is a secret.
    const accounts = new Map<
      string,
      { items: Set<number>; codes: Map<string, SeedOrigin | undefined>; add: StoredPurchase[] }
    >();
    (records.purchases ?? []).forEach((purchase, i) => {
      const origin = originOf(purchase, `purchases[${i}]`);
      if (purchase.key === undefined && catalogKeys[0] === undefined)
        refuse(origin, 'purchase has no account to go to: the server has no Catalog keys');
      const key = purchase.key ?? (catalogKeys[0] as string);
      if (!catalogKeys.includes(key))
        refuse(origin, `purchase "key" is not one of the server's Catalog keys`);
      let account = accounts.get(key);
      if (account === undefined) {
        const items = this.#catalog.itemIds(key);
        account = {
          items: new Set(items),
          codes: new Map(this.#catalog.purchaseCodes(key).map((code) => [fold(code), undefined])),
          add: [],
        };
        accounts.set(key, account);
      }
      const [first] = account.items;
      if (first === undefined)
        refuse(
          origin,
          "purchase has no item: its account has none (only the first Catalog key's account has items)",
        );
      if (purchase.item_id !== undefined && !account.items.has(purchase.item_id))
        refuse(origin, `purchase "item_id" ${purchase.item_id} is not an item of its account`);
      const code = fold(purchase.purchase_code);
      if (account.codes.has(code))
        refuse(
          origin,
          `purchase "purchase_code" ${taken(account.codes.get(code), origin, ' in its account')} (codes match in any letter case)`,
        );
      account.codes.set(code, origin);
      account.add.push(storedPurchase(purchase, first as number));
    });
    for (const [key, account] of accounts) this.#catalog.append(key, account.add);
  }

  #list<T>(map: Map<string, T[]>, key: string): T[] {
    const list = map.get(key);
    if (!list) throw new Error('reference server: unknown management key');
    return list;
  }

  // Seeded records get distinct, increasing timestamps; later writes use the clock.
  #stamp(): string {
    if (this.#seeding) return timestamp(new Date(SEED_TIME + 60_000 * this.#seedTick++));
    return timestamp(this.#config.now());
  }
}

function pick(input: PixelSeed): PixelSeed {
  return { name: input.name, type: input.type, value: input.value };
}

function remove(list: { id: number }[] | undefined, id: number): boolean {
  const index = list?.findIndex((r) => r.id === id) ?? -1;
  if (!list || index < 0) return false;
  list.splice(index, 1);
  return true;
}
