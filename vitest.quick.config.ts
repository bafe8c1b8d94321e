import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import full from './vitest.config.js';

/**
 * `npm run test:quick`: the edit-test loop. Every unit and end-to-end test of the SDK and the reference server,
 * without the suites that spend their time waiting on purpose (real rate-limit windows, retry backoffs, a real
 * redis-server and child processes) or running thousands of generated cases. `npm test`, which CI runs, is the whole
 * suite: run it before you push.
 */
export const SLOW_SUITES = [
  'test/reliability/fault-suite.test.ts', // 180 fault scenarios over a socket, with real backoffs and timeouts
  'test/redis/**', // a real redis-server and child processes: the fleet and the cache
  'test/properties/**', // fast-check, 1 000 runs a property
  'test/core/properties.test.ts',
  'test/e2e/rate-limit-live.test.ts', // real 1 s rate-limit windows
  'test/e2e/examples.test.ts', // each example as a child process
  'test/docs/samples.test.ts', // every doc sample twice, and a tsc run
  'test/docs/readme-rate-limit.test.ts', // a real 1 s rate-limit window
  'test/docs/readme-fleet.test.ts', // a real redis-server
];

export default mergeConfig(
  full,
  // Test files share their workers (no fresh module graph per file): about half the wall time. Mocks, spies and
  // stubbed variables are still restored after each test (vitest.config.ts); `npm test` isolates every file.
  defineConfig({ test: { exclude: [...configDefaults.exclude, ...SLOW_SUITES], isolate: false } }),
);
