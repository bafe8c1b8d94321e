import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = join(import.meta.dirname, '../../src');
const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
// The SDK itself: everything but the reference server, which has its own boundary tests.
const files = (readdirSync(src, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts') && !f.startsWith('testing'))
  .map((f) => join(src, f));
const read = (file: string) => readFileSync(file, 'utf8');
const name = (file: string) => relative(src, file).replaceAll('\\', '/');

describe('SDK boundaries', () => {
  it('imports only its own modules and its runtime dependencies (ky and zod)', () => {
    const outside = files.flatMap((file) =>
      [...read(file).matchAll(/from '([^']+)'/g)]
        .map((m) => m[1] ?? '')
        .filter((s) => !s.startsWith('.') && !Object.keys(pkg.dependencies).includes(s.split('/')[0] ?? ''))
        .map((s) => `${name(file)}: ${s}`),
    );
    expect(outside).toEqual([]);
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['ky', 'zod']);
  });

  it('has one door to ky: only core/http.ts imports it (types included)', () => {
    const importers = files.filter((file) => /from 'ky(\/[^']*)?'/.test(read(file)));
    expect(importers.map(name)).toEqual(['core/transport/http.ts']);
  });

  it('has one door to the network: only core/http.ts uses the global fetch', () => {
    const callers = files.filter((file) =>
      /globalThis\.fetch\b/.test(read(file).replace(/^\s*(\/\*|\*|\/\/).*$/gm, '')),
    );
    expect(callers.map(name)).toEqual(['core/transport/http.ts']);
  });
});
