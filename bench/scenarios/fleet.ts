// Section 1d: a fleet on one key (issue 26), the shared throttle of `content-platform-sdk/redis` on a loopback
// redis-server this section starts and stops. First what a shared turn costs a call against the per-process
// throttle (interleaved, medians, and the Redis scripts a call runs); then real processes on one key against a
// reference server (in a child process) allowing 10 requests a second: 4 processes without a store, 4 with
// `rateLimit: { store }`, and one process doing all the calls.
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ManagementClient } from 'content-platform-sdk';
import { redisStore } from 'content-platform-sdk/redis';
import { createClient } from 'redis';
import { type Context, root, type Section } from '../lib/env.ts';
import { fx, median, pairedRatio, us } from '../lib/stats.ts';
import { interleaved, type Samples } from './latency.ts';

export interface FleetCost {
  /** Shared (Redis) / per-process throttle: ratio of the wall-time medians. */
  storeLocal: number;
  /** The same, median of the per-round ratios. */
  pairedStoreLocal: number;
  /** The same, ratio of the client-CPU medians. */
  cpuStoreLocal: number;
  /** Redis scripts (EVALSHA + EVAL) per call with the store. */
  scriptsPerCall: number;
  /** Times the store fell back to the per-process throttle (Redis past its 250 ms, or down): its `warn` lines. */
  outages: number;
}

export interface FleetRun {
  processes: number;
  callsEach: number;
  failed: number;
  /** Failed calls by error name. */
  errors: Record<string, number>;
  /** Answers of 429 the server sent. */
  limited: number;
  /** Answers of 201 the server sent. */
  created: number;
  /** From 'go' to the last process's result, ms. */
  wallMs: number;
  /** `client.rateLimit.store` of each process at its end. */
  stores: (string | null)[];
  /** Times a process's store fell back to its own throttle (its `warn` lines about Redis), all processes. */
  outages: number;
}

export interface FleetFigures {
  cost: Record<string, FleetCost>;
  /** 4 processes, default options (no store). */
  separate: FleetRun;
  /** 4 processes, `rateLimit: { store: redisStore(redis) }`. */
  shared: FleetRun;
  /** 1 process doing every call, default options. */
  single: FleetRun;
  /** Shared fleet's wall time / one process's. */
  sharedSingle: number;
}

const HOST = '127.0.0.1';
const CHILD = fileURLToPath(new URL('../fleet-child.ts', import.meta.url));
const API_KEY = 'mk_bench_fleet_key';
const LIMIT = 10;
const PROCESSES = 4;
// Calls each fleet process keeps in flight; the single process keeps the fleet's total.
const PARALLEL = 10;
// A run longer than this has hung: its processes are killed and the bench fails.
const RUN_LIMIT_MS = 300_000;

export async function fleet({ info, quick }: Context): Promise<Section<FleetFigures | undefined>> {
  const lines = [
    '## 1d. A fleet on one key: the shared throttle on Redis (loopback redis-server, medians)',
    '',
  ];
  const binary = redisServerBinary();
  if (binary === undefined) {
    lines.push('redis-server is not installed (not on PATH, nor REDIS_SERVER): section skipped.', '');
    return { figures: undefined, lines };
  }
  const redis = await startRedis(binary);
  try {
    const url = `redis://${HOST}:${redis.port}`;
    const cost = await sharedTurnCost(url, info.small, info.managementKey, quick, lines);
    const callsEach = quick ? 25 : 100;
    const admin = await createClient({ url })
      .on('error', () => {})
      .connect();
    try {
      const separate = await runFleet({ processes: PROCESSES, callsEach, name: 'sep' });
      await admin.flushAll();
      const shared = await runFleet({ processes: PROCESSES, callsEach, name: 'shr', redisUrl: url });
      const single = await runFleet({ processes: 1, callsEach: PROCESSES * callsEach, name: 'one' });
      const figures: FleetFigures = {
        cost,
        separate,
        shared,
        single,
        sharedSingle: shared.wallMs / single.wallMs,
      };
      fleetLines(figures, lines);
      return { figures, lines };
    } finally {
      admin.destroy();
    }
  } finally {
    await redis.stop();
  }
}

