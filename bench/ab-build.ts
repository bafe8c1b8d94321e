/**
 * A/B of two builds: is the success path of the current build as fast as the build of a git revision?
 *
 *     npm run bench:ab -- --base <rev> [--rounds N] [--quick] [--no-build]
 *
 * - Builds `<rev>` with its own tsup config in a temporary `git worktree` under the OS temp folder (its
 *   node_modules a link to this checkout's, so both builds run on the same ky and zod), and the current tree into
 *   dist/ (unless `--no-build`: dist/ as it is). The worktree is removed at the end, also on failure or Ctrl-C.
 * - Starts one reference server (the current build's `content-platform-sdk/testing`, node:http on 127.0.0.1) in a
 *   child process, so the client's CPU time is its own: 200 pixels, and rate-limit headers with a limit far away
 *   (the throttle reads every answer, as in production).
 * - Imports both builds' dist/index.js into this one process and makes a ManagementClient and a CatalogClient of
 *   each (no `telemetry`, `logLevel: 'off'`, no cache).
 * - Each round makes one call of each build for each of `pixels.get(1)`, `pixels.list({ per_page: 100 })` and
 *   `purchases.validate(code)`: six calls, one at a time. The calls' order rotates every round and which build
 *   goes first alternates, balanced over every 6 rounds, so drift on a shared machine, and what the call before
 *   leaves behind, hit both builds alike (`--base HEAD` measures the harness itself: 1.00× within ±1 %). A tenth
 *   of the rounds more run first as a warm-up. 2 000 rounds by default (some 10–20 s of calls), 300 with
 *   `--quick`; rounded up to whole cycles of 6.
 * - Reports, by call: each build's median wall time, current / base as the ratio of the medians and as the median
 *   of the per-round ratios (with its distribution-free 95 % interval), and the client's CPU time per call
 *   (`process.cpuUsage()` around each call, user + system). The machines are shared and noisy: only the ratios,
 *   measured in one run, mean anything, never the absolute times. A verdict per call says whether the paired
 *   interval lies within ±2 % of 1×.
 *
 * Plain node runs this file (types stripped); `--serve` is its own child process, the server.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type * as Sdk from 'content-platform-sdk';
import { root } from './lib/env.ts';
import { fx, median, pairedRatio, us } from './lib/stats.ts';

/** Paired intervals within 1 ± this are "as fast". */
const TOLERANCE = 0.02;

const { values: args } = parseArgs({
  options: {
    base: { type: 'string' },
    rounds: { type: 'string' },
    quick: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    serve: { type: 'boolean', default: false },
  },
});

interface ServerInfo {
  url: string;
  managementKey: string;
  catalogKey: string;
  purchaseCode: string;
}

/** The child process: one reference server from the current build, its URL and keys as one JSON line. */
async function serve(): Promise<void> {
  const testing = (await import(
    pathToFileURL(`${root}dist/testing/index.js`).href
  )) as typeof import('content-platform-sdk/testing');
  const server = testing.createReferenceServer({
    seed: { pixels: 188 },
    rateLimit: { limit: 1_000_000_000 },
  });
  const http = await testing.listen(server, { port: 0, host: '127.0.0.1' });
  const info: ServerInfo = {
    url: http.url,
    managementKey: testing.SEED_MANAGEMENT_KEYS[0] as string,
    catalogKey: server.keys.catalog[0] as string,
    purchaseCode: server.fixtures.purchaseCodes.supported,
  };
  process.stdout.write(`${JSON.stringify(info)}\n`);
  const stop = () => void http.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
}

/** Runs a command to its end, its output on this terminal; throws unless it succeeds. */
function run(cwd: string, command: string, ...rest: string[]): void {
  const r = spawnSync(command, rest, { cwd, stdio: 'inherit' });
  if (r.status !== 0) {
    throw new Error(
      `${command} ${rest.join(' ')} (in ${cwd}) failed: ${r.error?.message ?? `exit ${r.status}`}`,
    );
  }
}

