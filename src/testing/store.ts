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

/** Extra generated records on top of the fixed seed (for paging tests and benchmarks). */
export interface SeedOptions {
  /** Generated pixels added to the first workspace. */
  pixels?: number;
  /** Generated domains added to the first workspace. */
  domains?: number;
  /** Generated items added to the first Catalog account (cycling image, audio, video). */
  items?: number;
  /**
   * More valid purchase codes for the first Catalog account (a regular license with support, of a seeded item). Codes
   * match in any letter case, as on the real server, so one that differs from an earlier one only in case is skipped.
   */
  purchaseCodes?: readonly string[];
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
