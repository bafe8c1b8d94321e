import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INVALID, safeParse, type $ZodType as ZodType } from 'zod/v4/core';
import { generateParsers } from '../../scripts/generate-parsers.js';
import { parsers as catalogParsers } from '../../src/catalog/parsers.generated.js';
import * as catalogSchemas from '../../src/catalog/schemas.js';
import { PARSE_CONTEXT } from '../../src/core/transport/schema.js';
import { parsers as managementParsers } from '../../src/management/parsers.generated.js';
import * as managementSchemas from '../../src/management/schemas.js';
import { createReferenceServer, SEED_FIXTURES } from '../../src/testing/index.js';
import { anAccount, anAudioItem, anItem, aPurchase, aVideoItem, ok } from '../catalog/fixtures.js';
import { deleteBody, laravelPage, showBody, wireDomain, wirePixel } from '../management/fixtures.js';

// The parsers zod's generator writes at build time (scripts/generate-parsers.ts) are installed with `withParser`:
// zod returns what such a parser returns, unchecked. So each must agree with zod's interpreter on every body: the
// same output for one the schema accepts, INVALID (the interpreter then answers, with its issues) for one it refuses.

const ROOMS = [
  { name: 'management', parsers: managementParsers, schemas: managementSchemas as Record<string, unknown> },
  { name: 'catalog', parsers: catalogParsers, schemas: catalogSchemas as Record<string, unknown> },
];

type Parser = (input: unknown) => unknown;

/** The generated parser itself: `withParser` keeps it as the schema's validator. */
function generatedParser(installed: ZodType): Parser {
  return (installed._zod as unknown as { bag: { validator: Parser } }).bag.validator;
}

/** Asserts the installed schema and its generated parser agree with zod's interpreter on `body`. */
function expectAgreement(original: ZodType, installed: ZodType, body: unknown): boolean {
  const slow = safeParse(original, structuredClone(body), PARSE_CONTEXT);
  const input = structuredClone(body);
  const fast = generatedParser(installed)(input);
  const viaInstalled = safeParse(installed, structuredClone(body), PARSE_CONTEXT);
  expect(viaInstalled.success).toBe(slow.success);
  if (slow.success) {
    expect(fast).not.toBe(INVALID);
    expect(fast).toStrictEqual(slow.data);
    // A fresh value, never the input handed back (zod returns a parser's output unchecked).
    if (typeof input === 'object' && input !== null) expect(fast).not.toBe(input);
    expect(viaInstalled.data).toStrictEqual(slow.data);
  } else {
    expect(fast).toBe(INVALID);
    expect(viaInstalled.error?.issues[0]).toStrictEqual(slow.error?.issues[0]);
  }
  return slow.success;
}

