// Shared by scripts/consumers.ts and scripts/runtimes.ts: the packed tarball, throwaway projects that
// install it, and child processes with a time limit.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const fixtures = join(root, 'test/consumers');
/** Where fetched runtimes live: the cache scripts/node.sh uses, never the repo. */
export const cacheDir = join(
  process.env.XDG_CACHE_HOME || join(process.env.HOME ?? tmpdir(), '.cache'),
  'content-platform-sdk',
);
/** Set KEEP_CONSUMERS=1 to keep the temporary projects for a look after a failure. */
const keep = process.env.KEEP_CONSUMERS === '1';

export interface RunResult {
  code: number | null;
  output: string;
  ms: number;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

/** Runs a command, capturing stdout and stderr together; never throws (see `mustRun`). */
export function run(command: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? root,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    const timer = setTimeout(() => {
      output += `\n[killed after ${options.timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 120_000);
    child.on('error', (error) => {
      output += `\n${error.message}`;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output, ms: performance.now() - started });
    });
  });
}

/** Runs a command and throws, with its output, unless it exits 0. */
export async function mustRun(command: string, args: readonly string[], options: RunOptions = {}) {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    throw new Error(`\`${[command, ...args].join(' ')}\` exited ${result.code}:\n${result.output.trim()}`);
  }
  return result;
}

/**
 * The package as a user installs it: `$CONTENT_PLATFORM_SDK_TARBALL` when set (.ci/run packs once for every
 * check), else a fresh `npm pack` (which builds first: `prepack`) into a temporary folder.
 */
export async function tarball(): Promise<string> {
  const given = process.env.CONTENT_PLATFORM_SDK_TARBALL;
  if (given) {
    if (!existsSync(given)) throw new Error(`CONTENT_PLATFORM_SDK_TARBALL=${given} does not exist`);
    return resolve(given);
  }
  const dir = mkdtempSync(join(tmpdir(), 'cpsdk-pack-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const { output } = await mustRun('npm', ['pack', '--silent', '--pack-destination', dir]);
  const name = output.trim().split('\n').at(-1) ?? '';
  const file = join(dir, basename(name));
  if (!name.endsWith('.tgz') || !existsSync(file)) throw new Error(`npm pack gave no tarball:\n${output}`);
  return file;
}

/** A fresh project in a temporary folder outside the repo. */
export interface Project {
  dir: string;
  /** Installs the tarball and `extra` packages with `npm install` (offline first: the npm cache makes it fast). */
  install(tarballPath: string, extra?: readonly string[]): Promise<RunResult>;
  remove(): void;
}

/**
 * Creates `package.json` (with `type`), copies `files` from test/consumers (flattened to their base names)
 * and writes `extraFiles` as given.
 */
export function createProject(
  name: string,
  type: 'module' | 'commonjs',
  files: readonly string[],
  extraFiles: Record<string, string> = {},
): Project {
  const dir = mkdtempSync(join(tmpdir(), `cpsdk-${name}-`));
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: `cpsdk-consumer-${name}`, version: '0.0.0', private: true, type }, null, 2)}\n`,
  );
  for (const file of files) cpSync(join(fixtures, file), join(dir, basename(file)));
  for (const [file, text] of Object.entries(extraFiles)) writeFileSync(join(dir, file), text);
  return {
    dir,
    install: (tarballPath, extra = []) =>
      mustRun(
        'npm',
        [
          'install',
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
          '--loglevel=error',
          '--ignore-scripts',
          tarballPath,
          ...extra,
        ],
        { cwd: dir, timeoutMs: 300_000 },
      ),
    remove: () => {
      if (keep) console.log(`  (kept ${dir})`);
      else rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Seconds, for the summaries. */
export const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
