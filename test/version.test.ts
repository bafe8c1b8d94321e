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