/** Every answer body the reference server gives, in each flavor and locale, by the schema that reads it. */
async function serverBodies(): Promise<Map<string, unknown[]>> {
  const bodies = new Map<string, unknown[]>();
  const add = async (schema: string, response: Response) => {
    const text = await response.text();
    if (!text) return;
    bodies.set(schema, [...(bodies.get(schema) ?? []), JSON.parse(text)]);
  };
  for (const flavor of ['laravel', 'spec'] as const) {
    for (const locale of ['ar', 'en'] as const) {
      const server = createReferenceServer({ flavor, locale });
      const root = 'http://127.0.0.1:8080/api';
      const bearer = { authorization: `Bearer ${server.keys.management[0]}`, accept: 'application/json' };
      const form = { ...bearer, 'content-type': 'application/x-www-form-urlencoded' };
      for (const [resource, one] of [
        ['pixels', 'Pixel'],
        ['domains', 'Domain'],
      ] as const) {
        for (const query of ['per_page=100', 'per_page=10&page=2', 'per_page=10&page=999']) {
          await add(
            `${one}PageSchema`,
            await server.fetch(`${root}/v1/${resource}?${query}`, { headers: bearer }),
          );
        }
        const page = (await (await server.fetch(`${root}/v1/${resource}`, { headers: bearer })).json()) as {
          data: { id: number }[];
        };
        const id = page.data[0]?.id;
        await add(
          `${one}ResponseSchema`,
          await server.fetch(`${root}/v1/${resource}/${id}`, { headers: bearer }),
        );
        const created = await server.fetch(`${root}/v1/${resource}`, {
          method: 'POST',
          headers: form,
          body:
            resource === 'pixels'
              ? `name=parity-${flavor}-${locale}&type=x&value=12345`
              : `name=parity-${flavor}-${locale}.example.com`,
        });
        const record = (await created.clone().json()) as { data?: { id: number }; id?: number };
        await add(`${one}ResponseSchema`, created);
        const receipt = await server.fetch(`${root}/v1/${resource}/${record.data?.id ?? record.id}`, {
          method: 'DELETE',
          headers: bearer,
        });
        await add('DeleteReceiptSchema', receipt);
      }
      const key = server.keys.catalog[0] as string;
      await add('AccountEnvelopeSchema', await server.fetch(`${root}/account/details?api_key=${key}`));
      await add('ItemsEnvelopeSchema', await server.fetch(`${root}/items/all?api_key=${key}`));
      for (const ids of Object.values(SEED_FIXTURES.itemIds)) {
        for (const id of [ids].flat()) {
          await add(
            'ItemEnvelopeSchema',
            await server.fetch(`${root}/items/item?api_key=${key}&item_id=${id}`),
          );
        }
      }
      for (const code of [...Object.values(SEED_FIXTURES.purchaseCodes), 'not-a-code']) {
        await add(
          'PurchaseEnvelopeSchema',
          await server.fetch(`${root}/purchases/validation`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ api_key: key, purchase_code: code }),
          }),
        );
      }
    }
  }
  return bodies;
}

/** The real servers' shapes the unit tests answer with (phpShort's Laravel pages, Marketbob's envelopes). */
function fixtureBodies(): Map<string, unknown[]> {
  const pixels = [wirePixel(), wirePixel({ id: 2, name: 'b', type: 'newer-network' }), wirePixel({ id: 3 })];
  const domains = [wireDomain(), wireDomain({ id: 2, index_page: null, not_found_page: null })];
  const items = [anItem(), anAudioItem(), aVideoItem(), anItem({ tags: 'a, b,,c' })];
  return new Map<string, unknown[]>([
    [
      'PixelPageSchema',
      [laravelPage(pixels, { resource: 'pixels' }), pixels, { data: pixels }, { data: [], meta: null }],
    ],
    ['DomainPageSchema', [laravelPage(domains, { resource: 'domains' }), domains, { data: domains }]],
    ['PixelResponseSchema', [showBody(pixels[0]), pixels[1], { data: { ...pixels[0], id: '17' } }]],
    ['DomainResponseSchema', [showBody(domains[0]), domains[1]]],
    [
      'DeleteReceiptSchema',
      [deleteBody(1, 'pixel'), deleteBody(2, 'domain'), { id: '3', object: 'x', deleted: false }],
    ],
    ['AccountEnvelopeSchema', [ok('data', anAccount()), ok('data', anAccount(), 'success')]],
    ['ItemsEnvelopeSchema', [ok('items', items), ok('items', { ...items }), ok('items', [])]],
    ['ItemEnvelopeSchema', items.map((item) => ok('item', item))],
    [
      'PurchaseEnvelopeSchema',
      [ok('data', { purchase: aPurchase() }), ok('item', aPurchase()), { status: 'تم بنجاح', data: {} }],
    ],
  ]);
}

/** Values a mutation puts in place of a field: each type the wire could carry instead. */
const replacement = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.integer({ min: -5, max: 1_000 }),
  fc.double({ noNaN: false }),
  fc.string({ maxLength: 12 }),
  fc.constantFrom('12', '007', '1e3', '', ' ', 'null', '<p>x</p>', 'a,b', '4.5'),
  fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.integer()), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string({ maxLength: 4 }), fc.integer()), {
    maxKeys: 3,
  }),
);

