import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = join(import.meta.dirname, '../../src/testing');
const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.split(sep).join('/'));
const source = (file: string) => readFileSync(join(dir, file), 'utf8');
const staticImports = (file: string) =>
  [...source(file).matchAll(/^import (?!type )[^;]*? from '([^']+)';$/gms)].map((m) => m[1]);
const inside = (file: string, specifier: string) =>
  !relative(dir, join(dir, dirname(file), specifier)).startsWith('..');

describe('reference server boundaries', () => {
  it('imports nothing from the SDK, zod or ky, and nothing outside src/testing', () => {
    for (const file of files) {
      const all = [...source(file).matchAll(/from '([^']+)'/g)].map((m) => m[1] ?? '');
      expect(
        all.filter((s) => (s.startsWith('.') ? !inside(file, s) : !s.startsWith('node:') && s !== 'msw')),
        file,
      ).toEqual([]);
    }
  });

  it('keeps msw in adapters/msw.ts and runtime node: imports in bin.ts only (node.ts loads node:http lazily)', () => {
    const offenders = files.flatMap((file) =>
      staticImports(file)
        .filter((s) => s === 'msw' || s?.startsWith('node:'))
        .map((s) => `${file}: ${s}`),
    );
    expect(offenders.sort()).toEqual(['adapters/msw.ts: msw', 'bin.ts: node:util']);
  });

  it('keeps its three public entries where the package exports point', () => {
    expect(files).toEqual(expect.arrayContaining(['index.ts', 'msw.ts', 'bin.ts']));
  });

  it('the bin starts with a shebang', () => {
    expect(source('bin.ts').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });
});
