import type * as z from 'zod/mini';
import type { RawPage } from '../core/pages/index.js';
import { type SchemaRef, schemaRef } from '../core/transport/index.js';
import type {
  DeleteReceipt,
  DeleteReceiptSchema,
  Domain,
  DomainPageSchema,
  DomainResponseSchema,
  Pixel,
  PixelPageSchema,
  PixelResponseSchema,
} from './schemas.js';

// The Management API's answers, by the name of their schema in the parsers chunk (parsers.generated.ts, loaded on
// the first call): the main entry holds no schema. Each is typed as the schema's output, so a schema that drifts
// from its named type is a compile error here.

/** Show / store / update answer of a pixel. */
export const PixelResponse: SchemaRef<Pixel> =
  schemaRef<z.output<typeof PixelResponseSchema>>('PixelResponseSchema');
/** Show / store / update answer of a domain. */
export const DomainResponse: SchemaRef<Domain> =
  schemaRef<z.output<typeof DomainResponseSchema>>('DomainResponseSchema');
/** One page of pixels. */
export const PixelPage: SchemaRef<RawPage<Pixel>> =
  schemaRef<z.output<typeof PixelPageSchema>>('PixelPageSchema');
/** One page of domains. */
export const DomainPage: SchemaRef<RawPage<Domain>> =
  schemaRef<z.output<typeof DomainPageSchema>>('DomainPageSchema');
/** The answer to a delete. */
export const DeleteReceiptResponse: SchemaRef<DeleteReceipt> =
  schemaRef<z.output<typeof DeleteReceiptSchema>>('DeleteReceiptSchema');
