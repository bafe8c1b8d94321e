// Spawns the processes of a fleet (fleet-child.ts) as real `node` processes and reads what each printed.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./fleet-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What fleet-child.ts prints on stdout when its calls are done. */
export interface ChildResult {
  succeeded: number;
  failed: number;
  errors: Record<string, number>;
  store: 'shared' | 'fallback' | null;
  /** The calls' wall-clock time. */
  ms: number;
  /** The calls' time less the child's wait for a CPU meanwhile (test/helpers/load.ts). */
  msAlone: number;
  redisErrors: number;
}

/** A log line of the child's client (stderr, one JSON object a line). */
export interface ChildLog {
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

/** One finished child. */
export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The result line, when it printed one. */
  result: ChildResult | undefined;
  /** Its client's log lines. */
  logs: ChildLog[];
  /** Whether something kept it alive after it closed its Redis client (it exited after 3 s anyway). */
  lingered: boolean;
}

/** Every child still running; `killAll` ends them (afterAll), so none outlives the test file. */
const live = new Set<ChildProcess>();

/**
 * How long a child may take to start (Node, tsx compiling the sources, loading the Redis client, connecting) before
 * it is killed. That is the machine's time, not the SDK's: ~1 s alone, 8 s for eight children at once next to three
 * busy processes on a 2-core machine. A child's own limit (`timeoutMs`) counts from when it is ready for its calls,
 * and a test's timeout allows for both.
 */
export const START_LIMIT_MS = 60_000;

/** A running child: its process, its readiness and its end. */
export interface Spawned {
  process: ChildProcess;
  /** True once the child has started and made its clients (its calls are next); false if it ended before. */
  ready: Promise<boolean>;
  /** Lets a gated child (`{ gated: true }`) start its calls; its `timeoutMs` counts from here. */
  go(): void;
  done: Promise<ChildRun>;
}

/**
 * Starts fleet-child.ts with `env` on top of this process's environment. It is killed when it has not started within
 * `START_LIMIT_MS`, or has not ended `timeoutMs` after it was ready (gated: after `go()`). A gated child waits, once
 * ready, for `go()` before its first call: a fleet's processes then start their calls together however long each
 * took to start.
 */
export function spawnChild(
  env: Record<string, string>,
  timeoutMs: number,
  options: { gated?: boolean } = {},
): Spawned {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: ROOT,
    env: { ...process.env, ...env, ...(options.gated ? { GATED: '1' } : {}) },
    stdio: [options.gated ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let stdout = '';
  let stderr = '';
  let isReady: (ready: boolean) => void = () => {};
  const ready = new Promise<boolean>((resolve) => {
    isReady = resolve;
  });
  let timer = setTimeout(() => child.kill('SIGKILL'), START_LIMIT_MS);
  const limit = () => {
    clearTimeout(timer);
    timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  };
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    limit();
    child.stdin?.end('go\n');
  };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    const before = stderr.length;
    stderr += chunk;
    // The line fleet-child.ts writes once its clients are made, right before its calls (or before the gate).
    if (stderr.indexOf('{"ready":true}', Math.max(0, before - 20)) >= 0) {
      isReady(true);
      if (!options.gated) go();
    }
  });
  // A child that is gone cannot read its go.
  child.stdin?.on('error', () => {});
  const done = new Promise<ChildRun>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      isReady(false);
      live.delete(child);
      const json = (text: string) =>
        text
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .flatMap((line) => {
            try {
              return [JSON.parse(line) as Record<string, unknown>];
            } catch {
              return [];
            }
          });
      const printed = json(stdout);
      const logged = json(stderr);
      resolve({
        code,
        signal,
        stdout,
        stderr,
        result: printed.find((line) => 'succeeded' in line) as ChildResult | undefined,
        logs: logged.filter((line) => typeof line.level === 'string') as unknown as ChildLog[],
        lingered: logged.some((line) => line.lingering === true),
      });
    });
  });
  return { process: child, ready, go, done };
}

/** Kills every child still running. */
export function killAll(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

/** A short description of a child's run for assertion messages. */
export function describeRun(run: ChildRun): string {
  const tail = (text: string) => text.trim().split('\n').slice(-8).join('\n');
  return `exit ${run.code ?? run.signal}; stdout:\n${tail(run.stdout)}\nstderr:\n${tail(run.stderr)}`;
}

/** Resolves when `check` holds (polled every 20 ms), or after `withinMs` whatever it says. */
export async function until(check: () => boolean, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
