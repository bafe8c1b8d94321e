// The English issue messages of response validation (src/core/transport/schema.ts): word for word what zod's own
// English locale says, for every kind of issue a schema can raise, without carrying the locale in the bundle.
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { en } from 'zod/v4/locales';
import { englishIssue } from '../../src/core/transport/schema-messages.js';

const cases: [string, z.ZodMiniType, unknown][] = [
  ['a string', z.string(), 42],
  ['a number', z.number(), 'x'],
  ['NaN', z.number(), Number.NaN],
  ['Infinity', z.number(), Number.POSITIVE_INFINITY],
  ['an int', z.int(), 1.5],
  ['a boolean', z.boolean(), null],
  ['never', z.never(), 1],
  ['an object', z.object({ id: z.number() }), []],
  ['a literal', z.literal('a'), 'b'],
  ['an enum', z.enum(['a', 'b', 'c']), 'd'],
  ['an array at most 0 long', z.array(z.never()).check(z.maxLength(0)), [1]],
  ['an array at least 2 long', z.array(z.number()).check(z.minLength(2)), [1]],
  ['an array exactly 2 long', z.array(z.number()).check(z.length(2)), [1]],
  ['a string at most 3 long', z.string().check(z.maxLength(3)), 'abcd'],
  ['a number below 5', z.number().check(z.lt(5)), 5],
  ['a number at most 5', z.number().check(z.lte(5)), 6],
  ['a number above 5', z.number().check(z.gt(5)), 5],
  ['a number at least 5', z.number().check(z.gte(5)), 4],
  ['a pattern', z.string().check(z.regex(/^\d+$/)), 'x'],
  ['a record key', z.record(z.string().check(z.regex(/^\d+$/)), z.number()), { a: 1 }],
  ['a union', z.union([z.number(), z.string()]), null],
  ['a set', z.set(z.number()).check(z.maxSize(1)), new Set([1, 2])],
  ['a custom check', z.string().check(z.refine(() => false)), 'x'],
];

describe('englishIssue', () => {
  it.each(cases)('says what zod’s English locale says for %s', (_, schema, input) => {
    const ours = z.safeParse(schema, input, { error: englishIssue });
    const theirs = z.safeParse(schema, input, { error: en().localeError });
    expect(ours.success).toBe(false);
    const messages = (result: typeof ours) => result.error?.issues.map((issue) => issue.message);
    expect(messages(ours)).toEqual(messages(theirs));
    expect(messages(ours)?.every((m) => typeof m === 'string' && m.length > 0)).toBe(true);
  });

  it('says less than the locale for the kinds no schema here raises', () => {
    const said = (schema: z.ZodMiniType, input: unknown) =>
      z.safeParse(schema, input, { error: englishIssue }).error?.issues[0]?.message;
    expect(said(z.email(), 'not an address')).toBe('Invalid email');
    expect(said(z.string().check(z.startsWith('ab')), 'x')).toBe('Invalid starts_with');
    expect(said(z.number().check(z.multipleOf(3)), 4)).toBe('Invalid input');
    expect(said(z.strictObject({ a: z.number() }), { a: 1, b: 2 })).toBe('Invalid input');
    const discriminated = z.discriminatedUnion('kind', [z.object({ kind: z.literal('a') })]);
    expect(said(discriminated, { kind: 'c' })).toBe('Invalid input');
  });
});
