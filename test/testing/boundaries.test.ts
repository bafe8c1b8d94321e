import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = join(import.meta.dirname, '../../src/testing');
const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.split(sep).join('/'));
const source = (file: string) => readFileSync(join(dir, file), 'utf8');
const staticImports = (file: string) =>
  [...source(file).matchAll(/^(?:import|export) (?!type )[^;]*? from '([^']+)';$/gms)].map((m) => m[1]);
const inside = (file: string, specifier: string) =>
  !relative(dir, join(dir, dirname(file), specifier)).startsWith('..');

describe('reference server boundaries', () => {
  // The one door out: core/options.ts takes InvalidParamsError and checkKeys from the core's errors room (through its
  // index.ts), so a bad option fails as the SDK's do; no other SDK code (no zod, no ky) reaches the server.
  const DOOR = { file: 'core/options.ts', to: '../../core/errors/index.js' };

  it('imports nothing from the SDK but the errors room (through one door), no zod or ky, nothing else outside', () => {
    for (const file of files) {
      const all = [...source(file).matchAll(/from '([^']+)'/g)].map((m) => m[1] ?? '');
      expect(
        all.filter((s) =>
          s.startsWith('.')
            ? !inside(file, s) && !(file === DOOR.file && s === DOOR.to)
            : !s.startsWith('node:') && s !== 'msw',
        ),
        file,
      ).toEqual([]);
    }
  });

  // An entry must load where node:http does not exist (workerd) and without msw: only the bin may need node:.
  const reachable = (entry: string) => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const s of staticImports(file)) {
        if (s?.startsWith('.')) visit(join(dirname(file), s).split(sep).join('/').replace(/\.js$/, '.ts'));
      }
    };
    visit(entry);
    return [...seen];
  };
  const outside = (entry: string) =>
    reachable(entry).flatMap((file) =>
      staticImports(file)
        .filter((s) => !s?.startsWith('.'))
        .map((s) => `${file}: ${s}`),
    );

  it('loads no node: module and no msw from the /testing entry (node.ts imports node:http lazily)', () => {
    expect(outside('index.ts')).toEqual([]);
  });

  it('loads msw, and no node: module, from the /testing/msw entry', () => {
    expect(outside('msw.ts')).toEqual(['adapters/msw.ts: msw']);
  });

  it('keeps its three public entries where the package exports point', () => {
    expect(files).toEqual(expect.arrayContaining(['index.ts', 'msw.ts', 'bin.ts']));
  });

  it('the bin starts with a shebang', () => {
    expect(source('bin.ts').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });
});
