import * as z from 'zod/mini';
import { catalogStatus, type LicenseKind, licenseKind } from './arabic.js';

// Tolerant in, exact out: each schema accepts every shape the spec or the real server (REAL-SERVERS.md)
// sends and gives one typed shape. Unknown extra fields are accepted and left out of the result.

/** A JSON number, or a decimal string as PHP may send one; always a number out. */
const Money = z.union([
  z.number(),
  z.pipe(z.string().check(z.regex(/^\s*-?\d+(\.\d+)?\s*$/)), z.transform(Number)),
]);

/** An integer id, or its decimal string. */
const Int = z.union([z.int(), z.pipe(z.string().check(z.regex(/^\d{1,15}$/)), z.transform(Number))]);

/**
 * A string that may be null or absent; `null` out when it is. A default, not a transform: zod's parser fills an absent
 * value in place, where a transform is a call for every value (each item of a list has several such fields).
 */
const nullableString = z._default(z.nullable(z.string()), null);

/**
 * A list sent as a JSON array or, as PHP encodes a sparse array, as an index-keyed object `{ "0": …, "1": … }`;
 * with `'none is empty'`, null or absent is the empty list.
 * The object is read as the array of its values in index order before the entries are checked, so both forms go
 * through zod's array path: a record copied key by key was half of a 59-item parse (each item's screenshots).
 */
function indexedList<T extends z.ZodMiniType>(entry: T, absent?: 'none is empty') {
  return z.pipe(z.transform(absent ? listedOrEmpty : listed), z.array(entry));
}

/** `listed`, with null or absent read as the empty list: one transform a value, where `?? []` would be a second. */
function listedOrEmpty(value: unknown): unknown {
  return value == null ? [] : listed(value);
}

/**
 * An index-keyed object's values in index order; anything else (an array, a non-list) as it is, for the array
 * check to take or refuse. An object that is not plain, or has a key that is not an index, is not a list.
 */
function listed(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const keys = Object.keys(value);
  let sorted = true;
  for (let i = 0; i < keys.length; i += 1) {
    if (!INDEX.test(keys[i] as string)) return value;
    // JSON's index keys come in ascending order as a rule: sorted only when they do not ("01", past 2^32 - 2).
    if (i > 0 && Number(keys[i - 1]) >= Number(keys[i])) sorted = false;
  }
  if (!sorted) keys.sort((a, b) => Number(a) - Number(b));
  const list = new Array<unknown>(keys.length);
  for (let i = 0; i < keys.length; i += 1) list[i] = (value as Record<string, unknown>)[keys[i] as string];
  return list;
}
const INDEX = /^\d+$/;

/** `tags`: an array, or the real server's comma-separated string; trimmed, empty ones dropped. */
const Tags = z.pipe(
  z.nullish(z.union([z.array(z.union([z.string(), z.number()])), z.string()])),
  z.transform((value: (string | number)[] | string | null | undefined): string[] => {
    const tags: string[] = [];
    if (value == null) return tags;
    if (typeof value === 'string') return splitTags(value, tags);
    for (const part of value) {
      const tag = String(part).trim();
      if (tag !== '') tags.push(tag);
    }
    return tags;
  }),
);

/**
 * The tags of a comma-separated string, each trimmed as `String.prototype.trim` does, empty ones dropped, pushed onto
 * `tags`. One slice a tag, no array of parts and no trimmed copy: this runs for every item of a list, and was a
 * quarter of a 59-item parse with `split` and `trim`.
 */
function splitTags(text: string, tags: string[]): string[] {
  for (let from = 0; from <= text.length; ) {
    let to = text.indexOf(',', from);
    if (to < 0) to = text.length;
    let start = from;
    let end = to;
    while (start < end && isSpace(text.charCodeAt(start))) start += 1;
    while (end > start && isSpace(text.charCodeAt(end - 1))) end -= 1;
    if (end > start) tags.push(text.slice(start, end));
    from = to + 1;
  }
  return tags;
}

