// A trial of the fleet as deployed (issue 33, items 7-9 and "Done when"): real node processes on one key, the built
// SDK (dist/, plain node) with `rateLimit: { store: redisStore(redis) }`, against a reference server in a child
// process allowing the key 10 requests a second and a redis-server this tool starts on 127.0.0.1. Every time runs
// from the first spawn (process start-up included) to the last process's exit, and every ratio is to a baseline
// measured in the same run, on the same machine, so a busy host slows both sides. A measurement, not a test: it
// prints what it saw (markdown tables) and fails only when it cannot run.
//
//   npm run bench:fleet -- [--shape fleet|serverless|exit|blip]… [--runs N] [--client redis|@redis/client|ioredis]…
//                          [--parallel N] [--limit S] [--quick] [--timeline] [--bundle] [--out FILE]
//
// Shapes (each may be repeated or comma-separated; default all four):
//   fleet       P × C creates (4 × 100, 8 × 50, 16 × 25), P processes at once, `--parallel` calls in flight each;
//               and one process doing all P × C without a store (the baseline of each run).
//   serverless  200 processes × 3 creates, 20 alive at a time (the next spawned as one exits): with the store
//               (Redis closed at the end), without a store (the baseline), with the store and `process.exit(0)`
//               right after the last call (Redis never closed); and one process doing the 600.
//   exit        two processes: A makes 5 creates and `process.exit(0)`s right after its last call, B makes 80;
//               B's wall time against B alone making A's calls and its own.
//   blip        30 creates handed to one process while Redis is down, Redis started 3 s later: when each call
//               ends, how many still wait at 10/30/60 s, and `client.rateLimit` over time; then a 4 × 50 fleet
//               with `CLIENT PAUSE 3000` mid-run against the same fleet unpaused.
// `--client` (default: both for fleet, node-redis for the others) picks the Redis client of the children; `--quick`
// runs small sizes (for checking the tool, not for figures); `--limit` overrides each run's time limit (seconds),
// past which every process still running is killed and counted as hung; `--timeline` adds each job's server
// answers second by second (201s/429s) under its table; `--bundle` runs every client process (with a store or
// without) from one bundled file (bench/lib/bundle.ts), as serverless functions are deployed.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createClient } from 'redis';
import { bundleChild } from './lib/bundle.ts';
import { pkgVersion, root } from './lib/env.ts';
import { fx, median } from './lib/stats.ts';
import { freePort, ping, redisServerBinary, startRedis } from './scenarios/fleet.ts';

const HOST = '127.0.0.1';
const CHILD = fileURLToPath(new URL('fleet-shapes-child.mjs', import.meta.url));
const API_KEY = 'mk_bench_fleet_shapes_key';
// The server's limit: requests a second, per key.
const LIMIT = 10;
// A process that has said `done` and is still alive this much later is killed and counted as lingering.
const LINGER_MS = 3_000;
// The blip: Redis comes up this long after the calls are handed over; `CLIENT PAUSE` lasts this long.
const BLIP_MS = 3_000;
const PAUSE_MS = 3_000;

// `redis`: node-redis as most install it, every module's commands attached; `@redis/client`: the same client
// without the modules (bloom, JSON, search, time series), about 0.25 s less CPU at each process's start.
type ClientName = 'redis' | '@redis/client' | 'ioredis';
const CLIENT_NAMES: readonly string[] = ['redis', '@redis/client', 'ioredis'];
type ShapeName = 'fleet' | 'serverless' | 'exit' | 'blip';

// ————— the command line —————

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        shape: { type: 'string', multiple: true },
        runs: { type: 'string', default: '5' },
        client: { type: 'string', multiple: true },
        parallel: { type: 'string', default: '4' },
        limit: { type: 'string' },
        quick: { type: 'boolean', default: false },
        out: { type: 'string' },
        timeline: { type: 'boolean', default: false },
        bundle: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    return usage((error as Error).message);
  }
})();
const list = (v: string[] | undefined) => (v ?? []).flatMap((s) => s.split(',')).filter(Boolean);
const shapes = list(values.shape) as ShapeName[];
for (const s of shapes) {
  if (!['fleet', 'serverless', 'exit', 'blip'].includes(s)) usage(`unknown shape ${s}`);
}
const clients = list(values.client) as ClientName[];
for (const c of clients) if (!CLIENT_NAMES.includes(c)) usage(`unknown client ${c}`);
const runs = Number(values.runs);
const parallel = Number(values.parallel);
const quick = values.quick;
const limitOverride = values.limit === undefined ? undefined : Number(values.limit) * 1000;
if (!Number.isInteger(runs) || runs < 1) usage('--runs takes a whole number ≥ 1');
if (!Number.isInteger(parallel) || parallel < 1) usage('--parallel takes a whole number ≥ 1');
if (limitOverride !== undefined && !(limitOverride > 0)) usage('--limit takes seconds > 0');

function usage(message: string): never {
  console.error(
    `fleet-shapes: ${message}\nusage: node bench/fleet-shapes.ts [--shape fleet|serverless|exit|blip]… [--runs N] ` +
      '[--client redis|@redis/client|ioredis]… [--parallel N] [--limit S] [--quick] [--timeline] [--bundle] ' +
      '[--out FILE]',
  );
  process.exit(2);
}

// Sizes; --quick keeps each shape's form with fewer calls (the fleets keep one total, so one baseline serves).
const SIZES = quick
  ? {
      fleets: [
        [4, 12],
        [8, 6],
        [16, 3],
      ] as [number, number][],
      serverless: { processes: 30, calls: 3, alive: 10 },
      exit: { a: 5, b: 30 },
      blip: { calls: 30, checks: [10, 20], pause: [4, 15] as [number, number], pauseAtMs: 2_500 },
    }
  : {
      fleets: [
        [4, 100],
        [8, 50],
        [16, 25],
      ] as [number, number][],
      serverless: { processes: 200, calls: 3, alive: 20 },
      exit: { a: 5, b: 80 },
      blip: { calls: 30, checks: [10, 30, 60], pause: [4, 50] as [number, number], pauseAtMs: 8_000 },
    };

