// Section 4: `for await` over every pixel of the 100 000-pixel workspace, run by bench/walk.ts in a process of its
// own (with --expose-gc), so the heap it reports holds nothing but the client and the walk.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Context, Section } from '../lib/env.ts';
import { fx } from '../lib/stats.ts';

export interface WalkFigures {
  count: number;
  itemsPerSecond: number;
  heapBeforeMb: number;
  retainedGrowthMb: number;
  peakGrowthMb: number;
  samplesMb: number[];
}

export async function walk({ info }: Context): Promise<Section<{ sdk: WalkFigures; raw: WalkFigures }>> {
  const lines = [
    `## 4. \`for await\` over ${info.walkTotal.toLocaleString('en')} pixels (per_page 100, separate process)`,
    '',
  ];
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', fileURLToPath(new URL('../walk.ts', import.meta.url)), info.big, info.managementKey],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  if (run.status !== 0) throw new Error(`walk failed: ${run.stderr}`);
  const figures = JSON.parse(run.stdout) as { sdk: WalkFigures; raw: WalkFigures };
  lines.push(
    '| walk | items | items/s | heap at start | retained growth (post-GC max) | peak growth (pre-GC) |',
    '|---|---:|---:|---:|---:|---:|',
  );
  for (const [name, w] of [
    ['SDK for await', figures.sdk],
    ['raw fetch pages', figures.raw],
  ] as const) {
    lines.push(
      `| ${name} | ${w.count.toLocaleString('en')} | ${fx(w.itemsPerSecond, 0)} | ${fx(w.heapBeforeMb, 1)} MB | ` +
        `${fx(w.retainedGrowthMb, 1)} MB | ${fx(w.peakGrowthMb, 1)} MB |`,
    );
  }
  lines.push(
    '',
    `SDK heap after GC every 20 000 items: ${figures.sdk.samplesMb.map((x) => `${fx(x, 1)}`).join(' → ')} MB.`,
    '',
  );
  return { figures, lines };
}
