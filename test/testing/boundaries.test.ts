import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = join(import.meta.dirname, '../../src/testing');
const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
const staticImports = (file: string) =>
  [...readFileSync(join(dir, file), 'utf8').matchAll(/^import (?!type )[^;]*? from '([^']+)';$/gms)].map(
    (m) => m[1],
  );

describe('reference server boundaries', () => {
  it('imports nothing from the SDK, zod or ky', () => {
    for (const file of files) {
      const all = [...readFileSync(join(dir, file), 'utf8').matchAll(/from '([^']+)'/g)].map(
        (m) => m[1] ?? '',
      );
      expect(
        all.filter((s) => !s.startsWith('./') && !s.startsWith('node:') && s !== 'msw'),
        file,
      ).toEqual([]);
    }
  });

  it('keeps msw in msw.ts and runtime node: imports in bin.ts only (node.ts loads node:http lazily)', () => {
    const offenders = files.flatMap((file) =>
      staticImports(file)
        .filter((s) => s === 'msw' || s?.startsWith('node:'))
        .map((s) => `${file}: ${s}`),
    );
    expect(offenders).toEqual(['bin.ts: node:util', 'msw.ts: msw']);
  });

  it('the bin starts with a shebang', () => {
    expect(readFileSync(join(dir, 'bin.ts'), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });
});
