import { describe, expect, it } from 'vitest';
import { APIPromise, deferred } from '../../src/core/transport/api-promise.js';

const response = new Response(null, { status: 201, headers: { 'x-ratelimit-remaining': '7' } });

describe('APIPromise', () => {
  it('resolves to the data when awaited', async () => {
    await expect(new APIPromise(Promise.resolve({ data: 42, response }))).resolves.toBe(42);
  });

  it('gives data and response from the same pending result', async () => {
    let runs = 0;
    const result = (async () => {
      runs += 1;
      return { data: 'x', response };
    })();
    const promise = new APIPromise(result);
    const [value, both] = await Promise.all([promise, promise.withResponse()]);
    expect(value).toBe('x');
    expect(both.response.headers.get('x-ratelimit-remaining')).toBe('7');
    expect(runs).toBe(1);
  });

  it('is a Promise whose then/catch/finally behave like one', async () => {
    const failing = new APIPromise<number>(Promise.reject(new Error('nope')));
    expect(failing).toBeInstanceOf(Promise);
    await expect(failing.catch((e: unknown) => (e as Error).message)).resolves.toBe('nope');
    let finalized = false;
    await new APIPromise(Promise.resolve({ data: 1, response })).finally(() => {
      finalized = true;
    });
    expect(finalized).toBe(true);
    await expect(new APIPromise(Promise.resolve({ data: 2, response })).then((n) => n * 10)).resolves.toBe(
      20,
    );
  });

  it('rejects withResponse() with the same error', async () => {
    const error = new Error('boom');
    const promise = new APIPromise(Promise.reject(error));
    await expect(promise.withResponse()).rejects.toBe(error);
    await expect(promise).rejects.toBe(error);
  });
});

describe('deferred', () => {
  it('turns a synchronous throw into a rejection that every reader sees', async () => {
    const error = new Error('bad input');
    const promise = deferred<number>(() => {
      throw error;
    });
    expect(promise).toBeInstanceOf(APIPromise);
    await expect(promise).rejects.toBe(error);
    await expect(promise.withResponse()).rejects.toBe(error);
    await expect(promise.catch((e: unknown) => e)).resolves.toBe(error);
  });

  it('does not report the rejection as unhandled before the caller reads it', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const promise = deferred<number>(() => {
        throw new Error('later');
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
      await expect(promise).rejects.toThrow('later');
    } finally {
      process.off('unhandledRejection', listener);
    }
  });

  it('passes a started promise through untouched', async () => {
    const started = new APIPromise(Promise.resolve({ data: 7, response }));
    expect(deferred(() => started)).toBe(started);
  });
});