// ————— children: every one is killed when this process ends —————

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of live) child.kill('SIGKILL');
    process.exit(130);
  });
}

// `--bundle`: the client processes run this bundle of CHILD (the server stays as it is: it is no process under trial).
const bundled = values.bundle ? await bundleChild(CHILD) : undefined;
process.once('exit', () => bundled?.remove());

function spawnChild(args: string[], env: Record<string, string>): ChildProcess {
  const file = args[0] === 'client' && bundled ? bundled.file : CHILD;
  const child = spawn(process.execPath, [file, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

// ————— one job: a server, processes spawned (at most `alive` at once), their events —————

/** One client process to run. */
interface ProcSpec {
  name: string;
  calls: number;
  parallel: number;
  redisUrl?: string | undefined;
  client?: ClientName | undefined;
  /** `exit`: `process.exit(0)` right after the last call, Redis left open. */
  end?: 'close' | 'exit';
  /** `nowait`: the store gets a Redis client still connecting. */
  connect?: 'wait' | 'nowait';
  snapMs?: number;
  /** The client's `logLevel`: `info` where the trial counts the store's returns to the fleet (its `info` lines). */
  logLevel?: 'warn' | 'info' | undefined;
}

interface Snap {
  t: number;
  store: string | null;
  queued: number;
  inFlight: number;
}

/** What one process did (times are epoch ms). */
interface ProcRun {
  spec: ProcSpec;
  spawnedAt?: number;
  readyAt?: number;
  doneAt?: number;
  /** The CPU it had used when it said `done` (ms). */
  cpuMs?: number;
  exitAt?: number;
  /** Each call's end, with its error's name when it failed. */
  calls: { t: number; e?: string }[];
  snaps: Snap[];
  fallbacks: number;
  rejoins: number;
  /** `hung`: killed at the limit before `done` (or never started); `lingered`: alive `LINGER_MS` after `done`. */
  killed?: 'hung' | 'lingered';
  /** How it ended: `code 0`, `SIGKILL`… */
  exit?: string;
  stderr: string;
}

interface Job {
  procs: ProcSpec[];
  /** Processes alive at once (the next is spawned as one exits). */
  alive: number;
  limitMs: number;
  /** Called with the first spawn's time; may start timers (cleared by `stop`). */
  onStart?: (t0: number) => void;
  /** Every line of every process, as it comes. */
  onLine?: (proc: ProcRun, event: Record<string, unknown>) => void;
}

interface JobRun {
  t0: number;
  /** The last process's exit (or the limit). */
  end: number;
  hitLimit: boolean;
  procs: ProcRun[];
  /** Every answer of the server: [epoch ms, method, status]. */
  requests: [number, string, number][];
  /** Every pixel name the server stored. */
  pixels: string[];
}

async function runJob(job: Job): Promise<JobRun> {
  const server = spawnChild(['server'], { API_KEY, LIMIT: String(LIMIT) });
  try {
    const { url } = (await nextMessage(server)) as { url: string };
    const procs: ProcRun[] = job.procs.map((spec) => ({
      spec,
      calls: [],
      snaps: [],
      fallbacks: 0,
      rejoins: 0,
      stderr: '',
    }));
    const t0 = Date.now();
    let hitLimit = false;
    const running = new Set<ChildProcess>();
    const { end } = await new Promise<{ end: number }>((resolve) => {
      let next = 0;
      let last = t0;
      const limitTimer = setTimeout(() => {
        hitLimit = true;
        for (const p of procs.slice(next)) p.killed = 'hung';
        next = procs.length;
        for (const child of running) child.kill('SIGKILL');
        if (running.size === 0) resolve({ end: Date.now() });
      }, job.limitMs);
      const spawnNext = () => {
        while (running.size < job.alive && next < procs.length) {
          const proc = procs[next++] as ProcRun;
          const child = spawnClient(url, proc);
          running.add(child);
          let linger: NodeJS.Timeout | undefined;
          const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
          lines.on('line', (text) => {
            if (!text.startsWith('{')) return;
            const event = JSON.parse(text) as Record<string, unknown> & { k: string; t: number };
            switch (event.k) {
              case 'ready':
                proc.readyAt = event.t;
                break;
              case 'call':
                proc.calls.push(event.e === undefined ? { t: event.t } : { t: event.t, e: String(event.e) });
                break;
              case 'snap':
                proc.snaps.push(event as unknown as Snap);
                break;
              case 'fallback':
                proc.fallbacks += 1;
                break;
              case 'rejoin':
                proc.rejoins += 1;
                break;
              case 'done':
                proc.doneAt = event.t;
                if (typeof event.cpu === 'number') proc.cpuMs = event.cpu;
                linger = setTimeout(() => {
                  proc.killed = 'lingered';
                  child.kill('SIGKILL');
                }, LINGER_MS);
                break;
            }
            job.onLine?.(proc, event);
          });
          child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
            proc.stderr = (proc.stderr + chunk).slice(-2_000);
          });
          child.once('close', (code, signal) => {
            clearTimeout(linger);
            proc.exitAt = Date.now();
            proc.exit = signal ?? `code ${code}`;
            if (proc.doneAt === undefined && proc.killed === undefined && hitLimit) proc.killed = 'hung';
            last = Math.max(last, proc.exitAt);
            running.delete(child);
            if (!hitLimit) spawnNext();
            if (running.size === 0 && next >= procs.length) {
              clearTimeout(limitTimer);
              resolve({ end: hitLimit ? t0 + job.limitMs : last });
            }
          });
        }
      };
      spawnNext();
      job.onStart?.(t0);
    });
    const reported = nextMessage(server);
    server.send('report');
    const { requests, pixels } = (await reported) as {
      requests: [number, string, number][];
      pixels: string[];
    };
    return { t0, end, hitLimit, procs, requests, pixels };
  } finally {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  }
}

function spawnClient(url: string, proc: ProcRun): ChildProcess {
  const s = proc.spec;
  proc.spawnedAt = Date.now();
  return spawnChild(['client'], {
    BASE_URL: url,
    API_KEY,
    CALLS: String(s.calls),
    PARALLEL: String(s.parallel),
    NAME: s.name,
    CLIENT: s.client ?? 'redis',
    END: s.end ?? 'close',
    CONNECT: s.connect ?? 'wait',
    SNAP_MS: String(s.snapMs ?? 0),
    LOG_LEVEL: s.logLevel ?? 'warn',
    ...(s.redisUrl ? { REDIS_URL: s.redisUrl } : {}),
  });
}

/** The next IPC message of `child`; rejects when it exits first. */
function nextMessage(child: ChildProcess): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let tail = '';
    const onData = (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-2_000);
    };
    child.stderr?.on('data', onData);
    const onMessage = (m: unknown) => {
      child.off('close', onClose);
      child.stderr?.off('data', onData);
      resolve(m);
    };
    const onClose = (code: number | null, signal: string | null) => {
      child.off('message', onMessage);
      reject(
        new Error(
          `fleet-shapes: a child exited (${signal ?? `code ${code}`}) before it answered: ${tail.trim()}`,
        ),
      );
    };
    child.once('message', onMessage);
    child.once('close', onClose);
  });
}

