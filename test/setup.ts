// Each test file starts msw itself (test/helpers/msw.ts), so files that talk to a real loopback
// server are not intercepted. The one global thing here keeps `npm test` quiet: a test whose client logs
// through the default logger (the console) fails, so a test that makes the SDK log passes its own logger.
import { afterEach, beforeEach, expect, type MockInstance, vi } from 'vitest';

const LEVELS = ['error', 'warn', 'info', 'debug', 'log'] as const;
const spies: MockInstance<(...args: unknown[]) => void>[] = [];

beforeEach(() => {
  spies.length = 0;
  for (const level of LEVELS) spies.push(vi.spyOn(console, level));
});

afterEach(() => {
  const lines = spies
    .flatMap((spy) => spy.mock.calls.map((args) => args[0]))
    // A line through the default logger (`content-platform-sdk warn: …`), or a client given `console` bare.
    .filter(
      (first) => typeof first === 'string' && /^(\[content-platform-sdk\]|content-platform-sdk )/.test(first),
    );
  expect(lines, 'an SDK log line reached the console: pass the test its own logger').toEqual([]);
});
