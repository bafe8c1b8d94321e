// The benchmark suite (`npm run bench`; `-- --quick` for fewer rounds): the built SDK (dist/, plain node) side by
// side with bare ky, raw fetch and openai-node against the reference server's node:http adapter on 127.0.0.1, in
// a separate process. Runs the scenarios of bench/scenarios in order, prints the report and writes
// bench/RESULTS.md. Never part of `npm test`.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { type Context, pkgVersion, root } from './lib/env.ts';
import { startServer } from './lib/server.ts';
import { targets } from './lib/targets.ts';
import { cache } from './scenarios/cache.ts';
import { coldStart } from './scenarios/cold-start.ts';
import { fleet } from './scenarios/fleet.ts';
import { latency } from './scenarios/latency.ts';
import { layers } from './scenarios/layers.ts';
import { payloads } from './scenarios/payloads.ts';
import { size } from './scenarios/size.ts';
import { telemetry } from './scenarios/telemetry.ts';
import { throttle } from './scenarios/throttle.ts';
import { throughput } from './scenarios/throughput.ts';
import { validation } from './scenarios/validation.ts';
import { walk } from './scenarios/walk.ts';

const quick = process.argv.includes('--quick');
const started = new Date();
const lines: string[] = [];
const say = (...more: string[]) => {
  for (const line of more) console.log(line);
  lines.push(...more);
};

const { info, child } = await startServer();
try {
  const ctx: Context = { info, quick };
  const cpu = os.cpus();
  say(
    '# content-platform-sdk benchmark',
    '',
    `- CPU: ${cpu[0]?.model.trim() ?? 'unknown'} × ${cpu.length} (${os.availableParallelism()} available)`,
    `- Node: ${process.version} (${os.type()} ${os.release()} ${os.arch()}); ky ${pkgVersion('ky')}, ` +
      `zod ${pkgVersion('zod')}, openai ${pkgVersion('openai')}, mitata ${pkgVersion('mitata')}`,
    `- Date: ${started.toISOString()}${quick ? ' (quick run: fewer rounds)' : ''}`,
    '- The SDK under test is the built ESM entry (dist/index.js) run by plain node; the reference server runs',
    "  in a child process on 127.0.0.1 (node:http), so client timings and heap are the client's own.",
    "- Sections 1–3 time the calls on the real servers' payloads (REAL-SERVERS.md; listed and checked in section 1g):",
    "  phpShort's Laravel pages, Marketbob's items and purchase, PHP-escaped JSON, the same bytes for every client, and",
    "  `X-RateLimit-*` headers with a limit far away on every answer (the SDK throttle reads each); the walk's server",
    '  sends none.',
    '- openai-node runs through its generic `get` / `post` methods (`maxRetries: 2`), not its typed resources.',
    '- Section 1d starts its own redis-server on 127.0.0.1 (persistence off) and its own node processes; it is',
    '  skipped when redis-server is not installed.',
    '- Section 1f registers an OpenTelemetry context manager and propagator for its second phase only, and',
    '  unregisters them before section 2.',
    '',
  );
  const lat = await latency(ctx);
  say(...lat.lines);
  say(...(await layers(ctx)).lines);
  say(...(await throttle(ctx)).lines);
  const fleetRun = await fleet(ctx);
  say(...fleetRun.lines);
  say(...(await cache(ctx)).lines);
  say(...(await telemetry(ctx)).lines);
  say(...(await payloads(ctx)).lines);
  const tput = await throughput(ctx);
  say(...tput.lines);
  say(...(await validation(ctx)).lines);
  const walked = await walk(ctx);
  say(...walked.lines);
  say(...(await coldStart(ctx)).lines);
  const sized = await size(ctx);
  say(...sized.lines);
  say(
    ...targets({
      latency: lat.figures,
      throughput: tput.figures,
      walk: walked.figures,
      walkTotal: info.walkTotal,
      size: sized.figures,
      fleet: fleetRun.figures,
    }),
  );

  // The decisions and their before/after figures are kept by hand next to this file.
  const decisionsText = readFileSync(new URL('decisions.md', import.meta.url), 'utf8');
  const results = new URL('RESULTS.md', import.meta.url);
  writeFileSync(
    results,
    `${lines.join('\n')}\n${decisionsText}\n## Reproduce\n\n\`npm run bench\` (builds dist/ with tsup, then runs \`node bench/run.ts\`; about five minutes). Section 1g alone, three times: \`bash scripts/node.sh sh -c 'tsup --silent && node bench/real-payloads.ts --runs 3'\`.\n`,
  );
  // The repository's formatter owns Markdown layout (aligned tables); the numbers are untouched.
  spawnSync(`${root}node_modules/.bin/biome`, ['format', '--write', fileURLToPath(results)]);
  console.log('\nwrote bench/RESULTS.md');
} finally {
  child.kill('SIGTERM');
}
