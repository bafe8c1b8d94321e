import type { StoredPurchase } from './catalog/records.js';
import { timestamp } from './core/json.js';
import { ACCEPTED_PIXEL_TYPES } from './management/records.js';

/** A pixel to seed: the fields the API's create takes, and the workspace it goes to. */
export interface SeedPixel {
  /** 1 to 32 characters, unique in its workspace in any letter case. */
  name: string;
  /** One of {@link ACCEPTED_PIXEL_TYPES}. */
  type: string;
  /** 1 to 255 characters. */
  value: string;
  /** The Management key of its workspace; default: the server's first. */
  key?: string;
}

/** A domain to seed: the fields the API's create takes, and the workspace it goes to. */
export interface SeedDomain {
  /** 1 to 255 characters, unique across every workspace in any letter case; its `url` is `https://{name}`. */
  name: string;
  /** Up to 2048 characters, or null (default). */
  index_page?: string | null;
  /** Up to 2048 characters, or null (default). */
  not_found_page?: string | null;
  /** The Management key of its workspace; default: the server's first. */
  key?: string;
}

/**
 * A purchase to seed: a valid purchase code and, optionally, the rest of the purchase (the fields of a
 * `StoredPurchase`); each field left out gets the default of a `--purchase-code` code.
 */
export interface SeedPurchase {
  /** 1 to 100 letters, digits, `-` or `_` (such as a UUID), unique in its account in any letter case. */
  purchase_code: string;
  /** The license label, as the marketplace writes it; default `'رخصة عادية'` (regular). */
  license_type?: string;
  /** Default 19.99. */
  price?: number;
  /** Three capital letters; default `'USD'`. */
  currency?: string;
  /** An item of the account; default: the account's first item (101 on the main account). */
  item_id?: number;
  /**
   * End of support, as an ISO 8601 date (`2026-12-31`) or date-time with a zone (`2026-12-31T23:59:59Z`); null when
   * support is disabled. Default `2099-12-31T23:59:59.000000Z`. Kept in the API's form, `2026-12-31T00:00:00.000000Z`.
   */
  supported_until?: string | null;
  /** Whether the buyer has downloaded the item; default false. */
  downloaded?: boolean;
  /** The sale's date, written like `supported_until`; default `2025-03-01T12:00:00.000000Z`. */
  date?: string;
  /** The Catalog key of its account; default: the server's first (the main account, the only one with items). */
  key?: string;
}

/**
 * Records a reference server adds on top of its seed (`seed.records`), as a seed file holds them: pixels and domains
 * go to the first Management workspace, purchases to the first Catalog account, unless a record's `key` names
 * another of the server's keys.
 */
export interface SeedRecords {
  pixels?: readonly SeedPixel[];
  domains?: readonly SeedDomain[];
  purchases?: readonly SeedPurchase[];
}

/** How a seed file is written: one JSON object of arrays, or NDJSON (one record a line, each with its `kind`). */
export type SeedFileFormat = 'json' | 'ndjson';

/** Options of {@link parseSeedFile} and {@link readSeedFile}. */
export interface SeedFileOptions {
  /**
   * The format; by default a name ending `.json` is JSON and one ending `.ndjson` or `.jsonl` NDJSON, and any other
   * text is NDJSON when its first record line is an object with a `kind`, else JSON.
   */
  format?: SeedFileFormat;
}

/**
 * A seed record refused, or a seed file that cannot be read: `message` names the file (or `seed.records`), the record
 * (`line 3` of NDJSON, `pixels[2]` of JSON or of records given in code) and the field, e.g.
 * `seed file seed.ndjson, line 3: pixel "type" must be one of adroll, …; got "tiktok"`.
 */
export class SeedRecordError extends Error {
  override readonly name = 'SeedRecordError';
  /** The file's path as given; undefined for records given in code or text given without a name. */
  readonly file: string | undefined;
  /** Where the record is: `line 3` (NDJSON), `pixels[2]` (JSON, or records given in code); undefined for the whole. */
  readonly at: string | undefined;
  /** What is wrong, e.g. `pixel "name" is required`. */
  readonly problem: string;

  /** An error about `origin` (the whole input when `origin.at` is undefined). */
  constructor(origin: SeedOrigin, problem: string) {
    super(`${placeOf(origin)}: ${problem}`);
    this.file = origin.file;
    this.at = origin.at;
    this.problem = problem;
  }
}

/** Where a record came from, as a {@link SeedRecordError} names it. */
export interface SeedOrigin {
  /** The input: `seed file rehearsal.json`, `seed text` (text parsed without a name) or `seed.records` (code). */
  source: string;
  /** The file's path as given, when the input is a file. */
  file?: string | undefined;
  /** The record's place in the input: `line 3`, `pixels[2]`; undefined for the input as a whole. */
  at?: string | undefined;
}