/** Part one: `pixels.get` and `pixels.list` with the per-process throttle and with the store, interleaved. */
async function sharedTurnCost(
  url: string,
  base: string,
  apiKey: string,
  quick: boolean,
  lines: string[],
): Promise<Record<string, FleetCost>> {
  const raw = await createClient({ url })
    .on('error', () => {})
    .connect();
  // The store only runs scripts: a proxy counts them (every other member goes to the client itself).
  const scripts = { evalSha: 0, eval: 0 };
  const counted = new Proxy(raw, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const fn = value as (...args: unknown[]) => unknown;
      if (prop === 'evalSha' || prop === 'eval') {
        return (...args: unknown[]) => {
          scripts[prop] += 1;
          return fn.apply(target, args);
        };
      }
      return fn.bind(target);
    },
  });
  try {
    const options = { baseUrl: base, apiKey };
    const local = new ManagementClient(options);
    // The store says each fall-back to the per-process throttle in one `warn` line: counted, not printed.
    let outages = 0;
    const quiet = () => {};
    const logger = {
      warn: (message: string) => {
        if (/rate-limit store/.test(message)) outages += 1;
      },
      error: quiet,
      info: quiet,
      debug: quiet,
    };
    const store = redisStore(counted);
    const shared = new ManagementClient({ ...options, logger, rateLimit: { store } });
    const ops = [
      { name: 'pixels.get', rounds: 2000, calls: [() => local.pixels.get(1), () => shared.pixels.get(1)] },
      {
        name: 'pixels.list (100)',
        rounds: 1000,
        calls: [() => local.pixels.list({ per_page: 100 }), () => shared.pixels.list({ per_page: 100 })],
      },
    ];
    lines.push(
      'What a shared turn costs a call, one call at a time: the SDK with its default per-process throttle against',
      'the SDK with `rateLimit: { store: redisStore(redis) }`, interleaved in a rotating order, on the server of',
      "sections 1–1c (limit far away). Client CPU is this process's only (redis-server's is not in it). Scripts per",
      'call: EVALSHA (EVAL the first time) counted on the Redis client, the release after the answer included.',
      '',
      '| call | per-process | shared (Redis) | shared / per-process | (paired) | client CPU shared / per-process | client CPU per-process · shared | Redis scripts per call |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
    );
    const figures: Record<string, FleetCost> = {};
    for (const op of ops) {
      const rounds = Math.max(100, Math.round(op.rounds * (quick ? 0.2 : 1)));
      const warmup = Math.round(rounds / 10);
      scripts.evalSha = 0;
      scripts.eval = 0;
      outages = 0;
      const [a, b] = (await interleaved(op.calls, rounds, warmup)) as [Samples, Samples];
      // The last release is sent after its call returned: let it land before counting.
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (shared.rateLimit.store !== 'shared') {
        throw new Error(`fleet: the store is not in use (store: ${String(shared.rateLimit.store)})`);
      }
      const f: FleetCost = {
        storeLocal: median(b.wall) / median(a.wall),
        pairedStoreLocal: pairedRatio(b.wall, a.wall),
        cpuStoreLocal: median(b.cpu) / median(a.cpu),
        scriptsPerCall: (scripts.evalSha + scripts.eval) / (rounds + warmup),
        outages,
      };
      figures[op.name] = f;
      lines.push(
        `| ${op.name} | ${us(median(a.wall))} | ${us(median(b.wall))} | ${fx(f.storeLocal)}× | ` +
          `${fx(f.pairedStoreLocal)}× | ${fx(f.cpuStoreLocal)}× | ${us(median(a.cpu))} · ${us(median(b.cpu))} | ` +
          `${fx(f.scriptsPerCall)} |`,
      );
    }
    lines.push('');
    const fellBack = Object.entries(figures).filter(([, f]) => f.outages > 0);
    if (fellBack.length > 0) {
      lines.push(
        `Redis missed the store's 250 ms timeout during ${fellBack.map(([name, f]) => `${name} (${f.outages}×)`).join(', ')}:`,
        'those calls fell back to the per-process throttle for a second or so each (fewer scripts per call).',
        '',
      );
    }
    return figures;
  } finally {
    raw.destroy();
  }
}

/** Part two's table. */
function fleetLines(f: FleetFigures, lines: string[]): void {
  const { processes, callsEach } = f.shared;
  const total = processes * callsEach;
  const row = (label: string, r: FleetRun) => {
    const why = Object.entries(r.errors)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
    return (
      `| ${label} | ${r.processes} × ${r.callsEach} | ${r.failed}${why ? ` (${why})` : ''} | ${r.limited} | ` +
      `${r.created} | ${fx(r.wallMs / 1000, 1)} s | ${fx(r.wallMs / f.single.wallMs)}× |`
    );
  };
  lines.push(
    `${total} \`pixels.create\` on one key (unique names) by real node processes, default options otherwise,`,
    `against a reference server in a child process that allows the key ${LIMIT} requests a second (429 with`,
    `\`Retry-After\` past it). Each process of a fleet keeps ${PARALLEL} calls in flight, the single process`,
    `${PROCESSES * PARALLEL}. Every process starts on one signal once its client is ready; wall time runs to the`,
    `last one's end. 429s are the server's own count. At ${LIMIT} a second, ${total} calls take at least`,
    `${fx(total / LIMIT - 1, 0)} s.`,
    '',
    '| run | processes × calls | failed calls | 429s answered | 201s | wall | wall / one process |',
    '|---|---:|---:|---:|---:|---:|---:|',
    row('default options (a throttle per process)', f.separate),
    row('`rateLimit: { store: redisStore(redis) }`', f.shared),
    row('one process, default options', f.single),
    '',
  );
  if (f.shared.outages > 0) {
    lines.push(
      `The store fell back to a per-process throttle ${f.shared.outages} time(s) in the shared run (Redis past its`,
      '250 ms timeout).',
      '',
    );
  }
  const off = f.shared.stores.filter((s) => s !== 'shared');
  if (off.length > 0)
    lines.push(`Store not in use at the end in ${off.length} process(es): ${off.join(', ')}.`, '');
}

