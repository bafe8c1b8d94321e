// Section 5: cold start — importing the SDK, and its dependencies alone, in fresh node processes.
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { zodSpecifiers } from '../lib/dist.ts';
import { type Context, root, type Section } from '../lib/env.ts';
import { fx, median } from '../lib/stats.ts';

export interface ColdStartFigures {
  /** Median import time of dist/index.js, ms. */
  sdkMs: number;
  /** Median import time of ky + zod alone, ms. */
  depsMs: number;
}

/** Imports `specifiers` in a fresh node: the import time measured inside, and the whole process's time. */
function importMs(specifiers: string[]): { importMs: number; processMs: number } {
  const code =
    'const t = performance.now();' +
    specifiers.map((s) => `await import(${JSON.stringify(s)});`).join('') +
    'process.stdout.write(String(performance.now() - t));';
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  const processMs = performance.now() - t;
  if (r.status !== 0) throw new Error(`cold start child failed: ${r.stderr}`);
  return { importMs: Number(r.stdout), processMs };
}

export async function coldStart({ quick }: Context): Promise<Section<ColdStartFigures>> {
  const resolve = (s: string) => import.meta.resolve(s);
  const zod = zodSpecifiers();
  const sdkRow = 'content-platform-sdk (dist/index.js)';
  const depsRow = `ky + ${zod.join(' + ')} alone (the SDK's dependencies)`;
  const cold: Record<string, string[]> = {
    [sdkRow]: [pathToFileURL(`${root}dist/index.js`).href],
    [depsRow]: ['ky', ...zod].map(resolve),
    [`${zod.join(' + ')} alone`]: zod.map(resolve),
    'ky alone': [resolve('ky')],
    'node, importing nothing': [],
  };
  const runs = quick ? 8 : 30;
  const results: Record<string, { importMs: number[]; processMs: number[] }> = {};
  for (const name of Object.keys(cold)) results[name] = { importMs: [], processMs: [] };
  for (let i = 0; i < runs + 2; i += 1) {
    for (const [name, specs] of Object.entries(cold)) {
      const r = importMs(specs);
      if (i < 2) continue; // warm the disk cache
      results[name]?.importMs.push(r.importMs);
      results[name]?.processMs.push(r.processMs);
    }
  }
  const lines = [
    '## 5. Cold start: importing in a fresh process (medians)',
    '',
    '| import | import time | whole process (spawn to exit) |',
    '|---|---:|---:|',
  ];
  for (const [name, r] of Object.entries(results)) {
    lines.push(`| ${name} | ${fx(median(r.importMs), 1)} ms | ${fx(median(r.processMs), 1)} ms |`);
  }
  const figures = {
    sdkMs: median(results[sdkRow]?.importMs ?? []),
    depsMs: median(results[depsRow]?.importMs ?? []),
  };
  lines.push(
    '',
    `The SDK's own modules add ${fx(figures.sdkMs - figures.depsMs, 1)} ms over importing its dependencies.`,
    '',
  );
  return { figures, lines };
}