/** Every path to a value inside `body`, the root included. */
function paths(body: unknown, at: (string | number)[] = []): (string | number)[][] {
  const here = [at];
  if (Array.isArray(body)) return [...here, ...body.flatMap((value, i) => paths(value, [...at, i]))];
  if (typeof body === 'object' && body !== null) {
    return [...here, ...Object.entries(body).flatMap(([key, value]) => paths(value, [...at, key]))];
  }
  return here;
}

/** `body` with the value at `path` replaced (or removed, for `remove`). */
function mutated(body: unknown, path: (string | number)[], value: unknown, remove: boolean): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (remove && !Array.isArray(parent)) delete parent[last];
  else parent[last] = value;
  return copy;
}

describe('generated parsers', () => {
  it('are what zod generates now: the committed files match scripts/generate-parsers.ts', () => {
    for (const [file, source] of Object.entries(generateParsers())) {
      expect(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'), file).toBe(source);
    }
  });

  it('cover every response schema the clients name, and nothing else', async () => {
    const named = new Set<string>();
    for (const file of ['src/management/responses.ts', 'src/catalog/responses.ts']) {
      const source = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
      for (const match of source.matchAll(/schemaRef<[^>]+>>\('(\w+)'\)/g)) named.add(match[1] as string);
    }
    expect(named.size).toBe(9);
    expect(new Set([...managementParsers.keys(), ...catalogParsers.keys()])).toStrictEqual(named);
    for (const { parsers, schemas } of ROOMS) {
      for (const [name, installed] of parsers) {
        // A clone of the schema the room defines, with a generated parser in front of zod's own run.
        expect(installed).not.toBe(schemas[name]);
        expect(typeof generatedParser(installed as ZodType)).toBe('function');
      }
    }
  });

  it("agree with zod's interpreter on every body the reference server sends (flavors, locales)", async () => {
    const bodies = await serverBodies();
    let accepted = 0;
    for (const { parsers, schemas } of ROOMS) {
      for (const [name, installed] of parsers) {
        const corpus = bodies.get(name) ?? [];
        expect(corpus.length, name).toBeGreaterThan(0);
        for (const body of corpus) {
          if (expectAgreement(schemas[name] as ZodType, installed as ZodType, body)) accepted += 1;
        }
      }
    }
    // Most are answers the schema reads (the unknown purchase code and the page past the end are not all).
    expect(accepted).toBeGreaterThan(60);
  });

  it("agree with zod's interpreter on the real servers' payload fixtures", () => {
    for (const { parsers, schemas } of ROOMS) {
      for (const [name, installed] of parsers) {
        const corpus = fixtureBodies().get(name) ?? [];
        expect(corpus.length, name).toBeGreaterThan(1);
        const accepted = corpus.filter((body) =>
          expectAgreement(schemas[name] as ZodType, installed as ZodType, body),
        );
        expect(accepted.length, name).toBeGreaterThan(0);
      }
    }
  });

  it("agree with zod's interpreter on valid bodies with one field changed, removed or retyped (property-based)", () => {
    const fixtures = fixtureBodies();
    for (const { parsers, schemas } of ROOMS) {
      for (const [name, installed] of parsers) {
        const seeds = fixtures.get(name) as unknown[];
        let refused = 0;
        fc.assert(
          fc.property(
            fc
              .nat({ max: seeds.length - 1 })
              .chain((i) =>
                fc.tuple(
                  fc.constant(seeds[i]),
                  fc.constantFrom(...paths(seeds[i])),
                  replacement,
                  fc.boolean(),
                ),
              ),
            ([seed, path, value, remove]) => {
              const body = mutated(seed, path, value, remove);
              if (!expectAgreement(schemas[name] as ZodType, installed as ZodType, body)) refused += 1;
            },
          ),
          { numRuns: 400, seed: 37 },
        );
        // The corpus holds invalid bodies as well as valid ones.
        expect(refused, name).toBeGreaterThan(40);
      }
    }
  });
});
