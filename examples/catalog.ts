/**
 * The Catalog API: account, items, one item, purchase validation, and the Arabic error envelope as typed errors.
 * Run: npx tsx examples/catalog.ts (in this repo), or from a project that installed the package:
 *   node node_modules/content-platform-sdk/dist/examples/catalog.js
 */
import {
  type CatalogError,
  InvalidPurchaseCodeError,
  ItemNotFoundError,
  isAudioItem,
} from 'content-platform-sdk';
import { connect } from './support/connect.js';

const { catalog, reference, target, close } = await connect();
console.log(`Catalog API on ${target}\n`);

try {
  const account = await catalog.account.details();
  console.log(
    `${account.name.full_name} (@${account.username}), balance ${account.balance} ${account.currency}`,
  );

  const items = await catalog.items.list();
  for (const item of items) {
    const preview = isAudioItem(item) ? `audio ${item.media.preview_audio}` : `${item.media.kind}`;
    console.log(
      `  #${item.id} ${item.name} — ${item.price.regular} ${item.currency} — ${preview} — tags ${item.tags.join(', ')}`,
    );
  }

  const first = items[0];
  if (first) console.log('\nitem', first.id, (await catalog.items.get(first.id)).name);

  const goodCode = reference?.fixtures.purchaseCodes.supported ?? process.env.CONTENT_PLATFORM_PURCHASE_CODE;
  if (goodCode) {
    const purchase = await catalog.purchases.validate(goodCode);
    console.log(
      `purchase ${purchase.purchase_code}: ${purchase.license_type} of #${purchase.item.id}, supported until ${purchase.supported_until ?? 'never'}`,
    );
  }

  for (const attempt of [
    () => catalog.items.get(999_999),
    () => catalog.purchases.validate('not-a-real-code'),
  ]) {
    try {
      await attempt();
    } catch (error) {
      if (!(error instanceof ItemNotFoundError || error instanceof InvalidPurchaseCodeError)) throw error;
      const e: CatalogError = error;
      console.log(`${e.name} (code ${e.code}): the server said "${e.msg}"`);
    }
  }
} finally {
  await close();
}