/** Where a record is, for messages: `seed file x.ndjson, line 3`, `seed.records.pixels[2]`, or the input alone. */
export function placeOf(origin: SeedOrigin): string {
  if (origin.at === undefined) return origin.source;
  return origin.source === CODE ? `${CODE}.${origin.at}` : `${origin.source}, ${origin.at}`;
}

const CODE = 'seed.records';
const KINDS = { pixel: 'pixels', domain: 'domains', purchase: 'purchases' } as const;
type Kind = keyof typeof KINDS;
type Plural = (typeof KINDS)[Kind];
const PLURALS = Object.values(KINDS);

// Where each record read from a file came from (its line or index), so a refusal at load still names it.
const origins = new WeakMap<object, SeedOrigin>();

/**
 * Where a record came from: its line or index in the file it was read from, else its index in `seed.records`
 * (`fallback`, like `pixels[2]`).
 */
export function originOf(record: object, fallback: string): SeedOrigin {
  return origins.get(record) ?? { source: CODE, at: fallback };
}

/** The fields a purchase record leaves out get these: those of a `--purchase-code` code (its item aside). */
export const PURCHASE_DEFAULTS = {
  license_type: 'رخصة عادية',
  price: 19.99,
  currency: 'USD',
  supported_until: '2099-12-31T23:59:59.000000Z',
  downloaded: false,
  date: '2025-03-01T12:00:00.000000Z',
} as const;

const FIELDS: Record<Kind, readonly string[]> = {
  pixel: ['name', 'type', 'value', 'key'],
  domain: ['name', 'index_page', 'not_found_page', 'key'],
  purchase: [
    'purchase_code',
    'license_type',
    'price',
    'currency',
    'item_id',
    'supported_until',
    'downloaded',
    'date',
    'key',
  ],
};

/**
 * Checks records given in code (`seed.records`) or read from a file, field by field, against the rules the API
 * applies to what it stores (a name's length, a pixel's type, a purchase code's characters…). Throws a
 * {@link SeedRecordError} naming the first bad record and field. Keys, taken names and item ids are checked as the
 * server loads the records (they depend on its keys and seed).
 */
export function checkSeedRecords(records: SeedRecords): void {
  const whole: SeedOrigin = { source: CODE };
  if (!isObject(records)) throw new SeedRecordError(whole, `must be an object, got ${shown(records)}`);
  const extra = Object.keys(records).find((name) => !(PLURALS as readonly string[]).includes(name));
  if (extra !== undefined)
    throw new SeedRecordError(whole, `has no field "${extra}" (it has ${PLURALS.join(', ')})`);
  for (const [kind, plural] of Object.entries(KINDS) as [Kind, Plural][]) {
    const list = records[plural];
    if (list === undefined) continue;
    if (!Array.isArray(list))
      throw new SeedRecordError(whole, `"${plural}" must be an array, got ${shown(list)}`);
    list.forEach((record: unknown, i) => {
      const at = `${plural}[${i}]`;
      const problem = isObject(record)
        ? checkRecord(kind, record)
        : `${kind} must be an object, got ${shown(record)}`;
      if (problem !== undefined)
        throw new SeedRecordError(isObject(record) ? originOf(record, at) : { source: CODE, at }, problem);
    });
  }
}

/**
 * Parses the text of a seed file. JSON: `{ "pixels": [...], "domains": [...], "purchases": [...] }` (each array
 * optional). NDJSON: one record a line, each with `"kind": "pixel" | "domain" | "purchase"` beside its fields; blank
 * lines and lines starting with `#` are skipped. Every record is checked as `seed.records` are; a bad one is
 * a {@link SeedRecordError} naming its line (NDJSON) or index (JSON) and the field. Returns all three arrays.
 * `options.name`: the file's name, for the format (by its extension) and for messages.
 *
 * @example
 * const records = parseSeedFile('{"kind":"purchase","purchase_code":"REHEARSAL-1"}\n', { format: 'ndjson' });
 * const server = createReferenceServer({ seed: { records } });
 */
export function parseSeedFile(text: string, options: SeedFileOptions & { name?: string } = {}): SeedRecords {
  const { name } = options;
  const input: SeedOrigin = { source: name === undefined ? 'seed text' : `seed file ${name}`, file: name };
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const format = options.format ?? formatOf(name, body);
  const records = format === 'json' ? fromJson(body, input) : fromNdjson(body, input);
  checkSeedRecords(records);
  return records;
}

