// The record and params types are named interfaces (so hovers, errors, `.d.ts` and the API docs name them and list
// their fields), while the schemas stay the wire contract. These checks keep each interface equal to its schema's
// output (records) or input (params), both ways: a field added, dropped, made optional or nullable on either side
// fails `npm run typecheck`. vitest does not type-check, so the `it` below only lets it collect the file.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import type {
  Account,
  AccountSchema,
  AudioMedia,
  AudioMediaSchema,
  ImageMedia,
  ImageMediaSchema,
  Item,
  ItemMedia,
  ItemSchema,
  Purchase,
  PurchaseSchema,
  VideoMedia,
  VideoMediaSchema,
} from '../../src/catalog/schemas.js';
import type {
  DomainCreateParams,
  DomainCreateParamsSchema,
  DomainListParams,
  DomainListParamsSchema,
  DomainUpdateParams,
  DomainUpdateParamsSchema,
  PixelCreateParams,
  PixelCreateParamsSchema,
  PixelListParams,
  PixelListParamsSchema,
  PixelUpdateParams,
  PixelUpdateParamsSchema,
} from '../../src/management/params.js';
import type {
  DeleteReceipt,
  DeleteReceiptSchema,
  Domain,
  DomainSchema,
  Pixel,
  PixelSchema,
} from '../../src/management/schemas.js';

/** Identical types: `?: T` and `?: T | undefined`, `readonly` and `T | null` all count. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** One object type of an intersection's members (a transform's `A & { license }`), modifiers kept. */
type Flat<T> = { [K in keyof T]: T[K] };

type Out<S extends z.ZodMiniType> = z.output<S>;
type In<S extends z.ZodMiniType> = z.input<S>;

const identical: [
  Equal<Out<typeof PixelSchema>, Pixel>,
  Equal<Out<typeof DomainSchema>, Domain>,
  Equal<Out<typeof DeleteReceiptSchema>, DeleteReceipt>,
  Equal<In<typeof PixelListParamsSchema>, PixelListParams>,
  Equal<In<typeof DomainListParamsSchema>, DomainListParams>,
  Equal<In<typeof PixelCreateParamsSchema>, PixelCreateParams>,
  Equal<In<typeof PixelUpdateParamsSchema>, PixelUpdateParams>,
  Equal<In<typeof DomainCreateParamsSchema>, DomainCreateParams>,
  Equal<In<typeof DomainUpdateParamsSchema>, DomainUpdateParams>,
  Equal<Out<typeof AudioMediaSchema>, AudioMedia>,
  Equal<Out<typeof VideoMediaSchema>, VideoMedia>,
  Equal<Out<typeof ImageMediaSchema>, ImageMedia>,
  Equal<Out<typeof ItemSchema>, Item>,
  Equal<Out<typeof ItemSchema>['media'], ItemMedia>,
  Equal<Out<typeof AccountSchema>, Account>,
  Equal<Flat<Out<typeof PurchaseSchema>>, Purchase>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true];

describe('named types', () => {
  it('equal their schemas both ways (checked by npm run typecheck)', () => {
    expectTypeOf<Out<typeof PixelSchema>>().toEqualTypeOf<Pixel>();
    expectTypeOf<Out<typeof DomainSchema>>().toEqualTypeOf<Domain>();
    expectTypeOf<Out<typeof DeleteReceiptSchema>>().toEqualTypeOf<DeleteReceipt>();
    expectTypeOf<In<typeof PixelListParamsSchema>>().toEqualTypeOf<PixelListParams>();
    expectTypeOf<In<typeof DomainListParamsSchema>>().toEqualTypeOf<DomainListParams>();
    expectTypeOf<In<typeof PixelCreateParamsSchema>>().toEqualTypeOf<PixelCreateParams>();
    expectTypeOf<In<typeof PixelUpdateParamsSchema>>().toEqualTypeOf<PixelUpdateParams>();
    expectTypeOf<In<typeof DomainCreateParamsSchema>>().toEqualTypeOf<DomainCreateParams>();
    expectTypeOf<In<typeof DomainUpdateParamsSchema>>().toEqualTypeOf<DomainUpdateParams>();
    expectTypeOf<Out<typeof AudioMediaSchema>>().toEqualTypeOf<AudioMedia>();
    expectTypeOf<Out<typeof VideoMediaSchema>>().toEqualTypeOf<VideoMedia>();
    expectTypeOf<Out<typeof ImageMediaSchema>>().toEqualTypeOf<ImageMedia>();
    expectTypeOf<Out<typeof ItemSchema>>().toEqualTypeOf<Item>();
    expectTypeOf<Out<typeof AccountSchema>>().toEqualTypeOf<Account>();
    expectTypeOf<Flat<Out<typeof PurchaseSchema>>>().toEqualTypeOf<Purchase>();
    expect(identical.every(Boolean)).toBe(true);
  });
});
