import type { Flavor, Locale } from '../core/types.js';
import type { StoredItem, StoredPurchase } from './records.js';
import { licenseLabel } from './words.js';

/**
 * An item on the wire. `laravel`: tags as a comma string, screenshots as an index-keyed object (or null),
 * options as the stored map. `spec`: tags and screenshots as arrays (screenshots omitted when there are none),
 * options as the list of option values.
 */
export function renderItem(item: StoredItem, flavor: Flavor): Record<string, unknown> {
  const { screenshots, ...media } = item.media;
  if (flavor === 'laravel') {
    return {
      ...item,
      tags: item.tags.join(','),
      media: { ...media, screenshots: screenshots ? { ...screenshots } : null },
    };
  }
  return {
    ...item,
    options: Object.values(item.options ?? {}).flat(),
    media: screenshots ? { ...media, screenshots: [...screenshots] } : media,
  };
}

/** A purchase on the wire, its item embedded; `supported_until` is omitted when support is disabled. */
export function renderPurchase(
  purchase: StoredPurchase,
  item: StoredItem,
  flavor: Flavor,
  locale: Locale,
): Record<string, unknown> {
  const { item_id: _, supported_until, ...rest } = purchase;
  return {
    purchase_code: rest.purchase_code,
    license_type: licenseLabel(rest.license_type, locale),
    price: rest.price,
    currency: rest.currency,
    item: renderItem(item, flavor),
    ...(supported_until === null ? {} : { supported_until }),
    downloaded: rest.downloaded,
    date: rest.date,
  };
}
