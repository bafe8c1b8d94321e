import { inspect } from 'node:util';

/** Awaits a call that must fail and returns its error; a call that succeeds fails the test. */
export async function failure(call: unknown): Promise<Error> {
  try {
    await (typeof call === 'function' ? call() : call);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

/**
 * Every text a user could see of an error (message, stack, JSON, inspect, and inspect as Node prints an uncaught
 * error: without custom inspection): the key must be in none of them.
 */
export function leakSurface(error: Error): string {
  return [
    error.message,
    error.stack,
    JSON.stringify(error),
    inspect(error, { depth: 10 }),
    inspect(error, { depth: 10, customInspect: false }),
    String(error),
  ].join('\n');
}

/** Settles `promise` and says how, and after how many ms. */
export async function timed<T>(promise: Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const started = performance.now();
  try {
    const value = await promise;
    return { ms: performance.now() - started, value };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}
