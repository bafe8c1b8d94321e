// redisStore's arguments (issue 37, options checked): an unknown option names the nearest known one, `null` options
// are none, and what is not a client says what it got. No Redis is needed: the store sends nothing until it is used.
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '../../src/index.js';
import { type RedisClientLike, redisStore } from '../../src/redis/index.js';

// Never connected: node-redis connects on connect(), ioredis is told not to.
const nodeRedis = createClient({ url: 'redis://127.0.0.1:9' });
const ioRedis = new Redis('redis://127.0.0.1:9', { lazyConnect: true });

/** What `make()` throws: its class, message and `param`. */
function thrown(make: () => unknown) {
  try {
    make();
  } catch (error) {
    return {
      type: (error as Error).constructor,
      message: (error as Error).message,
      param: (error as InvalidParamsError).param,
    };
  }
  return undefined;
}

describe('redisStore(client, options)', () => {
  it.each([
    [{ prefx: 'a' }, 'redisStore: unknown option "prefx"; did you mean prefix?', 'prefx'],
    [{ timeout: 5 }, 'redisStore: unknown option "timeout"; did you mean timeoutMs?', 'timeout'],
    [{ ttl: 5 }, 'redisStore: unknown option "ttl"; the options are prefix, timeoutMs.', 'ttl'],
  ])('refuses the unknown option in %j, naming the nearest', (options, message, param) => {
    for (const client of [nodeRedis, ioRedis])
      expect(thrown(() => redisStore(client, options as object))).toEqual({
        type: InvalidParamsError,
        message,
        param,
      });
  });

  it('refuses options that are not an object; null is none', () => {
    expect(thrown(() => redisStore(nodeRedis, [] as object))).toEqual({
      type: InvalidParamsError,
      message: 'redisStore: the options must be an object; got an array.',
      param: undefined,
    });
    expect(thrown(() => redisStore(nodeRedis, 'prefix' as unknown as object))).toMatchObject({
      type: InvalidParamsError,
      message: 'redisStore: the options must be an object; got a string.',
    });
    expect(typeof redisStore(nodeRedis, null).get).toBe('function');
    expect(typeof redisStore(ioRedis, undefined).get).toBe('function');
  });

  it('says what it got for what is not a client, in its own words', () => {
    const needs =
      'redisStore needs a node-redis (createClient, createCluster) or ioredis (Redis, Cluster) client:';
    expect(thrown(() => redisStore(null as unknown as RedisClientLike))).toEqual({
      type: InvalidParamsError,
      message: `${needs} got null.`,
      param: 'client',
    });
    expect(thrown(() => redisStore('redis://127.0.0.1:6379' as unknown as RedisClientLike))).toMatchObject({
      message: `${needs} got a string.`,
    });
    expect(thrown(() => redisStore({} as RedisClientLike))).toMatchObject({
      message: `${needs} it has neither evalSha nor evalsha.`,
    });
  });
});
