import type * as z from 'zod/mini';
import { type SchemaRef, schemaRef } from '../core/transport/index.js';
import type {
  Account,
  AccountEnvelopeSchema,
  Item,
  ItemEnvelopeSchema,
  ItemsEnvelopeSchema,
  Purchase,
  PurchaseEnvelopeSchema,
} from './schemas.js';

// The Catalog API's answers, by the name of their schema in the parsers chunk (parsers.generated.ts, loaded on the
// first call): the main entry holds no schema. Each is typed as the schema's output, so a schema that drifts from
// its named type is a compile error here.

/** `account/details`: the account. */
export const AccountAnswer: SchemaRef<Account> =
  schemaRef<z.output<typeof AccountEnvelopeSchema>>('AccountEnvelopeSchema');
/** `items/all`: every item. */
export const ItemsAnswer: SchemaRef<Item[]> =
  schemaRef<z.output<typeof ItemsEnvelopeSchema>>('ItemsEnvelopeSchema');
/** `items/item`: one item. */
export const ItemAnswer: SchemaRef<Item> =
  schemaRef<z.output<typeof ItemEnvelopeSchema>>('ItemEnvelopeSchema');
/** `purchases/validation`: the purchase. */
export const PurchaseAnswer: SchemaRef<Purchase> =
  schemaRef<z.output<typeof PurchaseEnvelopeSchema>>('PurchaseEnvelopeSchema');
