// Section 3: validation alone — the SDK's response schemas, bundled from src, timed with mitata on the
// server's real bodies.
import { mkdirSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { measure } from 'mitata';
import { safeParse, type $ZodType as ZodType } from 'zod/v4/core';
import { type Context, root, type Section } from '../lib/env.ts';
import { fx } from '../lib/stats.ts';

/** The response schemas and `compiled()` of src, bundled (zod external, so it is the installed zod) and imported. */
async function loadSchemas(): Promise<{
  PixelPageSchema: ZodType;
  ItemsEnvelopeSchema: ZodType;
  compiled: (schema: ZodType) => ZodType;
}> {
  const out = await build({
    stdin: {
      contents:
        "export { PixelPageSchema } from './src/management/schemas.ts';\n" +
        "export { ItemsEnvelopeSchema } from './src/catalog/schemas.ts';\n" +
        "export { compiled } from './src/core/transport/schema.ts';",
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

/** Figures: the compiled schema's p50 in µs, by schema name. */
export async function validation({ info }: Context): Promise<Section<Record<string, number>>> {
  const lines = [
    '## 3. Validation alone (mitata, p50; the schemas bundled from src)',
    '',
    '| body | SDK: compiled schema (`z.compile`) | the same schema, zod/mini runtime parser | JSON.parse of the same text |',
    '|---|---:|---:|---:|',
  ];
  const headers = { accept: 'application/json', 'user-agent': 'content-platform-sdk/bench' };
  const mgmtHeaders = { ...headers, authorization: `Bearer ${info.managementKey}` };
  const pageText = await (
    await fetch(`${info.small}/api/v1/pixels?per_page=100`, { headers: mgmtHeaders })
  ).text();
  const itemsText = await (
    await fetch(`${info.small}/api/items/all?api_key=${info.catalogKey}`, { headers })
  ).text();
  const pageBody = JSON.parse(pageText) as { data: unknown[] };
  const itemsBody = JSON.parse(itemsText) as { items: unknown[] };
  const figures: Record<string, number> = {};
  const schemas = await loadSchemas();
  for (const [label, key, body, text] of [
    [
      `${pageBody.data.length} pixels (${fx(pageText.length / 1024, 1)} KB)`,
      'PixelPageSchema',
      pageBody,
      pageText,
    ],
    [
      `${itemsBody.items.length} items (${fx(itemsText.length / 1024, 1)} KB)`,
      'ItemsEnvelopeSchema',
      itemsBody,
      itemsText,
    ],
  ] as const) {
    const runtime = schemas[key];
    const fast = schemas.compiled(runtime);
    if (fast === runtime) throw new Error(`${key} did not compile`);
    if (!safeParse(fast, body).success || !safeParse(runtime, body).success) {
      throw new Error(`${key} rejects the server's body`);
    }
    const t = {
      fast: await micro(() => safeParse(fast, body)),
      plain: await micro(() => safeParse(runtime, body)),
      json: await micro(() => JSON.parse(text)),
    };
    figures[key] = t.fast;
    lines.push(`| ${label} | ${fx(t.fast, 1)} µs | ${fx(t.plain, 1)} µs | ${fx(t.json, 1)} µs |`);
  }
  lines.push('');
  return { figures, lines };
}
