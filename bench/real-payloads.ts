/**
 * Section 1g of the benchmark alone, several times in one process: the four timed calls on the real servers'
 * payloads, the SDK and openai-node against bare ky (see bench/scenarios/payloads.ts).
 *
 *     bash scripts/node.sh sh -c 'tsup --silent && node bench/real-payloads.ts --runs 3'
 *
 * `--runs N` (default 3), `--quick` (a fifth of the rounds, for checking the script). Prints each run's tables, then
 * the ratios of every run side by side, as Markdown. Writes nothing. Runs the built SDK (dist/), so build first.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { pkgVersion } from './lib/env.ts';
import { startServer } from './lib/server.ts';
import { fx, median } from './lib/stats.ts';
import { type PayloadFigures, payloads } from './scenarios/payloads.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    quick: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log('usage: node bench/real-payloads.ts [--runs N] [--quick]   (build dist/ first: tsup)');
  process.exit(0);
}
const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error('--runs must be a whole number, at least 1');
  process.exit(2);
}

const { info, child } = await startServer();
try {
  const cpu = os.cpus();
  console.log(
    `# Real payloads, ${runs} run${runs > 1 ? 's' : ''}${args.quick ? ' (quick)' : ''}\n\n` +
      `- CPU: ${cpu[0]?.model.trim() ?? 'unknown'} × ${cpu.length}; Node ${process.version}; ` +
      `ky ${pkgVersion('ky')}, zod ${pkgVersion('zod')}, openai ${pkgVersion('openai')}\n` +
      `- Date: ${new Date().toISOString()}\n`,
  );
  const all: Record<string, PayloadFigures>[] = [];
  for (let run = 1; run <= runs; run += 1) {
    const { figures, lines } = await payloads({ info, quick: args.quick }, { title: false });
    console.log(`## Run ${run}\n\n${lines.join('\n')}`);
    all.push(figures);
  }
  const names = Object.keys(all[0] ?? {});
  // Each run's figure, then the median of the runs.
  const cell = (name: string, pick: (f: PayloadFigures) => number, digits = 2, unit = '×') => {
    const xs = all.map((figures) => pick(figures[name] as PayloadFigures));
    return `${xs.map((x) => fx(x, digits)).join(' · ')} → **${fx(median(xs), digits)}${unit}**`;
  };
  console.log(
    [
      `## The ${runs} runs side by side (each run's median; → the median of the runs)`,
      '',
      '| call | SDK / ky, served | openai / ky, served | SDK / ky, replayed | openai / ky, replayed | client CPU SDK − ky, served |',
      '|---|---:|---:|---:|---:|---:|',
      ...names.map(
        (name) =>
          `| ${name} | ${cell(name, (f) => f.served.sdkKy)} | ${cell(name, (f) => f.served.openaiKy)} | ` +
          `${cell(name, (f) => f.replayed.sdkKy)} | ${cell(name, (f) => f.replayed.openaiKy)} | ` +
          `${cell(name, (f) => f.served.sdkCpuMinusKy * 1000, 0, ' µs')} |`,
      ),
      '',
    ].join('\n'),
  );
} finally {
  child.kill('SIGTERM');
}