/** Runs `processes` children, each making `callsEach` creates, against a fresh rate-limited server. */
async function runFleet(o: {
  processes: number;
  callsEach: number;
  name: string;
  redisUrl?: string;
}): Promise<FleetRun> {
  const children: ChildProcess[] = [];
  const start = (args: string[], env: Record<string, string>) => {
    const child = spawn(process.execPath, [CHILD, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      // The clients' log lines (a retry after each 429) are kept back; the end shows when a child fails.
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderrTails.set(child, ((stderrTails.get(child) ?? '') + chunk).slice(-2_000));
    });
    children.push(child);
    return child;
  };
  const timer = setTimeout(() => {
    for (const child of children) child.kill('SIGKILL');
  }, RUN_LIMIT_MS);
  try {
    const server = start(['server'], { API_KEY, LIMIT: String(LIMIT) });
    const { url } = (await message(server)) as { url: string };
    const parallel = o.processes === 1 ? PROCESSES * PARALLEL : PARALLEL;
    const clients = Array.from({ length: o.processes }, (_, c) =>
      start(['client'], {
        BASE_URL: url,
        API_KEY,
        CALLS: String(o.callsEach),
        PARALLEL: String(parallel),
        NAME: `${o.name}-${c}`,
        ...(o.redisUrl ? { REDIS_URL: o.redisUrl } : {}),
      }),
    );
    await Promise.all(clients.map((child) => message(child)));
    const results = clients.map((child) => message(child));
    const t0 = performance.now();
    for (const child of clients) child.send('go');
    const done = (await Promise.all(
      results.map((r) => r.then((result) => ({ result, at: performance.now() }))),
    )) as { result: ChildResult; at: number }[];
    const wallMs = Math.max(...done.map((d) => d.at)) - t0;
    const report = message(server);
    server.send('report');
    const { statuses } = (await report) as { statuses: Record<string, number> };
    const errors: Record<string, number> = {};
    for (const { result } of done) {
      for (const [name, n] of Object.entries(result.errors)) errors[name] = (errors[name] ?? 0) + n;
    }
    return {
      processes: o.processes,
      callsEach: o.callsEach,
      failed: done.reduce((sum, d) => sum + d.result.failed, 0),
      errors,
      limited: statuses['429'] ?? 0,
      created: statuses['201'] ?? 0,
      wallMs,
      stores: done.map((d) => d.result.store),
      outages: done.reduce((sum, d) => sum + d.result.outages, 0),
    };
  } finally {
    clearTimeout(timer);
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  }
}

interface ChildResult {
  succeeded: number;
  failed: number;
  errors: Record<string, number>;
  store: string | null;
  ms: number;
  outages: number;
}

/** The last 2 000 characters each child wrote to stderr. */
const stderrTails = new WeakMap<ChildProcess, string>();

/** The next IPC message of `child`; rejects when it exits first. */
function message(child: ChildProcess): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: unknown) => {
      child.off('close', onClose);
      resolve(m);
    };
    const onClose = (code: number | null, signal: string | null) => {
      child.off('message', onMessage);
      const tail = stderrTails.get(child)?.trim() ?? '';
      reject(
        new Error(`fleet: a child process exited (${signal ?? `code ${code}`}) before it answered: ${tail}`),
      );
    };
    child.once('message', onMessage);
    child.once('close', onClose);
  });
}

/** redis-server: REDIS_SERVER, else the first on PATH, else undefined. */
export function redisServerBinary(): string | undefined {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  const candidates = process.env.REDIS_SERVER
    ? [process.env.REDIS_SERVER]
    : [...dirs.map((dir) => join(dir, 'redis-server')), '/usr/bin/redis-server'];
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Starts redis-server on a free 127.0.0.1 port, persistence off, and resolves when it answers PING. */
export async function startRedis(binary: string): Promise<{ port: number; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'content-platform-bench-redis-'));
  const port = await freePort();
  const args = ['--port', String(port), '--bind', HOST, '--save', '', '--appendonly', 'no', '--dir', dir];
  const child = spawn(binary, [...args, '--daemonize', 'no', '--loglevel', 'warning'], { stdio: 'ignore' });
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const stop = async () => {
    process.off('exit', kill);
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(kill, 5_000);
      await gone;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && child.exitCode === null) {
    if (await ping(port)) return { port, stop };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await stop();
  throw new Error(`fleet: redis-server on ${HOST}:${port} did not answer PING within 10 s`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** One PING over a raw socket; true on `+PONG`. */
export function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: HOST, port });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), 500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (chunk) => done(chunk.toString('latin1').startsWith('+PONG')));
    socket.once('error', () => done(false));
  });
}
