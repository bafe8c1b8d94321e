// What the built ESM entry imports, read from dist/ (the entry and the chunks it imports).
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { root } from './env.ts';

/** The bare specifiers (`ky`, `zod/mini`, …) that dist/index.js and the chunks it imports import. */
export function distImports(): string[] {
  const bare = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/(?:from|import)\s*['"]([^'"]+)['"]/g)) {
      const spec = m[1] as string;
      if (spec.startsWith('.')) visit(fileURLToPath(new URL(spec, pathToFileURL(file))));
      else if (!spec.startsWith('node:')) bare.add(spec);
    }
  };
  visit(`${root}dist/index.js`);
  return [...bare];
}

/** The zod entry points the built SDK imports (zod/mini, zod/v4/core, …). */
export const zodSpecifiers = (): string[] => distImports().filter((s) => /^zod(\/|$)/.test(s));