// ————— what a job's figures are —————

interface Figures {
  asked: number;
  failed: number;
  errors: Record<string, number>;
  /** Processes killed at the limit before their calls ended (or never started). */
  hung: number;
  /** Calls with no end by the limit. */
  pending: number;
  /** Processes alive `LINGER_MS` after their calls ended (killed). */
  lingered: number;
  /** Processes that ended with another code than 0 without saying `done`. */
  crashed: number;
  /** 429 and 201 answers to the creates. */
  limited: number;
  created: number;
  /** Pixels the server stored, and of them distinct names that were asked. */
  stored: number;
  storedOnce: number;
  wallMs: number;
  hitLimit: boolean;
  /** The longest time the server received nothing, between its first and last request. */
  idleMs: number;
  /** 201s a second between the server's first and last 201 (the budget is `LIMIT`): what the fleet made of it. */
  rate: number;
  fallbacks: number;
  rejoins: number;
  /** Median spawn → client ready (process start-up, imports, Redis connected). */
  startupMs: number;
  /** Median, over processes that finished, of ready → their last call's end: the time their calls took. */
  callsMs: number;
  /** Median CPU of a process that finished (start-up and calls), and the sum over all of them (ms). */
  cpuMs: number;
  cpuTotalMs: number;
}

// What a table's rows cannot say (a process that crashed: how it ended, its last words), said under the table.
const notes: string[] = [];
// With --timeline: each job's server answers second by second, said under the table.
const timelines: string[] = [];
function sayNotes(): void {
  if (notes.length > 0) {
    say(
      'Processes that ended without finishing their calls (at most 3 a job):',
      '',
      ...notes.map((n) => `- ${n}`),
      '',
    );
    notes.length = 0;
  }
  if (timelines.length > 0) {
    say(
      'Server answers to the creates, second by second from the first spawn (201s/429s; · for none):',
      '',
      ...timelines.map((t) => `- ${t}`),
      '',
    );
    timelines.length = 0;
  }
}

