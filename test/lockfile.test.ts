// The lockfile is complete for every platform (`npm ci` installs from it anywhere): the first half of
// scripts/check-lockfile.ts, which .ci/run runs after `npm ci` with its second half (npm leaves the lockfile as it is).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  installedManifest,
  type Lockfile,
  lockfileFindings,
  type Manifest,
} from '../scripts/check-lockfile.ts';

const root = join(import.meta.dirname, '..');
const read = (): Lockfile => JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as Lockfile;
const installed = (key: string) => installedManifest(root, key);

describe('package-lock.json', () => {
  it('locks every optional package that the installed tools declare, for every platform, at the version pinned', () => {
    expect(lockfileFindings(read(), installed)).toEqual([]);
  });

  it('is checked against the tools with per-platform binaries, as installed (the check is not vacuous)', () => {
    const lock = read();
    for (const [tool, family, atLeast] of [
      ['@biomejs/biome', '@biomejs/cli-', 8],
      ['esbuild', '@esbuild/', 20],
      ['rollup', '@rollup/rollup-', 20],
      ['rolldown', '@rolldown/binding-', 10],
    ] as const) {
      const declared = Object.keys(installed(`node_modules/${tool}`)?.optionalDependencies ?? {});
      const platforms = declared.filter((name) => name.startsWith(family));
      expect(platforms.length, tool).toBeGreaterThanOrEqual(atLeast);
      for (const name of platforms)
        expect(lock.packages[`node_modules/${name}`]?.integrity, name).toBeTruthy();
    }
  });

  it('finds an entry missing, one locked at another version, and a lock entry that lost a declaration', () => {
    const lock = read();
    delete lock.packages['node_modules/@esbuild/aix-ppc64'];
    const win = lock.packages['node_modules/@rollup/rollup-win32-x64-msvc'];
    if (win) win.version = '4.0.0';
    const biome = lock.packages['node_modules/@biomejs/biome'];
    if (biome?.optionalDependencies) delete biome.optionalDependencies['@biomejs/cli-win32-x64'];
    const pinned = installed('node_modules/esbuild')?.optionalDependencies?.['@esbuild/aix-ppc64'];
    expect(lockfileFindings(lock, installed)).toEqual([
      expect.stringMatching(
        /^@biomejs\/biome declares the optional @biomejs\/cli-win32-x64@[\d.]+, which its lock entry \(node_modules\/@biomejs\/biome\) does not list$/,
      ),
      `esbuild declares the optional @esbuild/aix-ppc64@${pinned}, which has no entry in package-lock.json`,
      expect.stringMatching(
        /^rollup pins the optional @rollup\/rollup-win32-x64-msvc@[\d.]+; node_modules\/@rollup\/rollup-win32-x64-msvc is locked at 4\.0\.0$/,
      ),
    ]);
  });

  it('reads what a package declares from its lock entry when it is not installed (a binary for another platform)', () => {
    const lock: Lockfile = {
      lockfileVersion: 3,
      packages: {
        '': {},
        'node_modules/tool': {
          version: '1.0.0',
          integrity: 'sha512-x',
          optionalDependencies: { 'tool-os': '1.0.0' },
        },
        'node_modules/other/node_modules/tool-os': { version: '1.0.0', integrity: 'sha512-y' },
      },
    };
    const none = (): Manifest | undefined => undefined;
    // Not where Node would find it from node_modules/tool: nested under another package.
    expect(lockfileFindings(lock, none)).toEqual([
      'tool declares the optional tool-os@1.0.0, which has no entry in package-lock.json',
    ]);
    lock.packages['node_modules/tool-os'] = { version: '1.0.0' };
    expect(lockfileFindings(lock, none)).toEqual([
      'node_modules/tool-os (optional, for tool) has no version or no integrity in package-lock.json',
    ]);
  });
});
