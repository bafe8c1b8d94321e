// Section 6: size — the ESM entry bundled with its dependencies, ky and zod (esbuild, minified, brotli q11), and
// size-limit's figure for what an import loads, the one the budget in .size-limit.mjs (and CI) checks.
import { spawnSync } from 'node:child_process';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { distImports } from '../lib/dist.ts';
import { type Context, root, type Section } from '../lib/env.ts';
import { kb } from '../lib/stats.ts';

export interface SizeFigures {
  minified: number;
  gzip: number;
  brotli: number;
  /** Minified bytes in the bundle by package (the SDK's own as `content-platform-sdk`). */
  byPackage: Record<string, number>;
  /**
   * size-limit's figure for the ESM entry as loaded at import (without the chunks it loads on demand), and the budget
   * in .size-limit.mjs, in bytes; `undefined` when size-limit could not say.
   */
  atImport?: { size: number; limit: number } | undefined;
}

/** The first check of .size-limit.mjs (the entry as loaded at import), as `size-limit --json` reports it. */
function budgetFigure(): SizeFigures['atImport'] {
  const run = spawnSync(process.execPath, [`${root}node_modules/size-limit/bin.js`, '--json'], {
    cwd: root,
    encoding: 'utf8',
  });
  try {
    const [entry] = JSON.parse(run.stdout) as { size?: number; sizeLimit?: number }[];
    if (typeof entry?.size === 'number' && typeof entry.sizeLimit === 'number')
      return { size: entry.size, limit: entry.sizeLimit };
  } catch {}
  return undefined;
}

async function bundleSize(contents: string): Promise<SizeFigures> {
  const out = await build({
    stdin: { contents, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    metafile: true,
  });
  const bytes = out.outputFiles[0]?.contents ?? new Uint8Array();
  const byPackage: Record<string, number> = {};
  for (const output of Object.values(out.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const pkg = /node_modules\/(@[^/]+\/[^/]+|[^/]+)/.exec(input)?.[1] ?? 'content-platform-sdk';
      byPackage[pkg] = (byPackage[pkg] ?? 0) + bytesInOutput;
    }
  }
  return {
    minified: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    byPackage,
  };
}

/** Figures: the SDK bundle (dist/index.js + ky + zod). */
export async function size(_: Context): Promise<Section<SizeFigures>> {
  // ky is a runtime dependency: a build of the SDK that does not import it yet still ships it, so it is added.
  const importsKy = distImports().includes('ky');
  const sdk = await bundleSize(
    `export * from ${JSON.stringify(`${root}dist/index.js`)};` +
      (importsKy ? '' : "export { default as ky } from 'ky';"),
  );
  sdk.atImport = budgetFigure();
  const kyAlone = await bundleSize("export * from 'ky'; export { default } from 'ky';");
  const row = (name: string, s: SizeFigures) =>
    `| ${name} | ${kb(s.minified)} | ${kb(s.gzip)} | ${kb(s.brotli)} |`;
  const lines = [
    '## 6. Size: the ESM entry with its dependencies (esbuild --bundle --minify, brotli q11)',
    '',
    '| bundle | minified | gzip | brotli |',
    '|---|---:|---:|---:|',
    row('dist/index.js + ky + zod (every export)', sdk),
    row('ky alone (every export, for scale)', kyAlone),
    '',
    `Minified bytes by package in the SDK bundle: ${Object.entries(sdk.byPackage)
      .map(([k, v]) => `${k} ${kb(v)}`)
      .join(', ')}.`,
    '',
    sdk.atImport
      ? `As loaded at import (size-limit, the chunks loaded on demand left out): ${(sdk.atImport.size / 1000).toFixed(2)} kB ` +
        `brotli, against the budget of ${(sdk.atImport.limit / 1000).toFixed(2)} kB in .size-limit.mjs.`
      : 'size-limit gave no figure for the entry as loaded at import (is dist/ built?).',
    '',
  ];
  if (!importsKy) {
    lines.splice(
      -1,
      0,
      '',
      "This build of dist/index.js does not import ky; ky's default export was added to the bundle.",
    );
  }
  return { figures: sdk, lines };
}