function figures(run: JobRun): Figures {
  const crashed = run.procs.filter(
    (p) => p.doneAt === undefined && p.killed === undefined && p.exit !== 'code 0',
  );
  for (const p of crashed.slice(0, 3)) {
    const last = p.stderr.trim().split('\n').slice(-3).join(' ⏎ ').slice(-400);
    notes.push(
      `${p.spec.name}: ${p.exit} after ${p.calls.length} of ${p.spec.calls} calls` +
        `${p.exitAt && p.spawnedAt ? `, ${fx(p.exitAt - p.spawnedAt, 0)} ms after its spawn` : ''}; stderr: ${last ? `\`${last.replaceAll('`', "'")}\`` : '(nothing)'}`,
    );
  }
  const errors: Record<string, number> = {};
  let failed = 0;
  let ended = 0;
  for (const p of run.procs) {
    for (const c of p.calls) {
      ended += 1;
      if (c.e !== undefined) {
        failed += 1;
        errors[c.e] = (errors[c.e] ?? 0) + 1;
      }
    }
  }
  const asked = run.procs.reduce((sum, p) => sum + p.spec.calls, 0);
  const posts = run.requests.filter(([, method]) => method === 'POST');
  const names = new Set(
    run.procs.flatMap((p) => Array.from({ length: p.spec.calls }, (_, i) => `${p.spec.name}-${i}`)),
  );
  const counts = new Map<string, number>();
  for (const name of run.pixels) counts.set(name, (counts.get(name) ?? 0) + 1);
  const times = run.requests.map(([t]) => t).sort((a, b) => a - b);
  let idleMs = 0;
  for (let i = 1; i < times.length; i += 1)
    idleMs = Math.max(idleMs, (times[i] as number) - (times[i - 1] as number));
  if (values.timeline) {
    const secondsRun = Math.ceil((run.end - run.t0) / 1000);
    const cells = Array.from({ length: secondsRun }, (_, i) => {
      const inSecond = posts.filter(([t]) => t >= run.t0 + i * 1000 && t < run.t0 + (i + 1) * 1000);
      const ok = inSecond.filter(([, , status]) => status === 201).length;
      const limited = inSecond.filter(([, , status]) => status === 429).length;
      return ok + limited === 0 ? '·' : `${ok}/${limited}`;
    });
    // Around each 429: how long after the 201 before it, and how long until the next 201 (the fleet's pause).
    const sorted = [...posts].sort((x, y) => x[0] - y[0]);
    const before: number[] = [];
    const after: number[] = [];
    sorted.forEach(([t, , status], i) => {
      if (status !== 429) return;
      const prev = sorted.slice(0, i).findLast(([, , st]) => st === 201);
      const next = sorted.slice(i + 1).find(([, , st]) => st === 201);
      if (prev) before.push(t - prev[0]);
      if (next) after.push(next[0] - t);
    });
    // The 201s in bursts (apart by less than 400 ms): how long a burst (about a window's budget) takes to send.
    const spans: number[] = [];
    let burstStart: number | undefined;
    let burstLast = 0;
    for (const [t, , status] of sorted) {
      if (status !== 201) continue;
      if (burstStart === undefined || t - burstLast >= 400) {
        if (burstStart !== undefined) spans.push(burstLast - burstStart);
        burstStart = t;
      }
      burstLast = t;
    }
    if (burstStart !== undefined) spans.push(burstLast - burstStart);
    // How far apart the bursts begin: the server's window (1 s) plus what the fleet leaves unused between windows.
    const starts: number[] = [];
    let lastOk = Number.NEGATIVE_INFINITY;
    for (const [t, , status] of sorted) {
      if (status !== 201) continue;
      if (t - lastOk >= 400) starts.push(t);
      lastOk = t;
    }
    const periods = starts.slice(1).map((t, i) => t - (starts[i] as number));
    const pause =
      before.length > 0 && after.length > 0
        ? `; a 429 comes ${fx(median(before), 0)} ms after the 201 before it, the next 201 ${fx(median(after), 0)} ms after it`
        : '';
    const period = periods.length > 0 ? `, and begin ${fx(median(periods), 0)} ms apart` : '';
    const around = `${pause}; bursts of 201s span ${fx(median(spans), 0)} ms${period} (medians)`;
    const first = run.procs[0]?.spec.name ?? '';
    timelines.push(`${run.procs.length} × ${first.replace(/-\d+$/, '')}: ${cells.join(' ')}${around}`);
  }
  const createdAt = posts.filter(([, , status]) => status === 201).map(([t]) => t);
  const span = createdAt.length > 1 ? (Math.max(...createdAt) - Math.min(...createdAt)) / 1000 : Number.NaN;
  const callTimes = run.procs.flatMap((p) =>
    p.readyAt !== undefined && p.doneAt !== undefined ? [p.doneAt - p.readyAt] : [],
  );
  const startups = run.procs.flatMap((p) =>
    p.readyAt !== undefined && p.spawnedAt !== undefined ? [p.readyAt - p.spawnedAt] : [],
  );
  const cpus = run.procs.flatMap((p) => (p.cpuMs === undefined ? [] : [p.cpuMs]));
  return {
    asked,
    failed,
    errors,
    hung: run.procs.filter((p) => p.killed === 'hung').length,
    pending: asked - ended,
    lingered: run.procs.filter((p) => p.killed === 'lingered').length,
    crashed: crashed.length,
    limited: posts.filter(([, , status]) => status === 429).length,
    created: posts.filter(([, , status]) => status === 201).length,
    stored: run.pixels.length,
    storedOnce: [...counts].filter(([name, n]) => n === 1 && names.has(name)).length,
    wallMs: run.end - run.t0,
    hitLimit: run.hitLimit,
    idleMs,
    rate: (createdAt.length - 1) / span,
    fallbacks: run.procs.reduce((sum, p) => sum + p.fallbacks, 0),
    rejoins: run.procs.reduce((sum, p) => sum + p.rejoins, 0),
    startupMs: startups.length > 0 ? median(startups) : Number.NaN,
    callsMs: callTimes.length > 0 ? median(callTimes) : Number.NaN,
    cpuMs: cpus.length > 0 ? median(cpus) : Number.NaN,
    cpuTotalMs: cpus.reduce((sum, ms) => sum + ms, 0),
  };
}

const seconds = (ms: number) => `${fx(ms / 1000, 1)} s`;
const failedCell = (f: Figures) => {
  const why = Object.entries(f.errors)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
  return `${f.failed}${why ? ` (${why})` : ''}`;
};
const hungCell = (f: Figures) =>
  `${f.hung}${f.pending > 0 ? ` (${f.pending} calls)` : ''}${f.lingered > 0 ? `, ${f.lingered} lingered` : ''}` +
  `${f.crashed > 0 ? `, ${f.crashed} crashed` : ''}`;
const createdCell = (f: Figures) =>
  `${f.created} / ${f.asked}${f.storedOnce === f.asked && f.stored === f.asked ? '' : ` (stored ${f.stored}, once ${f.storedOnce})`}`;
const wallCell = (f: Figures) => (f.hitLimit ? `> ${seconds(f.wallMs)} (limit)` : seconds(f.wallMs));
const ratio = (a: Figures, b: Figures) => `${fx(a.wallMs / b.wallMs)}×${a.hitLimit ? ' (≥)' : ''}`;

/** Time limit of a job expected to take `calls / LIMIT` seconds, unless `--limit` says otherwise. */
const limitFor = (calls: number, floorS = 60) =>
  limitOverride ?? Math.max(floorS * 1000, 3 * (calls / LIMIT) * 1000);

// ————— Redis —————

interface RedisServer {
  port: number;
  url: string;
  stop: () => Promise<void>;
}

async function redis(binary: string): Promise<RedisServer> {
  const r = await startRedis(binary);
  return { ...r, url: `redis://${HOST}:${r.port}` };
}

