// The lockfile is complete for every platform, so `npm ci` installs the same tree on any machine (CI, a contributor's
// Mac or Windows box, an ARM runner), checked by .ci/run right after `npm ci`, and its first half by
// test/lockfile.test.ts:
//   1. every optional dependency a locked package declares (biome's, esbuild's, rollup's and rolldown's binaries for
//      each platform, fsevents…), in its lock entry or in its package.json as installed, has a lock entry of its own,
//      at the version pinned, with an integrity hash;
//   2. `npm install --package-lock-only --ignore-scripts`, run on a copy of package.json and package-lock.json, leaves
//      the lockfile byte-identical (nothing missing that npm would add, nothing out of step with package.json).
// Run: node scripts/check-lockfile.ts [root]   (prints each finding, exits 1 when there is one)
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the checks read of a package-lock.json (lockfileVersion 2 or 3). */
export interface Lockfile {
  lockfileVersion?: number;
  packages: Record<string, LockEntry>;
}

/** One entry of `packages`, keyed by its folder (`node_modules/@esbuild/linux-x64`; `''` is the project). */
export interface LockEntry {
  version?: string;
  integrity?: string;
  link?: boolean;
  optionalDependencies?: Record<string, string>;
}

/** A package.json as installed: only its optional dependencies matter here. */
export interface Manifest {
  optionalDependencies?: Record<string, string>;
}

const EXACT = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** The lock entry `name` resolves to from the package in folder `from`, as Node resolves it (nearest node_modules up). */
function resolveEntry(lock: Lockfile, from: string, name: string): [string, LockEntry] | undefined {
  let base = from;
  for (;;) {
    const key = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    const entry = lock.packages[key];
    if (entry !== undefined) return [key, entry];
    if (base === '') return undefined;
    const up = base.lastIndexOf('node_modules/');
    base = up <= 0 ? '' : base.slice(0, up - 1);
  }
}

/**
 * Every optional dependency of a locked package without a complete lock entry, one line each; empty when there is
 * none. `manifestOf(key)` is the package.json installed at that folder (`undefined` when it is not installed, as a
 * binary for another platform is not): what it declares counts, whatever the lock entry says.
 */
export function lockfileFindings(
  lock: Lockfile,
  manifestOf: (key: string) => Manifest | undefined,
): string[] {
  const findings: string[] = [];
  if (lock.lockfileVersion !== 2 && lock.lockfileVersion !== 3)
    findings.push(`lockfileVersion is ${lock.lockfileVersion}, not 3: regenerate it with npm 9 or later`);
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (entry.link) continue;
    const locked = entry.optionalDependencies ?? {};
    const installed = manifestOf(key)?.optionalDependencies ?? {};
    const who = key === '' ? 'package.json' : key.replace(/^.*node_modules\//, '');
    for (const [name, range] of Object.entries({ ...locked, ...installed })) {
      if (!(name in locked))
        findings.push(
          `${who} declares the optional ${name}@${range}, which its lock entry (${key}) does not list`,
        );
      const found = resolveEntry(lock, key, name);
      if (found === undefined) {
        findings.push(
          `${who} declares the optional ${name}@${range}, which has no entry in package-lock.json`,
        );
        continue;
      }
      const [at, target] = found;
      if (EXACT.test(range) && target.version !== range)
        findings.push(`${who} pins the optional ${name}@${range}; ${at} is locked at ${target.version}`);
      if (target.version === undefined || (target.integrity === undefined && !target.link))
        findings.push(`${at} (optional, for ${who}) has no version or no integrity in package-lock.json`);
    }
  }
  return findings;
}

/** The installed package.json of lock folder `key` under `root`, or `undefined` when none is installed there. */
export function installedManifest(root: string, key: string): Manifest | undefined {
  const file = join(root, key, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : undefined;
}

/**
 * Runs `npm install --package-lock-only --ignore-scripts` on a copy of `root`'s package.json and package-lock.json
 * (and .npmrc), in a temporary folder: the tree in `root` is never touched. A finding when npm failed or changed the
 * lockfile (the first lines that differ), else none.
 */
export function npmKeepsLockfile(root: string, npm = 'npm'): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'cpsdk-lockfile-'));
  try {
    for (const file of ['package.json', 'package-lock.json', '.npmrc'])
      if (existsSync(join(root, file))) copyFileSync(join(root, file), join(dir, file));
    const args = ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'];
    const result = spawnSync(npm, [...args, '--loglevel=error'], { cwd: dir, encoding: 'utf8' });
    if (result.status !== 0)
      return [
        `\`npm ${args.join(' ')}\` failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stderr}`,
      ];
    const before = readFileSync(join(root, 'package-lock.json'), 'utf8');
    const after = readFileSync(join(dir, 'package-lock.json'), 'utf8');
    if (before === after) return [];
    return [`\`npm ${args.join(' ')}\` changed package-lock.json:\n${firstDifferences(before, after)}`];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first lines where two texts differ (at most 10 of each), as `-` / `+` lines with their line numbers. */
function firstDifferences(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  const shown = (lines: string[], mark: string) =>
    lines.slice(start, start + 10).map((line, i) => `  ${mark}${start + i + 1}: ${line}`);
  return [...shown(a, '-'), ...shown(b, '+')].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..');
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as Lockfile;
  const findings = [
    ...lockfileFindings(lock, (key) => installedManifest(root, key)),
    ...npmKeepsLockfile(root, process.platform === 'win32' ? 'npm.cmd' : 'npm'),
  ];
  for (const line of findings) console.error(line);
  if (findings.length > 0) {
    console.error(
      `check-lockfile: ${findings.length} finding(s). Run \`npm install\` with the registry reachable and commit ` +
        'package-lock.json with the change to package.json.',
    );
    process.exit(1);
  }
  const entries = Object.keys(lock.packages).length;
  console.log(
    `check-lockfile: ${entries} entries, every platform's optional package locked; npm install leaves it as it is`,
  );
}
