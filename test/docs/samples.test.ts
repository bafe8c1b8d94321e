import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { stripTypeScriptTypes } from 'node:module';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createReferenceServer } from '../../src/testing/index.js';
import { useRedis } from '../helpers/redis.js';
import { blockRunner, DOCS, docBlocks } from './readme-blocks.js';

// Every `ts` and `js` sample of the README and of the guides in docs/ runs as printed, twice in a row, against one
// reference server over 127.0.0.1 (and a real redis-server for the fleet guide), configured only through the
// environment variables the docs name; and every sample compiles under strict TypeScript, as a user's editor would
// check it. A sample that needs a name it never declares, leaves records that break its second run, prints nothing,
// sets a failing exit code or makes the SDK print a warning fails here.
const run = promisify(execFile);
const api = createReferenceServer();
const runner = blockRunner(api, 'samples');
const redis = useRedis();
const blocks = DOCS.flatMap(docBlocks);
/** Samples that are vitest test files: they run as the test file they are copied from (checked below). */
const isTestFile = (code: string) => code.includes("from 'vitest'");

/** The variables a user sets from the bin's `export` lines (and, for the guides, a Redis and purchase codes). */
const env = () => ({
  CONTENT_PLATFORM_BASE_URL: runner.url(),
  CONTENT_PLATFORM_SITE_URL: runner.url(),
  CONTENT_PLATFORM_MANAGEMENT_API_KEY: api.keys.management[0] as string,
  CONTENT_PLATFORM_CATALOG_API_KEY: api.keys.catalog[0] as string,
  PURCHASE_CODE: api.fixtures.purchaseCodes.supported,
  PURCHASE_CODES: `${api.fixtures.purchaseCodes.supported},${api.fixtures.purchaseCodes.invalid}`,
  REDIS_URL: redis.url,
});

describe('every sample of the README and the guides', () => {
  it('finds the samples of each document', () => {
    const counted = Object.fromEntries(DOCS.map((doc) => [doc, blocks.filter((b) => b.doc === doc).length]));
    expect(counted['README.md']).toBeGreaterThanOrEqual(10);
    for (const guide of ['docs/wrapping.md', 'docs/scripts.md', 'docs/fleets.md', 'docs/license-checks.md'])
      expect(counted[guide], guide).toBeGreaterThan(0);
  });

  for (const [n, block] of blocks.entries()) {
    if (isTestFile(block.code)) continue;
    it(`${block.doc}:${block.line} (${block.heading}) runs twice`, async () => {
      const signals = process.listeners('SIGINT');
      const complaints: string[] = [];
      vi.spyOn(console, 'warn').mockImplementation((...args) => void complaints.push(args.join(' ')));
      vi.spyOn(console, 'error').mockImplementation((...args) => void complaints.push(args.join(' ')));
      try {
        for (const time of [1, 2]) {
          const printed = await runner.run(`sample-${n}-${time}`, block.code, env(), block.lang);
          expect(printed.length, `run ${time} printed nothing`).toBeGreaterThan(0);
          expect(process.exitCode, `run ${time} set an exit code`).toBeUndefined();
          expect(complaints, `run ${time} printed to stderr`).toEqual([]);
        }
      } finally {
        process.exitCode = undefined;
        for (const listener of process.listeners('SIGINT'))
          if (!signals.includes(listener)) process.off('SIGINT', listener);
      }
    }, 30_000);
  }

  it('a sample that is a test file is the test file that runs it', async () => {
    const tests = blocks.filter((b) => isTestFile(b.code));
    expect(tests.map((b) => `${b.doc} ${b.heading}`)).toEqual([
      'README.md Testing with the reference server',
    ]);
    const file = await readFile(new URL('../e2e/readme-example.test.ts', import.meta.url), 'utf8');
    expect(file.replace(/^(\/\/.*\n)+/, '')).toBe(tests[0]?.code);
  });
});

describe('every sample compiles', () => {
  const dir = new URL('../../.ci/out/samples-tsc/', import.meta.url);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('with only the syntax `node sample.ts` can strip (no enums, no parameter properties)', () => {
    for (const block of blocks)
      expect(() => stripTypeScriptTypes(block.code), `${block.doc}:${block.line}`).not.toThrow();
  });

  it('under strict TypeScript', async () => {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const names = await Promise.all(
      blocks.map(async (block) => {
        const name = `${block.doc.replace(/\W+/g, '-')}-${block.line}.ts`;
        await writeFile(new URL(name, dir), block.code);
        return `${name} ← ${block.doc}:${block.line}`;
      }),
    );
    const src = '../../../src';
    const tsconfig = {
      compilerOptions: {
        target: 'ES2023',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: ['node'],
        strict: true,
        noUncheckedIndexedAccess: true,
        noImplicitOverride: true,
        verbatimModuleSyntax: true,
        allowImportingTsExtensions: true,
        skipLibCheck: true,
        noEmit: true,
        paths: {
          'content-platform-sdk': [`${src}/index.ts`],
          'content-platform-sdk/testing': [`${src}/testing/index.ts`],
          'content-platform-sdk/testing/msw': [`${src}/testing/msw.ts`],
          'content-platform-sdk/redis': [`${src}/redis/index.ts`],
          'content-platform-sdk/otel': [`${src}/otel/index.ts`],
        },
      },
      include: ['*.ts'],
    };
    await writeFile(new URL('tsconfig.json', dir), JSON.stringify(tsconfig));
    await writeFile(new URL('package.json', dir), '{ "type": "module" }');
    const tsc = new URL('../../node_modules/typescript/bin/tsc', import.meta.url).pathname;
    const result = await run(process.execPath, [tsc, '-p', new URL('tsconfig.json', dir).pathname]).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    // The SDK's own sources compile under the repository's stricter settings (`npm run typecheck`): only the
    // samples' errors count here, with the lines that continue them.
    const errors = result.split(/\n(?=\S)/).filter((error) => error.includes('samples-tsc/'));
    expect(errors, `files: ${names.join(', ')}`).toEqual([]);
  }, 120_000);
});