/** Whether `trim` removes this UTF-16 code unit: ECMAScript's WhiteSpace and LineTerminator. */
function isSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  return (
    code === 160 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * `options`: null, a list of option names, or a map of option name to a value or a list of values. The map is an
 * object of any keys (a catchall), not a record: zod's parser reads an object's keys in one `for…in`, a record's with
 * two lists of own names and a check of each (a fifth of a 59-item parse).
 */
const OptionsValue = z.union([
  z.array(z.string()),
  z.catchall(z.object({}), z.union([z.string(), z.array(z.string())])),
]);
const Options = z._default(z.nullable(OptionsValue), null);

/** `version`: a dotted label; a JSON number (the spec writes it unquoted) becomes its string. */
const Version = z._default(z.nullable(z.union([z.string(), z.pipe(z.number(), z.transform(String))])), null);

/** `social_links`: an open map of network to link; null, absent or PHP's empty `[]` give `{}`, null links are dropped. */
const SocialLinks = z.pipe(
  z.nullish(
    z.union([z.record(z.string(), z.nullable(z.string())), z.array(z.never()).check(z.maxLength(0))]),
  ),
  z.transform((value: Record<string, string | null> | never[] | null | undefined): Record<string, string> => {
    if (value == null || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  }),
);

const mediaShared = { thumbnail: z.string(), screenshots: z.array(z.string()) };

/** Media of an audio item: `preview_audio`, no `preview_image` and no `preview_video`. */
export const AudioMediaSchema = z.object({
  kind: z.literal('audio'),
  ...mediaShared,
  preview_audio: z.string(),
});
/** Media of a video item: `preview_video`, and `preview_image` when the server sends it. */
export const VideoMediaSchema = z.object({
  kind: z.literal('video'),
  ...mediaShared,
  preview_image: z.optional(z.string()),
  preview_video: z.string(),
});
/** Media of any other item: `preview_image` when the server sends it. */
export const ImageMediaSchema = z.object({
  kind: z.literal('image'),
  ...mediaShared,
  preview_image: z.optional(z.string()),
});

/** Media of an audio item: `preview_audio`, no `preview_image` and no `preview_video`. */
export interface AudioMedia {
  /** `'audio'`: the item has an audio preview. */
  kind: 'audio';
  /** URL of the item's thumbnail; always present. */
  thumbnail: string;
  /** URLs of the item's screenshots, in order; empty when it has none (the server sends null or omits them). */
  screenshots: string[];
  /** URL of the audio preview. */
  preview_audio: string;
}
/** Media of a video item: `preview_video`, and `preview_image` when the server sends it. */
export interface VideoMedia {
  /** `'video'`: the item has a video preview. */
  kind: 'video';
  /** URL of the item's thumbnail; always present. */
  thumbnail: string;
  /** URLs of the item's screenshots, in order; empty when it has none (the server sends null or omits them). */
  screenshots: string[];
  /** URL of the preview image; absent when the server sends none. */
  preview_image?: string | undefined;
  /** URL of the video preview. */
  preview_video: string;
}
/**
 * Media of an item that is neither audio nor video: `preview_image` when the server sends it.
 */
export interface ImageMedia {
  /** `'image'`: the item has neither an audio nor a video preview. */
  kind: 'image';
  /** URL of the item's thumbnail; always present. */
  thumbnail: string;
  /** URLs of the item's screenshots, in order; empty when it has none (the server sends null or omits them). */
  screenshots: string[];
  /** URL of the preview image; absent when the server sends none. */
  preview_image?: string | undefined;
}
/** An item's media, narrowed by `kind`: only `kind: 'audio'` has `preview_audio`. */
export type ItemMedia = AudioMedia | VideoMedia | ImageMedia;

/**
 * `media`, with a derived `kind`: `'audio'` when it has `preview_audio`, `'video'` when it has
 * `preview_video`, else `'image'`. `screenshots` is always an array (empty when null or absent).
 */
const MediaInput = z.object({
  thumbnail: z.string(),
  preview_image: z.nullish(z.string()),
  preview_video: z.nullish(z.string()),
  preview_audio: z.nullish(z.string()),
  screenshots: indexedList(z.string(), 'none is empty'),
});
const Media = z.pipe(
  MediaInput,
  // Each object built whole (no spreads: this runs for every item of a list); `preview_image` only when sent.
  z.transform((media: z.output<typeof MediaInput>): ItemMedia => {
    const { thumbnail, screenshots, preview_image, preview_video, preview_audio } = media;
    if (preview_audio) return { kind: 'audio', thumbnail, screenshots, preview_audio };
    if (preview_video)
      return preview_image
        ? { kind: 'video', thumbnail, screenshots, preview_image, preview_video }
        : { kind: 'video', thumbnail, screenshots, preview_video };
    return preview_image
      ? { kind: 'image', thumbnail, screenshots, preview_image }
      : { kind: 'image', thumbnail, screenshots };
  }),
);

/** An item (spec §2), as every server variant is normalised. */
export const ItemSchema = z.object({
  id: Int,
  name: z.string(),
  /** HTML. */
  description: z.string(),
  category: z.string(),
  sub_category: nullableString,
  options: Options,
  version: Version,
  demo_link: nullableString,
  tags: Tags,
  media: Media,
  price: z.object({ regular: Money, extended: Money }),
  currency: z.string(),
  published_at: z.string(),
});

/**
 * An item of the catalog. Branch on `item.media.kind` (or use `isAudioItem`…) to reach the preview URLs.
 */
export interface Item {
  /** The item's id (a numeric string as sent is read as its number). */
  id: number;
  /** The item's name. */
  name: string;
  /** The item's description, as HTML. */
  description: string;
  /** The item's category. */
  category: string;
  /** The item's sub-category; `null` when it has none. */
  sub_category: string | null;
  /** Its options: a list of option names, or a map of option name to a value or a list of values; `null` when none. */
  options: string[] | Record<string, string | string[]> | null;
  /** The item's own version label, e.g. `'1.2.0'` (a number as sent becomes its string); `null` when none. */
  version: string | null;
  /** URL of the item's demo; `null` when it has none. */
  demo_link: string | null;
  /** The item's tags, trimmed, empty ones dropped (the real server's comma-separated string is split); may be empty. */
  tags: string[];
  /** Thumbnail, screenshots and previews, narrowed by `media.kind`. */
  media: ItemMedia;
  /** The item's prices in `currency` (decimal numbers; a decimal string as sent is read as its number). */
  price: {
    /** Price of a regular license. */
    regular: number;
    /** Price of an extended license. */
    extended: number;
  };
  /** Currency code of `price`, e.g. `'USD'`. */
  currency: string;
  /** When it was published: an ISO 8601 UTC timestamp, as sent. */
  published_at: string;
}

/** Nested account objects may be null or absent: they read as objects of nulls. */
function orEmpty<T extends z.ZodMiniType>(schema: T) {
  return z.pipe(
    z.transform((value: unknown): unknown => value ?? {}),
    schema,
  );
}

/** The account that owns the API key (spec §2). Fields the spec does not promise read as `null` when missing. */
export const AccountSchema = z.object({
  name: orEmpty(z.object({ firstname: nullableString, lastname: nullableString, full_name: nullableString })),
  username: z.string(),
  email: z.string(),
  balance: Money,
  currency: z.string(),
  profile: orEmpty(
    z.object({
      heading: nullableString,
      description: nullableString,
      contact: orEmpty(z.object({ email: nullableString })),
      social_links: SocialLinks,
      media: orEmpty(z.object({ avatar: nullableString, cover: nullableString })),
    }),
  ),
  registered_at: nullableString,
});

/**
 * The account that owns the API key. Fields the spec does not promise read as `null` when missing; nested objects the
 * server sends as null read as objects of nulls.
 */
export interface Account {
  /** The account holder's name. */
  name: {
    /** First name; `null` when not set. */
    firstname: string | null;
    /** Last name; `null` when not set. */
    lastname: string | null;
    /** Full name; `null` when not set. */
    full_name: string | null;
  };
  /** The account's username. */
  username: string;
  /** The account's email address. */
  email: string;
  /** The account's balance in `currency` (a decimal number; a decimal string as sent is read as its number). */
  balance: number;
  /** Currency code of `balance`, e.g. `'USD'`. */
  currency: string;
  /** The account's public profile. */
  profile: {
    /** The profile's heading; `null` when not set. */
    heading: string | null;
    /** The profile's description; `null` when not set. */
    description: string | null;
    /** Contact details shown on the profile. */
    contact: {
      /** Contact email address; `null` when not set. */
      email: string | null;
    };
    /** Network name (e.g. `facebook`, `x`; an open list) to link; `{}` when none, links sent as null left out. */
    social_links: Record<string, string>;
    /** The profile's images. */
    media: {
      /** URL of the avatar; `null` when not set. */
      avatar: string | null;
      /** URL of the cover image; `null` when not set. */
      cover: string | null;
    };
  };
  /** When the account was registered: an ISO 8601 UTC timestamp, as sent; `null` when the server omits it. */
  registered_at: string | null;
}

/** A validated purchase (spec §2). `supported_until` is absent when support is off (null reads as absent). */
const PurchaseFields = z.object({
  purchase_code: z.string(),
  license_type: z.string(),
  price: Money,
  currency: z.string(),
  item: ItemSchema,
  supported_until: z.pipe(
    z.transform((value: unknown) => value ?? undefined),
    z.optional(z.string()),
  ),
  downloaded: z.union([
    z.boolean(),
    z.pipe(
      z.literal([0, 1, '0', '1']),
      z.transform((value: 0 | 1 | '0' | '1') => Number(value) === 1),
    ),
  ]),
  date: z.string(),
});
export const PurchaseSchema = z.pipe(
  PurchaseFields,
  z.transform((purchase: z.output<typeof PurchaseFields>) => {
    // Absent, not `undefined`: "no support" reads the same whether the server omitted the field or sent null.
    if (purchase.supported_until === undefined) delete purchase.supported_until;
    // The label is translated (Arabic, English, any case): `license` says which one it is, or null.
    return Object.assign(purchase, { license: licenseKind(purchase.license_type) });
  }),
);

/**
 * A validated purchase: its license (`license`: `'regular'`, `'extended'` or `null` when the label is unknown, beside
 * the raw, translated `license_type`), price, item and support period.
 */
export interface Purchase {
  /** The purchase code that was validated. */
  purchase_code: string;
  /** The license's label as the server sends it, translated (e.g. `'Regular'`, `'Extended'` or Arabic); see `license`. */
  license_type: string;
  /** The price paid, in `currency` (a decimal number; a decimal string as sent is read as its number). */
  price: number;
  /** Currency code of `price`, e.g. `'USD'`. */
  currency: string;
  /** The purchased item, whole. */
  item: Item;
  /** End of support: an ISO 8601 UTC timestamp, as sent; absent when support is off (a null as sent reads as absent). */
  supported_until?: string | undefined;
  /** Whether the buyer has downloaded the item (`0`/`1` as sent read as booleans). */
  downloaded: boolean;
  /** When the purchase was made: an ISO 8601 UTC timestamp, as sent. */
  date: string;
  /** Which license `license_type` names, in any language or case: `'regular'`, `'extended'`, or `null` when unknown. */
  license: LicenseKind | null;
}

/** The envelope's `status` must be the success word (`تم بنجاح` or `success`, tolerant of variants). */
const SuccessStatus = z.unknown().check(
  z.refine((status) => catalogStatus(status) === 'success', {
    message: 'expected the success status (تم بنجاح or success)',
  }),
);

/** `{ status, data }` → the Account. */
const AccountEnvelope = z.object({ status: SuccessStatus, data: AccountSchema });
export const AccountEnvelopeSchema = z.pipe(
  AccountEnvelope,
  z.transform((envelope: z.output<typeof AccountEnvelope>) => envelope.data),
);

/** `{ status, items }` → the Item list (an index-keyed object is accepted too). */
const ItemsEnvelope = z.object({ status: SuccessStatus, items: indexedList(ItemSchema) });
export const ItemsEnvelopeSchema = z.pipe(
  ItemsEnvelope,
  z.transform((envelope: z.output<typeof ItemsEnvelope>) => envelope.items),
);

/** `{ status, item }` → the Item. */
const ItemEnvelope = z.object({ status: SuccessStatus, item: ItemSchema });
export const ItemEnvelopeSchema = z.pipe(
  ItemEnvelope,
  z.transform((envelope: z.output<typeof ItemEnvelope>) => envelope.item),
);

/** `{ status, data: { purchase } }` (spec) or `{ status, item }` (the real server's code) → the Purchase. */
const PurchaseEnvelope = z.object({
  status: SuccessStatus,
  data: z.optional(z.object({ purchase: PurchaseSchema })),
  item: z.optional(PurchaseSchema),
});
export const PurchaseEnvelopeSchema = z.pipe(
  PurchaseEnvelope,
  z.transform((envelope: z.output<typeof PurchaseEnvelope>, context) => {
    const purchase = envelope.data?.purchase ?? envelope.item;
    if (purchase) return purchase;
    context.issues.push({
      code: 'custom',
      input: envelope,
      path: ['data', 'purchase'],
      message: 'expected the purchase under data.purchase (or under item)',
    });
    return z.NEVER;
  }),
);
