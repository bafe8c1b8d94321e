import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCircles, importFindings, importGraph, sideDoors } from '../../scripts/check-imports.ts';

const src = join(import.meta.dirname, '../../src');
const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
// The SDK itself: everything but the reference server, which has its own boundary tests.
const files = (readdirSync(src, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts') && !f.startsWith('testing'))
  .map((f) => join(src, f));
const read = (file: string) => readFileSync(file, 'utf8');
/** A file's code without its comment lines (an `@example` names packages a user imports). */
const code = (file: string) => read(file).replace(/^\s*(\/\*|\*|\/\/).*$/gm, '');
const name = (file: string) => relative(src, file).replaceAll('\\', '/');

describe('SDK boundaries', () => {
  it('imports only its own modules and its runtime dependencies (ky and zod); /redis also Node built-ins, /otel @opentelemetry/api', () => {
    const outside = files.flatMap((file) =>
      [...code(file).matchAll(/from '([^']+)'/g)]
        .map((m) => m[1] ?? '')
        .filter((s) => !s.startsWith('.') && !Object.keys(pkg.dependencies).includes(s.split('/')[0] ?? ''))
        // The fleet store's subpath runs on Node only (a Redis client does): it hashes with node:crypto.
        .filter((s) => !(name(file).startsWith('redis/') && s.startsWith('node:')))
        // The OpenTelemetry subpath speaks to @opentelemetry/api, an optional peer, and to nothing else.
        .filter((s) => !(name(file).startsWith('otel/') && s === '@opentelemetry/api'))
        .map((s) => `${name(file)}: ${s}`),
    );
    expect(outside).toEqual([]);
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['ky', 'zod']);
  });

  it('keeps the /otel subpath out of the main entry: no file outside src/otel imports it, and only it imports @opentelemetry', () => {
    const importers = files
      .filter((file) => !name(file).startsWith('otel/'))
      .filter((file) => /from '((\.\.?\/)+otel\/|@opentelemetry\/)/.test(code(file)))
      .map(name);
    expect(importers).toEqual([]);
    expect(files.map(name)).toContain('otel/index.ts');
  });

  it('keeps the /redis subpath out of the main entry: no file outside src/redis imports one inside it', () => {
    const importers = files
      .filter((file) => !name(file).startsWith('redis/'))
      .filter((file) => /from '(\.\.?\/)+redis\//.test(code(file)))
      .map(name);
    expect(importers).toEqual([]);
    expect(files.map(name).filter((file) => file.startsWith('redis/')).length).toBeGreaterThan(0);
  });

  it('has one door to ky: only the transport room imports it (types included)', () => {
    const importers = files.filter((file) => /from 'ky(\/[^']*)?'/.test(read(file))).map(name);
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter((file) => !file.startsWith('core/transport/'))).toEqual([]);
  });

  it('has one door to the network: only core/transport/http.ts uses the global fetch', () => {
    const callers = files.filter((file) =>
      /globalThis\.fetch\b/.test(read(file).replace(/^\s*(\/\*|\*|\/\/).*$/gm, '')),
    );
    expect(callers.map(name)).toEqual(['core/transport/http.ts']);
  });
});

describe('import rules of src/ (scripts/check-imports.ts, also run by npm run lint)', () => {
  it('has no import circle and enters every room of core/ through its index.ts', () => {
    expect(importFindings(src)).toEqual([]);
  });

  it('keeps core/ to a few rooms, each with an index.ts', () => {
    const entries = readdirSync(join(src, 'core'), { withFileTypes: true });
    expect(entries.filter((entry) => !entry.isDirectory()).map((entry) => entry.name)).toEqual([]);
    expect(entries.length).toBeLessThanOrEqual(6);
    for (const room of entries) expect(readdirSync(join(src, 'core', room.name))).toContain('index.ts');
  });

  it('finds a circle, type-only imports and re-exports included, and a side door into a room', () => {
    const dir = mkdtempSync(join(tmpdir(), 'imports-'));
    try {
      mkdirSync(join(dir, 'core/errors'), { recursive: true });
      mkdirSync(join(dir, 'core/pages'), { recursive: true });
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.js';\nexport type A = B;\n");
      writeFileSync(join(dir, 'b.ts'), "export type { A as B } from './a.js';\n");
      writeFileSync(join(dir, 'core/errors/index.ts'), "export * from './classes.js';\n");
      writeFileSync(
        join(dir, 'core/errors/classes.ts'),
        '/** @example import { x } from "../pages/page.js" */\n',
      );
      writeFileSync(join(dir, 'core/pages/page.ts'), "import { E } from '../errors/classes.js';\n");
      const graph = importGraph(dir);
      expect(importCircles(graph)).toEqual([['a.ts', 'b.ts']]);
      expect(sideDoors(graph)).toEqual(['core/pages/page.ts -> core/errors/classes.ts']);
      expect(importFindings(dir)).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