/**
 * Reads a seed file (UTF-8, JSON or NDJSON: see {@link parseSeedFile}), for `createReferenceServer({ seed: { records
 * } })` and the bin's `--seed FILE`. A file that cannot be read, or a bad record, is a {@link SeedRecordError}.
 * Node only (it imports `node:fs` when called).
 *
 * @example
 * const server = createReferenceServer({ seed: { records: await readSeedFile('test/rehearsal.ndjson') } });
 */
export async function readSeedFile(path: string, options: SeedFileOptions = {}): Promise<SeedRecords> {
  const { readFile } = await import('node:fs/promises');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a folder, not a file'
          : code === 'EACCES' || code === 'EPERM'
            ? 'not readable (permission denied)'
            : `cannot be read (${(error as Error).message})`;
    throw new SeedRecordError({ source: `seed file ${path}`, file: path }, why);
  }
  return parseSeedFile(text, { ...options, name: path });
}

/**
 * The purchase a seed record stands for, each field left out given its default (`itemId` is the account's first
 * item); dates in the API's form.
 */
export function storedPurchase(record: SeedPurchase, itemId: number): StoredPurchase {
  return {
    purchase_code: record.purchase_code,
    license_type: record.license_type ?? PURCHASE_DEFAULTS.license_type,
    price: record.price ?? PURCHASE_DEFAULTS.price,
    currency: record.currency ?? PURCHASE_DEFAULTS.currency,
    item_id: record.item_id ?? itemId,
    supported_until:
      record.supported_until === undefined
        ? PURCHASE_DEFAULTS.supported_until
        : record.supported_until === null
          ? null
          : (apiTime(record.supported_until) as string),
    downloaded: record.downloaded ?? PURCHASE_DEFAULTS.downloaded,
    date: record.date === undefined ? PURCHASE_DEFAULTS.date : (apiTime(record.date) as string),
  };
}

function formatOf(name: string | undefined, text: string): SeedFileFormat {
  if (name !== undefined && /\.json$/i.test(name)) return 'json';
  if (name !== undefined && /\.(ndjson|jsonl)$/i.test(name)) return 'ndjson';
  const first = text.split(/\r?\n/).find((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
  try {
    const value: unknown = JSON.parse(first ?? '');
    return isObject(value) && 'kind' in value ? 'ndjson' : 'json';
  } catch {
    return 'json';
  }
}

function fromJson(text: string, input: SeedOrigin): SeedRecords {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const position = /at position (\d+)/.exec((error as Error).message)?.[1];
    throw new SeedRecordError(
      input,
      `not valid JSON${position === undefined ? '' : ` (${lineAndColumn(text, Number(position))})`}`,
    );
  }
  if (!isObject(value))
    throw new SeedRecordError(
      input,
      `must be a JSON object with "pixels", "domains" and "purchases" arrays, got ${shown(value)}`,
    );
  const extra = Object.keys(value).find((name) => !(PLURALS as readonly string[]).includes(name));
  if (extra !== undefined)
    throw new SeedRecordError(input, `has no field "${extra}" (a seed file has ${PLURALS.join(', ')})`);
  const records: Record<Plural, object[]> = { pixels: [], domains: [], purchases: [] };
  for (const plural of PLURALS) {
    const list = value[plural];
    if (list === undefined) continue;
    if (!Array.isArray(list))
      throw new SeedRecordError(input, `"${plural}" must be an array, got ${shown(list)}`);
    list.forEach((record: unknown, i) => {
      const origin = { ...input, at: `${plural}[${i}]` };
      if (!isObject(record))
        throw new SeedRecordError(origin, `${singular(plural)} must be an object, got ${shown(record)}`);
      origins.set(record, origin);
      records[plural].push(record);
    });
  }
  return records as SeedRecords;
}

function fromNdjson(text: string, input: SeedOrigin): SeedRecords {
  const records: Record<Plural, object[]> = { pixels: [], domains: [], purchases: [] };
  text.split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    const origin = { ...input, at: `line ${i + 1}` };
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new SeedRecordError(origin, 'not valid JSON (each line is one JSON object)');
    }
    if (!isObject(value))
      throw new SeedRecordError(origin, `must be a JSON object with a "kind", got ${shown(value)}`);
    const { kind, ...record } = value;
    if (kind === undefined)
      throw new SeedRecordError(origin, `"kind" is required: pixel, domain or purchase`);
    if (typeof kind !== 'string' || !Object.hasOwn(KINDS, kind))
      throw new SeedRecordError(origin, `"kind" must be pixel, domain or purchase, got ${shown(kind)}`);
    origins.set(record, origin);
    records[KINDS[kind as Kind]].push(record);
  });
  return records as SeedRecords;
}