function git(...rest: string[]): string {
  const r = spawnSync('git', rest, { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${rest.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

const build = (dir: string) => run(dir, 'bash', 'scripts/node.sh', 'tsup', '--silent');

async function startServer(): Promise<{ info: ServerInfo; child: ChildProcess }> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) return { info: JSON.parse(line) as ServerInfo, child };
  throw new Error('the reference server exited before it listened');
}

interface Build {
  label: 'current' | 'base';
  dir: string;
  mgmt: Sdk.ManagementClient;
  catalog: Sdk.CatalogClient;
}

async function load(label: Build['label'], dir: string, info: ServerInfo): Promise<Build> {
  const sdk = (await import(pathToFileURL(join(dir, 'dist/index.js')).href)) as typeof Sdk;
  return {
    label,
    dir,
    mgmt: new sdk.ManagementClient({ baseUrl: info.url, apiKey: info.managementKey, logLevel: 'off' }),
    catalog: new sdk.CatalogClient({ siteUrl: info.url, apiKey: info.catalogKey, logLevel: 'off' }),
  };
}

interface Op {
  name: string;
  call: (b: Build) => () => Promise<unknown>;
  ok: (answer: unknown) => boolean;
}

const has = (x: unknown, key: string) => (x as Record<string, unknown> | null)?.[key];

function operations(code: string): Op[] {
  return [
    { name: 'pixels.get', call: (b) => () => b.mgmt.pixels.get(1), ok: (a) => has(a, 'id') === 1 },
    {
      name: 'pixels.list',
      call: (b) => () => b.mgmt.pixels.list({ per_page: 100 }),
      ok: (a) => (has(a, 'data') as unknown[] | undefined)?.length === 100,
    },
    {
      name: 'purchases.validate',
      call: (b) => () => b.catalog.purchases.validate(code),
      ok: (a) => has(a, 'purchase_code') === code,
    },
  ];
}

interface Samples {
  wall: number[];
  cpu: number[];
}

/** The rounds of a cycle: every order of calls appears once, and once more with the builds swapped. */
const CYCLE = 6;

/**
 * Makes each call of each build once per round, one at a time, and records each call's wall time and this
 * process's CPU time (ms). `calls[op][build]`, two builds. The calls' order rotates every round, and which build
 * goes first alternates: round r + 3 is round r with the builds swapped, so every build meets every order, and
 * every call before it, equally often (with a plain rotation of the six calls, one build would always follow
 * the same call of the other, and the other a different call: a bias of 2–5 % between two copies of one build).
 */
async function interleave(
  calls: readonly (readonly (() => Promise<unknown>)[])[],
  rounds: number,
  warmup: number,
): Promise<Samples[][]> {
  const out = calls.map((pair) => pair.map((): Samples => ({ wall: [], cpu: [] })));
  for (let round = -warmup; round < rounds; round += 1) {
    const r = round + warmup * CYCLE;
    for (let k = 0; k < calls.length; k += 1) {
      const op = (r + k) % calls.length;
      for (const b of r % 2 === 0 ? [0, 1] : [1, 0]) {
        const call = calls[op]?.[b] as () => Promise<unknown>;
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        await call();
        const wall = performance.now() - t0;
        const cpu = process.cpuUsage(cpu0);
        if (round >= 0) {
          const s = out[op]?.[b] as Samples;
          s.wall.push(wall);
          s.cpu.push((cpu.user + cpu.system) / 1000);
        }
      }
    }
  }
  return out;
}

/** The distribution-free 95 % interval of the median of `xs` (order statistics, normal approximation). */
function medianInterval(xs: readonly number[]): [number, number] {
  const s = [...xs].sort((a, b) => a - b);
  const half = (1.96 * Math.sqrt(s.length)) / 2;
  const lo = Math.max(0, Math.floor(s.length / 2 - half));
  const hi = Math.min(s.length - 1, Math.ceil(s.length / 2 + half));
  return [s[lo] as number, s[hi] as number];
}

function verdict([lo, hi]: [number, number]): string {
  if (lo >= 1 - TOLERANCE && hi <= 1 + TOLERANCE) return `as fast (within ±${TOLERANCE * 100} %)`;
  if (lo > 1) return `**slower** (by ${fx((lo - 1) * 100, 1)}–${fx((hi - 1) * 100, 1)} %)`;
  if (hi < 1) return `faster (by ${fx((1 - hi) * 100, 1)}–${fx((1 - lo) * 100, 1)} %)`;
  return `inconclusive (the interval is wider than ±${TOLERANCE * 100} %)`;
}

async function main(): Promise<void> {
  if (!args.base)
    throw new Error('usage: npm run bench:ab -- --base <git rev> [--rounds N] [--quick] [--no-build]');
  const asked = args.rounds ? Number(args.rounds) : args.quick ? 300 : 2000;
  if (!Number.isInteger(asked) || asked < 10)
    throw new Error(`--rounds must be an integer ≥ 10; got ${args.rounds}`);
  // Whole cycles, so that each build meets each order equally often.
  const rounds = Math.ceil(asked / CYCLE) * CYCLE;
  const warmup = Math.max(60, Math.ceil(rounds / 10 / CYCLE) * CYCLE);
  const baseSha = git('rev-parse', '--verify', `${args.base}^{commit}`);
  const headSha = git('rev-parse', 'HEAD');
  const dirty = git('status', '--porcelain', '--', 'src', 'tsup.config.ts') !== '';
  const subject = (sha: string) => {
    const s = git('log', '-1', '--format=%s', sha);
    return s.length > 72 ? `${s.slice(0, 71)}…` : s;
  };

  const tmp = mkdtempSync(join(os.tmpdir(), 'content-platform-ab-'));
  const worktree = join(tmp, 'base');
  let child: ChildProcess | undefined;
  let cleaned = false;
  const cleanup = () => {
    if (cleaned) return;
    cleaned = true;
    child?.kill('SIGTERM');
    // The link first, by itself, so that nothing below can reach this checkout's node_modules through it.
    rmSync(join(worktree, 'node_modules'), { force: true });
    if (existsSync(worktree)) {
      spawnSync('git', ['worktree', 'remove', '--force', worktree], { cwd: root, stdio: 'inherit' });
    }
    rmSync(tmp, { recursive: true, force: true });
    spawnSync('git', ['worktree', 'prune'], { cwd: root });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    cleanup();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    console.error(`ab: building the base ${baseSha.slice(0, 7)} in ${worktree}`);
    run(root, 'git', 'worktree', 'add', '--detach', '--quiet', worktree, baseSha);
    symlinkSync(join(root, 'node_modules'), join(worktree, 'node_modules'), 'dir');
    build(worktree);
    if (!args['no-build']) {
      console.error('ab: building the current tree');
      build(root);
    }
    if (!existsSync(join(root, 'dist/index.js')))
      throw new Error('dist/index.js is missing: run without --no-build');

    const server = await startServer();
    child = server.child;
    const { info } = server;
    // Loaded in a fixed order (current first), the same in every run; the rounds rotate, the load order does not.
    const builds = [await load('current', root, info), await load('base', worktree, info)];
    const ops = operations(info.purchaseCode);
    for (const op of ops) {
      for (const b of builds) {
        const answer = await op.call(b)();
        if (!op.ok(answer))
          throw new Error(`${op.name}, ${b.label}: ${JSON.stringify(answer).slice(0, 200)}`);
      }
    }

    const calls = ops.map((op) => builds.map((b) => op.call(b)));
    const started = performance.now();
    const samples = await interleave(calls, rounds, warmup);
    const seconds = (performance.now() - started) / 1000;

    const size = (dir: string) => fx(statSync(join(dir, 'dist/index.js')).size / 1024, 1);
    const cpu = os.cpus();
    const lines = [
      `# A/B: current build / build of ${args.base} (${baseSha.slice(0, 7)})`,
      '',
      `- current: ${headSha.slice(0, 7)}${dirty ? ' + uncommitted changes to src/ or tsup.config.ts' : ''} ` +
        `(${subject(headSha)}); dist/index.js ${size(root)} kB` +
        `${args['no-build'] ? ' (not rebuilt: --no-build)' : ''}`,
      `- base: ${baseSha.slice(0, 7)} (${subject(baseSha)}); dist/index.js ${size(worktree)} kB`,
      `- ${rounds} rounds (+ ${warmup} warm-up), 6 calls a round, one at a time, in an order that rotates ` +
        'and alternates the builds (balanced every 6 rounds); ' +
        `${fx(seconds, 0)} s; one reference server in a child process on 127.0.0.1`,
      `- Node ${process.version}, ${cpu[0]?.model.trim() ?? 'unknown CPU'} × ${cpu.length}, ${new Date().toISOString()}`,
      '',
      '| call | current | base | current / base | (paired) | paired 95 % CI | client CPU current · base | CPU current / base | (paired) |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ];
    const verdicts: string[] = [];
    for (const [n, op] of ops.entries()) {
      const [cur, base] = samples[n] as [Samples, Samples];
      const ratio = median(cur.wall) / median(base.wall);
      const paired = pairedRatio(cur.wall, base.wall);
      const ci = medianInterval(cur.wall.map((x, i) => x / (base.wall[i] as number)));
      const cpuRatio = median(cur.cpu) / median(base.cpu);
      // A call's CPU time can read 0 (the clock's grain); such rounds have no ratio.
      const cpuPairs = cur.cpu.flatMap((x, i) =>
        x > 0 && (base.cpu[i] as number) > 0 ? [x / (base.cpu[i] as number)] : [],
      );
      lines.push(
        `| ${op.name} | ${us(median(cur.wall))} | ${us(median(base.wall))} | ${fx(ratio)}× | ${fx(paired)}× | ` +
          `${fx(ci[0])}–${fx(ci[1])}× | ${us(median(cur.cpu))} · ${us(median(base.cpu))} | ${fx(cpuRatio)}× | ` +
          `${fx(median(cpuPairs))}× |`,
      );
      verdicts.push(
        `${op.name}: current / base ${fx(ratio)}× (paired ${fx(paired)}×, 95 % CI ${fx(ci[0])}–${fx(ci[1])}×; ` +
          `client CPU ${fx(cpuRatio)}×): ${verdict(ci)}`,
      );
    }
    console.log([...lines, '', ...verdicts.map((v) => `- ${v}`)].join('\n'));
  } finally {
    cleanup();
  }
}

if (args.serve) await serve();
else await main();
