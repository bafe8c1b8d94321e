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
  ms: number;
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

/** A running child: its process, and its end. */
export interface Spawned {
  process: ChildProcess;
  done: Promise<ChildRun>;
}

/** Starts fleet-child.ts with `env` on top of this process's environment; kills it past `timeoutMs`. */
export function spawnChild(env: Record<string, string>, timeoutMs: number): Spawned {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const done = new Promise<ChildRun>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
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
  return { process: child, done };
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
