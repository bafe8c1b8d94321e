// Section 3: validation alone — the SDK's response schemas, bundled from src, timed with mitata on the server's real
// bodies (the answers of sections 1–2: the real servers' shapes).
import { mkdirSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { measure } from 'mitata';
import { safeParse, type $ZodType as ZodType } from 'zod/v4/core';
import { type Context, root, type Section } from '../lib/env.ts';
import { fx } from '../lib/stats.ts';
import { answersOf } from './payloads.ts';

/** The schemas of src (zod's interpreter) and the SDK's parsers by name (the same schemas, generated parser installed). */
interface Loaded {
  schemas: Record<string, ZodType>;
  parsers: ReadonlyMap<string, ZodType>;
}

/** src's schemas and generated parsers, bundled (zod external, so it is the installed zod) and imported. */
async function loadSchemas(): Promise<Loaded> {
  const out = await build({
    stdin: {
      contents:
        "import { PixelPageSchema, PixelResponseSchema } from './src/management/schemas.ts';\n" +
        "import { ItemsEnvelopeSchema, PurchaseEnvelopeSchema } from './src/catalog/schemas.ts';\n" +
        "import { parsers as management } from './src/management/parsers.generated.ts';\n" +
        "import { parsers as catalog } from './src/catalog/parsers.generated.ts';\n" +
        'export const schemas = { PixelResponseSchema, PixelPageSchema, ItemsEnvelopeSchema, PurchaseEnvelopeSchema };\n' +
        'export const parsers = new Map([...management, ...catalog]);\n',
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    write: false,
  });
  const code = out.outputFiles[0]?.text ?? '';
  // Written inside the repository, so `zod` resolves to the project's own copy.
  mkdirSync(`${root}node_modules/.cache`, { recursive: true });
  const file = `${root}node_modules/.cache/content-platform-bench-schemas.mjs`;
  writeFileSync(file, code);
  return import(pathToFileURL(file).href);
}

/** mitata's p50, in µs. */
async function micro(fn: () => unknown): Promise<number> {
  const stats = await measure(fn);
  return stats.p50 / 1000;
}

/** Figures: the generated parser's p50 in µs, by schema name. */
export async function validation({ info }: Context): Promise<Section<Record<string, number>>> {
  const lines = [
    '## 3. Validation alone (mitata, p50; the schemas bundled from src)',
    '',
    "The answers of sections 1–2 (the real servers' shapes), parsed by the schema the SDK parses them with.",
    '',
    '| body | SDK: generated parser (build time) | the same schema, zod/mini interpreter | JSON.parse of the same text |',
    '|---|---:|---:|---:|',
  ];
  const answers = await answersOf(info.small, info);
  const { schemas, parsers } = await loadSchemas();
  const bodies = [
    ['pixels.get', 'PixelResponseSchema', 'one pixel'],
    ['pixels.list (100)', 'PixelPageSchema', '100 pixels'],
    ['items.list (59)', 'ItemsEnvelopeSchema', '59 items'],
    ['purchases.validate', 'PurchaseEnvelopeSchema', 'a purchase'],
  ] as const;
  const figures: Record<string, number> = {};
  for (const [call, key, what] of bodies) {
    const text = answers[call].text;
    const body = JSON.parse(text) as unknown;
    const interpreted = schemas[key] as ZodType;
    const generated = parsers.get(key);
    if (!generated || generated === interpreted) throw new Error(`${key} has no generated parser`);
    if (!safeParse(generated, body).success || !safeParse(interpreted, body).success) {
      throw new Error(`${key} rejects the server's body`);
    }
    const t = {
      generated: await micro(() => safeParse(generated, body)),
      plain: await micro(() => safeParse(interpreted, body)),
      json: await micro(() => JSON.parse(text)),
    };
    figures[key] = t.generated;
    lines.push(
      `| ${what} (${fx(text.length / 1024, 1)} KB) | ${fx(t.generated, 1)} µs | ${fx(t.plain, 1)} µs | ${fx(t.json, 1)} µs |`,
    );
  }
  lines.push('');
  return { figures, lines };
}