/** A redis-server on `port` (the blip's: a port nothing listened on until now), resolved once it answers PING. */
async function redisOn(binary: string, port: number): Promise<{ stop: () => void }> {
  const dir = mkdtempSync(join(os.tmpdir(), 'content-platform-bench-redis-'));
  const args = ['--port', String(port), '--bind', HOST, '--save', '', '--appendonly', 'no', '--dir', dir];
  const child = spawn(binary, [...args, '--daemonize', 'no', '--loglevel', 'warning'], { stdio: 'ignore' });
  live.add(child);
  const stop = () => {
    child.kill('SIGKILL');
    live.delete(child);
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && child.exitCode === null) {
    if (await ping(port)) return { stop };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  stop();
  throw new Error(`fleet-shapes: redis-server on ${HOST}:${port} did not answer PING within 10 s`);
}

const connectAdmin = (url: string) =>
  createClient({ url })
    .on('error', () => {})
    .connect();

/** Runs `use` on a connection of the trial's own to the Redis at `url`, closed after. */
async function withAdmin<T>(
  url: string,
  use: (admin: Awaited<ReturnType<typeof connectAdmin>>) => Promise<T>,
): Promise<T> {
  const admin = await connectAdmin(url);
  try {
    return await use(admin);
  } finally {
    admin.destroy();
  }
}

/** Empties Redis and its command counts between jobs. */
async function flush(url: string): Promise<void> {
  await withAdmin(url, async (admin) => {
    await admin.flushAll();
    await admin.configResetStat();
  });
}

// The commands the store's scripts call: Redis counts them in its stats too, but no client sends them itself.
const IN_SCRIPTS = new Set(
  'time type zadd zrem zcard zrange zremrangebyscore pexpire hmget hget hset hdel get set del'.split(' '),
);
/** Commands a create: all of them, then each command's share, most first. */
function commandsCell(stats: Record<string, number>, creates: number): string {
  const total = Object.values(stats).reduce((sum, n) => sum + n, 0);
  const each = Object.entries(stats)
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${fx(n / creates, 2)}`)
    .join(', ');
  return `${fx(total / creates, 1)} (${each})`;
}

/** The commands Redis ran since the last `flush`, by name (the trial's own `INFO` and `FLUSHALL` left out). */
async function commandStats(url: string): Promise<Record<string, number>> {
  const info = await withAdmin(url, (admin) => admin.info('commandstats'));
  const stats: Record<string, number> = {};
  for (const [, name = '', calls] of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    if (name === 'info' || name === 'flushall' || name === 'config|resetstat' || IN_SCRIPTS.has(name))
      continue;
    stats[name] = Number(calls);
  }
  return stats;
}

// ————— the shapes —————

const out: string[] = [];
const say = (...lines: string[]) => {
  for (const line of lines) console.log(line);
  out.push(...lines);
};
const progress = (text: string) => process.stderr.write(`${text}\n`);

function fleetProcs(
  p: number,
  c: number,
  tag: string,
  store?: { url: string; client: ClientName },
  logLevel?: ProcSpec['logLevel'],
): ProcSpec[] {
  return Array.from({ length: p }, (_, i) => ({
    name: `${tag}-${i}`,
    calls: c,
    parallel: p === 1 ? Math.min(c, 16) : parallel,
    redisUrl: store?.url,
    client: store?.client,
    logLevel,
  }));
}

async function fleetShape(binary: string, names: ClientName[]): Promise<void> {
  const r = await redis(binary);
  try {
    const total = (SIZES.fleets[0] as [number, number])[0] * (SIZES.fleets[0] as [number, number])[1];
    say(
      '## Fleets from first spawn',
      '',
      `P processes spawned at once, each C \`pixels.create\` (unique names, ${parallel} in flight) with`,
      '`rateLimit: { store: redisStore(redis) }`; the baseline of each run is one process doing all',
      `${total} without a store (16 in flight). Server: ${LIMIT} a second on the key, so ${total} calls take at least`,
      `${fx(total / LIMIT - 1, 0)} s. Wall: first spawn → last exit. "Longest idle": the longest time the server`,
      'received nothing, between its first and last request; "201s a second": creates answered a second between',
      `the first and the last (${LIMIT} at most). Target (issue 33): 0 failed, 0 hung, ≤ 1.25×.`,
      '',
      '| run | client | P × C | failed | hung | 429s | created / asked | wall | × one process | longest idle | 201s a second | fallbacks | start-up (median) |',
      '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    const ratios = new Map<string, { r: number[]; failed: number; hung: number }>();
    for (let run = 1; run <= runs; run += 1) {
      await flush(r.url);
      progress(`fleet run ${run}: one process × ${total}, no store`);
      const base = figures(
        await runJob({ procs: fleetProcs(1, total, `one${run}`), alive: 1, limitMs: limitFor(total) }),
      );
      say(
        `| ${run} | (none) | 1 × ${total} | ${failedCell(base)} | ${hungCell(base)} | ${base.limited} | ${createdCell(base)} | ` +
          `${wallCell(base)} | 1.00× | ${seconds(base.idleMs)} | ${fx(base.rate, 1)} | – | ${fx(base.startupMs, 0)} ms |`,
      );
      for (const client of names) {
        for (const [p, c] of SIZES.fleets) {
          await flush(r.url);
          progress(`fleet run ${run}: ${client} ${p} × ${c}`);
          const f = figures(
            await runJob({
              procs: fleetProcs(p, c, `f${run}${client}${p}`, { url: r.url, client }),
              alive: p,
              limitMs: limitFor(p * c),
            }),
          );
          say(
            `| ${run} | ${client} | ${p} × ${c} | ${failedCell(f)} | ${hungCell(f)} | ${f.limited} | ${createdCell(f)} | ` +
              `${wallCell(f)} | ${ratio(f, base)} | ${seconds(f.idleMs)} | ${fx(f.rate, 1)} | ${f.fallbacks} | ${fx(f.startupMs, 0)} ms |`,
          );
          const key = `${client} ${p} × ${c}`;
          const agg = ratios.get(key) ?? { r: [], failed: 0, hung: 0 };
          agg.r.push(f.wallMs / base.wallMs);
          agg.failed += f.failed;
          agg.hung += f.hung;
          ratios.set(key, agg);
        }
      }
    }
    say(
      '',
      `Over ${runs} run(s):`,
      '',
      '| client, P × C | failed | hung | × one process (median) | (max) |',
      '|---|---:|---:|---:|---:|',
      ...[...ratios].map(
        ([key, a]) => `| ${key} | ${a.failed} | ${a.hung} | ${fx(median(a.r))}× | ${fx(Math.max(...a.r))}× |`,
      ),
      '',
    );
    sayNotes();
  } finally {
    await r.stop();
  }
}

