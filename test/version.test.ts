import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../src/index.js';

const read = (file: string) => JSON.parse(readFileSync(join(import.meta.dirname, '..', file), 'utf8'));

describe('VERSION', () => {
  it("is package.json's version, so the User-Agent names the build that sent it", () => {
    const pkg = read('package.json') as { version: string };
    expect(VERSION).toBe(pkg.version);
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
  });

  it("is package-lock.json's version too (npm version bumps both; a hand edit may not)", () => {
    const lock = read('package-lock.json') as {
      version: string;
      packages: Record<string, { version: string }>;
    };
    expect(lock.version).toBe(VERSION);
    expect(lock.packages['']?.version).toBe(VERSION);
  });
});

describe('publishing', () => {
  // dist/ is not in git, and `files` ships it: a publish from a clone that never built would ship no code, and one
  // after an old build would ship that build under the new version.
  it('builds, then checks the size budget and the package, before `npm publish` packs', () => {
    const pkg = read('package.json') as { files: string[]; scripts: Record<string, string> };
    expect(pkg.files).toContain('dist');
    const steps = (pkg.scripts.prepublishOnly ?? '').split(' && ');
    expect(steps).toEqual(['npm run build', 'npm run size', 'npm run lint:package']);
    expect(pkg.scripts.build).toContain('generate-parsers.ts');
  });
});
