import type { ReferenceStore } from '../store.js';
import { accepted, type FormInput, type Rule } from './laravel-validation.js';
import { ACCEPTED_PIXEL_TYPES, type StoredDomain, type StoredPixel } from './records.js';

/** What the Management routes need to know about one resource. */
export interface ResourceDef<T extends { id: number; name: string; updated_at: string }> {
  object: 'pixel' | 'domain';
  /** Live records, oldest first (the list route encodes one page of them; it never mutates them). */
  all(store: ReferenceStore, key: string): readonly T[];
  find(store: ReferenceStore, key: string, id: number): T | undefined;
  remove(store: ReferenceStore, key: string, id: number): boolean;
  create(store: ReferenceStore, key: string, input: FormInput): T;
  /** The update's changes (fields not sent are left alone). */
  changes(input: FormInput): Partial<T>;
  rules(store: ReferenceStore, key: string, self?: T): Record<string, Rule>;
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const text = (input: FormInput, field: string) => input.get(field) ?? '';

/** Pixels: name ≤ 32 characters and unique (case-insensitively) within the workspace, type from the enum. */
export const PIXELS: ResourceDef<StoredPixel> = {
  object: 'pixel',
  all: (store, key) => store.pixelRecords(key),
  find: (store, key, id) => store.findPixel(key, id),
  remove: (store, key, id) => store.deletePixel(key, id),
  create: (store, key, input) =>
    store.addPixel(key, {
      name: text(input, 'name'),
      type: text(input, 'type'),
      value: text(input, 'value'),
    }),
  changes: (input) => accepted(input, ['name', 'type', 'value']) as Partial<StoredPixel>,
  rules: (store, key, self) => ({
    name: {
      sometimes: self !== undefined,
      required: true,
      max: 32,
      taken: (v) => store.pixels(key).some((p) => p.id !== self?.id && sameName(p.name, v)),
    },
    type: { sometimes: self !== undefined, required: true, in: ACCEPTED_PIXEL_TYPES },
    value: { sometimes: self !== undefined, required: true, max: 255 },
  }),
};

/** Domains: name required, ≤ 255 characters, unique across all workspaces; a name sent on update is ignored. */
export const DOMAINS: ResourceDef<StoredDomain> = {
  object: 'domain',
  all: (store, key) => store.domainRecords(key),
  find: (store, key, id) => store.findDomain(key, id),
  remove: (store, key, id) => store.deleteDomain(key, id),
  create: (store, key, input) =>
    store.addDomain(key, {
      name: text(input, 'name'),
      index_page: input.get('index_page') ?? null,
      not_found_page: input.get('not_found_page') ?? null,
    }),
  changes: (input) => accepted(input, ['index_page', 'not_found_page']) as Partial<StoredDomain>,
  rules: (store, _key, self) =>
    self === undefined
      ? {
          name: {
            required: true,
            max: 255,
            taken: (v) => store.allDomains().some((d) => sameName(d.name, v)),
          },
          index_page: { max: 2048 },
          not_found_page: { max: 2048 },
        }
      : { index_page: { max: 2048 }, not_found_page: { max: 2048 } },
};