async function serverlessShape(binary: string, client: ClientName): Promise<void> {
  const { processes, calls, alive } = SIZES.serverless;
  const total = processes * calls;
  const r = await redis(binary);
  try {
    say(
      `## Serverless: ${processes} processes × ${calls} creates, ${alive} alive at a time`,
      '',
      `Each process${bundled ? ' (bundled: one file and its chunks, see `--bundle`)' : ''} starts, builds its client (${client}, awaiting the connection, when it has a store), makes`,
      `${calls} creates at once and ends; the next is spawned as one exits. Wall: first spawn → last exit. A process`,
      `alive ${LINGER_MS / 1000} s after its last call is killed ("lingered"). Baselines of each run: the same spawn`,
      `pattern without a store, and one process doing the ${total} (16 in flight). "201s a second" as for the fleets;`,
      '"a process\'s calls": its client ready → its last call\'s end; "CPU": a process\'s CPU (start-up and calls) by',
      'the time it said `done`, the median and the sum over the processes.',
      'Target (issue 33): 0 failed, 0 hung, within 1.3× the same spawn pattern without a store, also when processes',
      'exit without closing Redis.',
      '',
      '| run | variant | failed | hung | 429s | created / asked | wall | × no store | × one process | longest idle | 201s a second | fallbacks | start-up (median) | a process’s calls (median) | CPU (median, sum) |',
      '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    const limitMs = limitFor(total, 120);
    const serverless = (tag: string, store: boolean, end: 'close' | 'exit'): ProcSpec[] =>
      Array.from({ length: processes }, (_, i) => ({
        name: `${tag}-${i}`,
        calls,
        parallel: calls,
        redisUrl: store ? r.url : undefined,
        client,
        end,
      }));
    const agg = { shared: [] as number[], exited: [] as number[] };
    const commandLines: string[] = [];
    for (let run = 1; run <= runs; run += 1) {
      progress(`serverless run ${run}: one process × ${total}`);
      const one = figures(await runJob({ procs: fleetProcs(1, total, `one${run}`), alive: 1, limitMs }));
      progress(`serverless run ${run}: no store`);
      const none = figures(await runJob({ procs: serverless(`n${run}`, false, 'close'), alive, limitMs }));
      await flush(r.url);
      progress(`serverless run ${run}: store, Redis closed`);
      const shared = figures(await runJob({ procs: serverless(`s${run}`, true, 'close'), alive, limitMs }));
      const sharedCommands = await commandStats(r.url);
      await flush(r.url);
      progress(`serverless run ${run}: store, process.exit(0)`);
      const exited = figures(await runJob({ procs: serverless(`x${run}`, true, 'exit'), alive, limitMs }));
      const exitedCommands = await commandStats(r.url);
      await flush(r.url);
      const row = (label: string, f: Figures) =>
        `| ${run} | ${label} | ${failedCell(f)} | ${hungCell(f)} | ${f.limited} | ${createdCell(f)} | ${wallCell(f)} | ` +
        `${ratio(f, none)} | ${ratio(f, one)} | ${seconds(f.idleMs)} | ${fx(f.rate, 1)} | ${f.fallbacks} | ${fx(f.startupMs, 0)} ms | ${fx(f.callsMs, 0)} ms | ${fx(f.cpuMs, 0)} ms, ${seconds(f.cpuTotalMs)} |`;
      say(
        row(`one process × ${total}, no store`, one),
        row('no store', none),
        row('store, Redis closed', shared),
        row('store, `process.exit(0)` after the last call', exited),
      );
      agg.shared.push(shared.wallMs / none.wallMs);
      agg.exited.push(exited.wallMs / none.wallMs);
      commandLines.push(
        `run ${run}, Redis closed: ${commandsCell(sharedCommands, shared.asked)}`,
        `run ${run}, \`process.exit(0)\`: ${commandsCell(exitedCommands, exited.asked)}`,
      );
    }
    say(
      '',
      "Redis commands a create, as the clients sent them (the store's scripts, the clients' own), by command:",
      '',
    );
    for (const line of commandLines) say(`- ${line}`);
    say(
      '',
      `Store / no store over ${runs} run(s), median (max): Redis closed ${fx(median(agg.shared))}× ` +
        `(${fx(Math.max(...agg.shared))}×), \`process.exit(0)\` ${fx(median(agg.exited))}× ` +
        `(${fx(Math.max(...agg.exited))}×).`,
      '',
    );
    sayNotes();
  } finally {
    await r.stop();
  }
}

async function exitShape(binary: string, client: ClientName): Promise<void> {
  const { a, b } = SIZES.exit;
  const r = await redis(binary);
  try {
    say(
      '## A worker that exits right after its last call',
      '',
      `Two processes on the key, spawned at once, with the store (${client}): A makes ${a} creates and`,
      `\`process.exit(0)\`s right after its last call (Redis not closed); B makes ${b}. B's time (its spawn → its last`,
      `call's end) against B alone making A's and its own, ${a + b} creates, with the store in the same run (the`,
      "server's windows count the same calls). The difference is what A's way of ending costs B; the target",
      '(issue 33) is one server window at most (1 000 ms here).',
      '',
      `| run | B alone, ${a + b} calls | B with A | difference | A (spawn → exit) | failed | hung | 429s | created / asked | longest idle |`,
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    const lastCall = (p: ProcRun) => Math.max(...p.calls.map((c) => c.t)) - (p.spawnedAt as number);
    for (let run = 1; run <= runs; run += 1) {
      await flush(r.url);
      progress(`exit run ${run}: B alone`);
      const aloneRun = await runJob({
        procs: [{ name: `b${run}`, calls: a + b, parallel, redisUrl: r.url, client }],
        alive: 1,
        limitMs: limitFor(a + b),
      });
      await flush(r.url);
      progress(`exit run ${run}: A and B`);
      const pair = await runJob({
        procs: [
          { name: `a${run}`, calls: a, parallel, redisUrl: r.url, client, end: 'exit' },
          { name: `ab${run}`, calls: b, parallel, redisUrl: r.url, client },
        ],
        alive: 2,
        limitMs: limitFor(b),
      });
      const f = figures(pair);
      const [pa, pb] = pair.procs as [ProcRun, ProcRun];
      const soloB = aloneRun.procs[0] as ProcRun;
      const alone = soloB.calls.length === a + b ? lastCall(soloB) : Number.NaN;
      const withA = pb.calls.length === b ? lastCall(pb) : Number.NaN;
      say(
        `| ${run} | ${Number.isNaN(alone) ? `> ${seconds(aloneRun.end - aloneRun.t0)} (hung)` : seconds(alone)} | ${Number.isNaN(withA) ? `> ${seconds(f.wallMs)} (hung)` : seconds(withA)} | ` +
          `${Number.isNaN(withA - alone) ? '–' : `${fx(withA - alone, 0)} ms`} | ${pa.exitAt ? seconds(pa.exitAt - (pa.spawnedAt as number)) : '–'} | ` +
          `${failedCell(f)} | ${hungCell(f)} | ${f.limited} | ${createdCell(f)} | ${seconds(f.idleMs)} |`,
      );
    }
    say('');
    sayNotes();
  } finally {
    await r.stop();
  }
}

async function blipShape(binary: string, client: ClientName): Promise<void> {
  const { calls, checks, pause, pauseAtMs } = SIZES.blip;
  const lastCheck = checks[checks.length - 1] as number;
  say(
    '## A Redis blip',
    '',
    `**Redis down at the start.** ${calls} creates handed at once to one process (${client}) whose store's client`,
    'is still connecting (the store gets it unconnected: nothing listens on its port yet); redis-server started on',
    `that port ${BLIP_MS / 1000} s after the calls were handed over (t = 0: the process's \`ready\` line, right`,
    `before its calls). Time limit ${lastCheck + 5} s. "Own count": calls the process has not seen end. Target`,
    '(issue 33): no call waiting past one window (1 s) after Redis answers again, and the snapshot counts every',
    'waiting call.',
    '',
  );
  const series: string[] = [];
  const rows: string[] = [];
  for (let run = 1; run <= runs; run += 1) {
    const port = await freePort();
    let handed = 0;
    let up = 0;
    let redisServer: { stop: () => void } | undefined;
    let starting: Promise<void> | undefined;
    let blipTimer: NodeJS.Timeout | undefined;
    progress(`blip run ${run}: Redis down, up at ${BLIP_MS / 1000} s`);
    try {
      const job = await runJob({
        procs: [
          {
            name: `blip${run}`,
            calls,
            parallel: calls,
            redisUrl: `redis://${HOST}:${port}`,
            client,
            connect: 'nowait',
            snapMs: 250,
            logLevel: 'info',
          },
        ],
        alive: 1,
        limitMs: limitOverride ?? (lastCheck + 5) * 1000,
        onLine: (_proc, event) => {
          if (event.k !== 'ready') return;
          handed = event.t as number;
          blipTimer = setTimeout(() => {
            starting = redisOn(binary, port).then((s) => {
              redisServer = s;
              up = Date.now();
            });
          }, BLIP_MS);
        },
      });
      await starting;
      const f = figures(job);
      const proc = job.procs[0] as ProcRun;
      const ends = proc.calls.map((c) => c.t - handed).sort((x, y) => x - y);
      const waitingAt = (s: number) => calls - ends.filter((t) => t <= s * 1000).length;
      const lastEnd = ends.length === calls ? (ends[ends.length - 1] as number) : Number.NaN;
      // Calls not ended at `t` (epoch ms), by the process's own lines; the snapshots that count fewer.
      const waiting = (t: number) => calls - proc.calls.filter((c) => c.t <= t).length;
      const shortAt = proc.snaps.filter((snap) => waiting(snap.t) > snap.queued + snap.inFlight);
      const short = shortAt.map((snap) => waiting(snap.t) - snap.queued - snap.inFlight);
      // The 429s the server answered, to set beside them (a call waiting out a 429 before its retry).
      const limitedAt = job.requests
        .filter(([, , status]) => status === 429)
        .map(([t]) => fx((t - handed) / 1000, 1));
      rows.push(
        `| ${run} | ${up ? seconds(up - handed) : '–'} | ${checks.map((s) => waitingAt(s)).join(' / ')} | ` +
          `${Number.isNaN(lastEnd) ? `– (${calls - ends.length} never)` : seconds(lastEnd)} | ` +
          `${up && !Number.isNaN(lastEnd) ? seconds(lastEnd - (up - handed)) : '–'} | ${failedCell(f)} | ${hungCell(f)} | ` +
          `${f.limited} | ${createdCell(f)} | ${proc.fallbacks} / ${proc.rejoins} |`,
      );
      series.push(
        `Run ${run}, each call's end (s after the hand-over): ${ends.map((t) => fx(t / 1000, 1)).join(' ')}`,
        '',
        '| t | store | queued | inFlight | queued + inFlight | waiting (own count) |',
        '|---:|---|---:|---:|---:|---:|',
        ...snapTimes(lastCheck).flatMap((s) => {
          const at = handed + s * 1000;
          if (at > (proc.doneAt ?? proc.exitAt ?? Number.POSITIVE_INFINITY)) return [];
          const snap = [...proc.snaps].reverse().find((x) => x.t <= at);
          if (snap === undefined) return [];
          const own = waiting(snap.t);
          const gap = snap.queued + snap.inFlight < own ? ' ⚠' : '';
          return [
            `| ${s} s | ${snap.store} | ${snap.queued} | ${snap.inFlight} | ${snap.queued + snap.inFlight}${gap} | ${own} |`,
          ];
        }),
        proc.doneAt === undefined
          ? `| ${fx(((proc.exitAt ?? job.end) - handed) / 1000, 1)} s | killed at the limit | | | | ${calls - ends.length} |`
          : `| ${fx((proc.doneAt - handed) / 1000, 1)} s | every call ended | | | | 0 |`,
        '',
        `Snapshots (every 250 ms) counting fewer calls than were waiting: ${short.length} of ${proc.snaps.length}` +
          (short.length > 0
            ? ` (by up to ${Math.max(...short)}, at ${shortAt.map((snap) => fx((snap.t - handed) / 1000, 2)).join(' ')} s).`
            : '.') +
          ` 429s answered at ${limitedAt.join(' ') || '–'} s.`,
        '',
      );
    } finally {
      clearTimeout(blipTimer);
      await starting?.catch(() => {});
      redisServer?.stop();
    }
  }
  say(
    `| run | Redis up at | waiting at ${checks.map((s) => `${s}`).join(' / ')} s | last call ends | … after Redis is up | failed | hung | 429s | created / asked | fallbacks / rejoins |`,
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    "The client's `rateLimit` (its last snapshot at or before t; ⚠: it counts fewer calls than are waiting):",
    '',
    ...series,
  );
  sayNotes();
  await pauseShape(binary, client, pause, pauseAtMs);
}

/** Seconds at which the blip's snapshot series is shown. */
function snapTimes(last: number): number[] {
  return [0.5, 1, 2, 3, 4, 5, 7, 10, 15, 20, 30, 45, 60, 90].filter((s) => s <= last);
}

async function pauseShape(
  binary: string,
  client: ClientName,
  [p, c]: [number, number],
  atMs: number,
): Promise<void> {
  const r = await redis(binary);
  try {
    say(
      `**\`CLIENT PAUSE ${PAUSE_MS}\` mid-run.** A ${p} × ${c} fleet (${client}, ${parallel} in flight each) with the`,
      `store; ${atMs / 1000} s after the first spawn an admin connection sends \`CLIENT PAUSE ${PAUSE_MS}\`. Against the`,
      'same fleet unpaused in the same run. "First request after": when the server next heard from the fleet after',
      'Redis answered again (the pause\'s end); "longest idle after": the longest silence from then on.',
      '',
      '| run | variant | failed | hung | 429s | created / asked | wall | × unpaused | first request after | longest idle after | fallbacks / rejoins |',
      '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (let run = 1; run <= runs; run += 1) {
      await flush(r.url);
      progress(`pause run ${run}: unpaused`);
      const plain = figures(
        await runJob({
          procs: fleetProcs(p, c, `u${run}`, { url: r.url, client }, 'info'),
          alive: p,
          limitMs: limitFor(p * c),
        }),
      );
      await flush(r.url);
      progress(`pause run ${run}: CLIENT PAUSE`);
      const admin = await createClient({ url: r.url })
        .on('error', () => {})
        .connect();
      let timer: NodeJS.Timeout | undefined;
      let resumed = 0;
      try {
        const job = await runJob({
          procs: fleetProcs(p, c, `p${run}`, { url: r.url, client }, 'info'),
          alive: p,
          limitMs: limitFor(p * c),
          onStart: (t0) => {
            timer = setTimeout(
              () => {
                resumed = Date.now() + PAUSE_MS;
                void admin.sendCommand(['CLIENT', 'PAUSE', String(PAUSE_MS)]).catch(() => {});
              },
              Math.max(0, t0 + atMs - Date.now()),
            );
          },
        });
        const f = figures(job);
        const after = job.requests.map(([t]) => t).filter((t) => t >= resumed);
        let idle = 0;
        for (let i = 1; i < after.length; i += 1)
          idle = Math.max(idle, (after[i] as number) - (after[i - 1] as number));
        const first = after.length > 0 && resumed > 0 ? `+${fx((after[0] as number) - resumed, 0)} ms` : '–';
        const row = (label: string, g: Figures, extra: string) =>
          `| ${run} | ${label} | ${failedCell(g)} | ${hungCell(g)} | ${g.limited} | ${createdCell(g)} | ${wallCell(g)} | ` +
          `${ratio(g, plain)} | ${extra} | ${g.fallbacks} / ${g.rejoins} |`;
        say(
          row('unpaused', plain, '– | –'),
          row(
            `\`CLIENT PAUSE ${PAUSE_MS}\` at ${atMs / 1000} s`,
            f,
            `${first} | ${resumed ? `${fx(idle, 0)} ms` : '–'}`,
          ),
        );
      } finally {
        clearTimeout(timer);
        admin.destroy();
      }
    }
    say('');
    sayNotes();
  } finally {
    await r.stop();
  }
}

// ————— main —————

const binary = redisServerBinary();
if (binary === undefined) {
  console.error('fleet-shapes: redis-server is not installed (not on PATH, nor REDIS_SERVER).');
  process.exit(1);
}
const cpu = os.cpus();
const sdkVersion = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string }).version;
say(
  '# The fleet as deployed (bench/fleet-shapes.ts)',
  '',
  `- CPU: ${cpu[0]?.model.trim() ?? 'unknown'} × ${cpu.length}; load average at start ${os
    .loadavg()
    .map((n) => fx(n))
    .join(' ')}`,
  `- Node ${process.version}; SDK ${sdkVersion} as built in dist/; redis ${pkgVersion('redis')}, ` +
    `ioredis ${pkgVersion('ioredis')}` +
    (bundled ? `; client processes bundled by esbuild ${pkgVersion('esbuild')} (\`--bundle\`)` : ''),
  `- ${new Date().toISOString()}; ${runs} run(s) of each shape${quick ? '; **quick sizes** (checking the tool, not figures)' : ''}`,
  '',
);
const chosen = shapes.length > 0 ? shapes : (['fleet', 'serverless', 'exit', 'blip'] as ShapeName[]);
const started = Date.now();
// Another `npm run build` while this runs would hand later processes another SDK (or none, mid-build): said below.
const distStamp = () => statSync(`${root}dist/index.js`, { throwIfNoEntry: false })?.mtimeMs;
const builtAt = distStamp();
for (const shape of chosen) {
  const names: ClientName[] =
    clients.length > 0 ? clients : shape === 'fleet' ? ['redis', 'ioredis'] : ['redis'];
  if (shape === 'fleet') await fleetShape(binary, names);
  for (const client of shape === 'fleet' ? [] : names) {
    if (shape === 'serverless') await serverlessShape(binary, client);
    if (shape === 'exit') await exitShape(binary, client);
    if (shape === 'blip') await blipShape(binary, client);
  }
}
if (distStamp() !== builtAt) {
  say(
    '**dist/ was rebuilt while this ran**: later processes ran another build (or failed to load one); run again.',
    '',
  );
}
say(
  `Took ${seconds(Date.now() - started)}; load average at the end ${os
    .loadavg()
    .map((n) => fx(n))
    .join(' ')}.`,
  '',
);
if (values.out) {
  writeFileSync(values.out, `${out.join('\n')}\n`);
  progress(`wrote ${values.out}`);
}
