import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests written as a user would write them import the package name; it resolves to the sources.
    alias: [
      { find: /^content-platform-sdk\/testing\/msw$/, replacement: src('testing/msw.ts') },
      { find: /^content-platform-sdk\/testing$/, replacement: src('testing/index.ts') },
      { find: /^content-platform-sdk\/redis$/, replacement: src('redis/index.ts') },
      { find: /^content-platform-sdk\/otel$/, replacement: src('otel/index.ts') },
      { find: /^content-platform-sdk$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    environment: 'node',
    restoreMocks: true,
    unstubEnvs: true,
    // A test's timeout is a safety limit for a hang, not a speed claim (benchmarks measure speed). vitest's default,
    // 5 s, failed CPU-bound tests (fast-check properties, a queue of 100 000 waiters) that take 2-4 s alone and 7-12 s
    // next to three busy processes on a 2-core machine. A test that means a time bound asserts it itself.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
