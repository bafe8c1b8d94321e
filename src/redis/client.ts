import { createHash } from 'node:crypto';
import { bounded } from '../catalog/cache.js';

/** What the store needs of a node-redis client (`redis` ≥ 5: `createClient(…).connect()`). */
export interface NodeRedisLike {
  /** `EVALSHA`: runs a script Redis has cached, by its SHA-1. */
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  /** `EVAL`: runs a script sent whole (and caches it). */
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** What the store needs of an ioredis client (`new Redis(url)`). */
export interface IoRedisLike {
  /** `EVALSHA`: runs a script Redis has cached, by its SHA-1. */
  evalsha(sha1: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  /** `EVAL`: runs a script sent whole (and caches it). */
  eval(script: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
}

/** A connected Redis client: node-redis or ioredis (structurally: only the script commands are used). */
export type RedisClientLike = NodeRedisLike | IoRedisLike;

/** Runs one of the store's scripts: `EVAL` the first time, then `EVALSHA` (`EVAL` again after a `NOSCRIPT`). */
export type RunScript = (script: string, keys: string[], args: string[]) => Promise<unknown>;

/**
 * The script runner for `client`, each call bounded by `timeoutMs`: a Redis that is down, or slow, rejects instead
 * of holding a call of the SDK (node-redis and ioredis queue commands while they reconnect).
 */
export function scriptRunner(client: RedisClientLike, timeoutMs: number): RunScript {
  const node = typeof (client as Partial<NodeRedisLike>).evalSha === 'function';
  const io = typeof (client as Partial<IoRedisLike>).evalsha === 'function';
  if (!node && !io) {
    throw new TypeError(
      'redisStore needs a connected node-redis (createClient(…).connect()) or ioredis client: it has neither evalSha nor evalsha.',
    );
  }
  const shas = new Map<string, string>();
  const sha1 = (script: string) => {
    let sha = shas.get(script);
    if (sha === undefined) {
      sha = createHash('sha1').update(script).digest('hex');
      shas.set(script, sha);
    }
    return sha;
  };
  const send = (script: string, keys: string[], args: string[], loaded: boolean): Promise<unknown> => {
    if (node) {
      const redis = client as NodeRedisLike;
      const options = { keys, arguments: args };
      return loaded ? redis.evalSha(sha1(script), options) : redis.eval(script, options);
    }
    const redis = client as IoRedisLike;
    return loaded
      ? redis.evalsha(sha1(script), keys.length, ...keys, ...args)
      : redis.eval(script, keys.length, ...keys, ...args);
  };
  // Scripts sent whole once (EVAL loads them into Redis's cache), then by their SHA-1 alone.
  const sent = new Set<string>();
  return (script, keys, args) => {
    if (!sent.has(script)) {
      return bounded(
        send(script, keys, args, false).then((reply) => {
          sent.add(script);
          return reply;
        }),
        timeoutMs,
      );
    }
    return bounded(
      send(script, keys, args, true).catch((error: unknown) => {
        // A Redis restarted or flushed has forgotten the script: EVAL sends it, and loads it again.
        if (/NOSCRIPT/.test(String((error as Error)?.message))) return send(script, keys, args, false);
        throw error;
      }),
      timeoutMs,
    );
  };
}

/** The name of one API root and key's state: a hash of both, so Redis never holds the key, nor the URL. */
export function stateName(prefix: string, apiRoot: string, apiKey: string): string {
  const hash = createHash('sha256').update(`${apiRoot}\n${apiKey}`).digest('base64url').slice(0, 32);
  return `${prefix}:{${hash}}`;
}
