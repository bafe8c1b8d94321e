// A bench child as a deployed function ships: bundled. Serverless platforms deploy one bundled file per function
// (AWS's NodejsFunction builds with esbuild by default), so a process loads no node_modules tree file by file. The
// bundle keeps each dynamic import a chunk of its own (`splitting`): a child that never imports a Redis client never
// loads or parses one.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { basename, join } from 'node:path';
import { build, stop } from 'esbuild';

/** A bundled child: the file to run, and `remove` to delete it and its chunks. */
export interface Bundled {
  file: string;
  remove(): void;
}

// A bundled CommonJS dependency (node-redis, ioredis) still calls `require` for Node's own modules: ESM has none.
const REQUIRE =
  "import { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);";

/**
 * Bundles `entry` (an ESM file) with everything it imports, Node's own modules left out, into a temporary folder:
 * one ESM file for it and one chunk for each dynamic import, minified as a deployment's build would.
 */
export async function bundleChild(entry: string): Promise<Bundled> {
  const dir = mkdtempSync(join(os.tmpdir(), 'content-platform-bench-bundle-'));
  await build({
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    banner: { js: REQUIRE },
    logLevel: 'warning',
  });
  // esbuild's service process would otherwise live on beside the processes under trial.
  await stop();
  return {
    file: join(dir, basename(entry).replace(/\.[cm]?[jt]s$/, '.mjs')),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