function checkRecord(kind: Kind, r: Record<string, unknown>): string | undefined {
  const extra = Object.keys(r).find((name) => !FIELDS[kind].includes(name));
  if (extra !== undefined)
    return `${kind} has no field "${extra}" (a ${kind} has ${FIELDS[kind].join(', ')})`;
  const key = text(kind, r, 'key', { max: 1000 });
  if (kind === 'pixel') {
    const type =
      text(kind, r, 'type', { required: true, max: 255 }) ??
      ((ACCEPTED_PIXEL_TYPES as readonly unknown[]).includes(r.type)
        ? undefined
        : `pixel "type" must be one of ${ACCEPTED_PIXEL_TYPES.join(', ')}; got ${shown(r.type)}`);
    return (
      text(kind, r, 'name', { required: true, max: 32 }) ??
      type ??
      text(kind, r, 'value', { required: true, max: 255 }) ??
      key
    );
  }
  if (kind === 'domain') {
    return (
      text(kind, r, 'name', { required: true, max: 255 }) ??
      text(kind, r, 'index_page', { max: 2048, nullable: true }) ??
      text(kind, r, 'not_found_page', { max: 2048, nullable: true }) ??
      key
    );
  }
  return (
    code(r.purchase_code) ??
    text(kind, r, 'license_type', { max: 100 }) ??
    check(r, 'price', (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0, 'a number, 0 or more') ??
    check(
      r,
      'currency',
      (v) => typeof v === 'string' && /^[A-Z]{3}$/.test(v),
      '3 capital letters, such as USD',
    ) ??
    check(r, 'item_id', (v) => Number.isSafeInteger(v) && (v as number) > 0, 'a whole number above 0') ??
    time(r, 'supported_until', true) ??
    check(r, 'downloaded', (v) => typeof v === 'boolean', 'true or false') ??
    time(r, 'date', false) ??
    key
  );
}

function text(
  kind: Kind,
  r: Record<string, unknown>,
  field: string,
  rule: { required?: boolean; max: number; nullable?: boolean },
): string | undefined {
  const value = r[field];
  const named = `${kind} "${field}"`;
  if (value === undefined || (value === null && rule.required))
    return rule.required ? `${named} is required` : undefined;
  if (value === null && rule.nullable) return undefined;
  if (typeof value !== 'string') return `${named} must be a string, got ${shown(value)}`;
  if (value.trim() === '')
    return rule.required
      ? `${named} is required`
      : `${named} must not be blank${rule.nullable ? ' (null for none)' : ''}`;
  if (value !== value.trim()) return `${named} must not start or end with spaces, got ${shown(value)}`;
  const length = [...value].length;
  if (length > rule.max) return `${named} must be at most ${rule.max} characters, got ${length}`;
  return undefined;
}

function code(value: unknown): string | undefined {
  if (value === undefined) return 'purchase "purchase_code" is required';
  if (typeof value === 'string' && /^[A-Za-z0-9_-]{1,100}$/.test(value)) return undefined;
  return `purchase "purchase_code" must be 1 to 100 letters, digits, - or _ (such as a UUID), got ${shown(value)}`;
}

function check(
  r: Record<string, unknown>,
  field: string,
  ok: (value: unknown) => boolean,
  what: string,
): string | undefined {
  const value = r[field];
  return value === undefined || ok(value)
    ? undefined
    : `purchase "${field}" must be ${what}, got ${shown(value)}`;
}

function time(r: Record<string, unknown>, field: string, nullable: boolean): string | undefined {
  const value = r[field];
  if (value === undefined || (value === null && nullable)) return undefined;
  if (typeof value === 'string' && apiTime(value) !== undefined) return undefined;
  const example = field === 'date' ? '2025-03-01T12:00:00Z' : '2026-12-31T23:59:59Z';
  return `purchase "${field}" must be a date (${example.slice(0, 10)}) or a date-time with a zone (${example})${
    nullable ? ', or null for no support' : ''
  }, got ${shown(value)}`;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** An ISO 8601 date or date-time with a zone, in the API's form (`2026-12-31T00:00:00.000000Z`); else undefined. */
function apiTime(value: string): string | undefined {
  const match = ISO.exec(value);
  const ms = Date.parse(value);
  if (!match || Number.isNaN(ms)) return undefined;
  // Date.parse rolls 2025-02-30 over to March: the day must exist in its month.
  const [, y, m, d] = match.map(Number) as number[];
  if (new Date(Date.UTC(y as number, (m as number) - 1, d)).getUTCDate() !== d) return undefined;
  return timestamp(new Date(ms));
}

function lineAndColumn(text: string, position: number): string {
  const before = text.slice(0, position).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function singular(plural: Plural): Kind {
  return plural.slice(0, -1) as Kind;
}

/** A value as a message shows it: strings quoted and cut at 60 characters, arrays and objects named. */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  return String(value);
}
