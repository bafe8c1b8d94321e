import { createHash } from 'node:crypto';
import { bounded } from '../catalog/cache-core.js';
import { kindOf } from '../core/errors/index.js';

/**
 * What the store needs of a node-redis client (`redis` ≥ 5: `createClient(…)`, or `createCluster(…)`; connected or
 * still connecting).
 */
export interface NodeRedisLike {
  /** `EVALSHA`: runs a script Redis has cached, by its SHA-1. */
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  /** `EVAL`: runs a script sent whole (and caches it). */
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** What the store needs of an ioredis client (`new Redis(url)`, or `new Cluster(nodes)`). */
export interface IoRedisLike {
  /** `EVALSHA`: runs a script Redis has cached, by its SHA-1. */
  evalsha(sha1: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  /** `EVAL`: runs a script sent whole (and caches it). */
  eval(script: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
}

/**
 * A Redis client: node-redis or ioredis, a single server's or a cluster's (structurally: only the script commands
 * are used; every script's keys share one hash tag, so each runs on one node of a cluster). It need not be
 * connected yet: until it is, the store's calls fall back.
 */
export type RedisClientLike = NodeRedisLike | IoRedisLike;

/**
 * What the runner reads of a client's connection, where the client has it: node-redis `isOpen` and `isReady` (a
 * cluster's too), ioredis `status`, and their events.
 */
interface Connection {
  readonly isOpen?: unknown;
  readonly isReady?: unknown;
  readonly status?: unknown;
  once?(event: string, listener: () => void): unknown;
  removeListener?(event: string, listener: () => void): unknown;
}

/** Whether `client` is making a connection right now: a command sent now would wait in its queue, or be refused. */
function connecting(client: Connection): boolean {
  // node-redis: open (connect() called, not closed) and not ready yet. (Not open: a command fails at once.)
  if (typeof client.isReady === 'boolean') return client.isOpen === true && !client.isReady;
  // ioredis: a socket on its way ('wait' is lazyConnect before its first command, which starts the connection;
  // 'reconnecting' is the pause between attempts).
  return client.status === 'connecting' || client.status === 'connect';
}

/**
 * Resolves when `client`'s connection attempt ends, ready or not (node-redis `ready`, a node-redis cluster's
 * `connect`, ioredis `ready`; or `error`, `end`), or after `ms`. One set of listeners, whatever the callers.
 */
function attemptEnds(client: Connection, ms: number): Promise<void> {
  const { once, removeListener } = client;
  if (typeof once !== 'function' || typeof removeListener !== 'function') return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    // Not a reason to keep the process alive: a caller waits within its own bound.
    timer.unref?.();
    const listeners = ['ready', 'connect', 'error', 'end'].map(
      (event) => [event, event === 'connect' ? check : done] as const,
    );
    function done() {
      clearTimeout(timer);
      for (const [event, listener] of listeners) removeListener?.call(client, event, listener);
      resolve();
    }
    // A single client's `connect` is its socket, before the handshake: it is ready at `ready`.
    function check() {
      if (!connecting(client)) done();
    }
    for (const [event, listener] of listeners) once.call(client, event, listener);
  });
}

/** Runs one of the store's scripts: `EVAL` the first time, then `EVALSHA` (`EVAL` again after a `NOSCRIPT`). */
export type RunScript = (script: string, keys: string[], args: string[]) => Promise<unknown>;

/**
 * The script runner for `client`, each call bounded by `timeoutMs`: a Redis that is down, or slow, rejects instead
 * of holding a call of the SDK (node-redis and ioredis queue commands while they reconnect). Whatever the client
 * does instead of answering (throws, rejects, never settles), a call rejects within `timeoutMs`: the store's
 * fallback. A client still making its first connection is waited for (within the bound), so a process that starts
 * without awaiting `connect()` joins the fleet from its first call when Redis is up.
 */
export function scriptRunner(client: RedisClientLike, timeoutMs: number): RunScript {
  const node = typeof (client as Partial<NodeRedisLike> | null)?.evalSha === 'function';
  const io = typeof (client as Partial<IoRedisLike> | null)?.evalsha === 'function';
  if (!node && !io) {
    throw new TypeError(
      `redisStore needs a node-redis (createClient, createCluster) or ioredis (Redis, Cluster) client: ${client !== null && typeof client === 'object' ? 'it has neither evalSha nor evalsha' : `got ${kindOf(client)}`}.`,
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
  const command = (script: string, keys: string[], args: string[], loaded: boolean): unknown => {
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
  // A client that throws instead of rejecting (or answers with no promise) is a rejection (or an answer) all the
  // same: never an error thrown through the store.
  const send = (script: string, keys: string[], args: string[], loaded: boolean): Promise<unknown> => {
    try {
      return Promise.resolve(command(script, keys, args, loaded));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  // Until the client has been ready once, or has ended its first attempt, a call waits for that attempt instead of
  // meeting a queue (node-redis and ioredis by default: a command that outlives its bound still runs, later) or a
  // refusal (the offline queue off, as the fleet guide advises): Redis is not down for the milliseconds a process
  // takes to connect. After that, the client's own settings decide.
  const connection = client as Connection;
  let firstAttempt: Promise<void> | undefined;
  let settled = false;
  const connected = (): Promise<void> | undefined => {
    if (settled) return undefined;
    if (firstAttempt === undefined && !connecting(connection)) {
      // Ready, or not connecting at all (never asked to, closed, between retries): from now on, as it is.
      settled = true;
      return undefined;
    }
    firstAttempt ??= attemptEnds(connection, timeoutMs).then(() => {
      settled = true;
    });
    return firstAttempt;
  };
  // Scripts sent whole once (EVAL loads them into Redis's cache), then by their SHA-1 alone.
  const sent = new Set<string>();
  const run = (script: string, keys: string[], args: string[]): Promise<unknown> => {
    if (!sent.has(script)) {
      return send(script, keys, args, false).then((reply) => {
        sent.add(script);
        return reply;
      });
    }
    return send(script, keys, args, true).catch((error: unknown) => {
      // A Redis restarted or flushed has forgotten the script: EVAL sends it, and loads it again.
      if (/NOSCRIPT/.test(String((error as Error)?.message))) return send(script, keys, args, false);
      throw error;
    });
  };
  return (script, keys, args) => {
    const waiting = connected();
    if (!waiting) return bounded(run(script, keys, args), timeoutMs);
    return bounded(
      waiting.then(() => {
        // Still connecting at the end of the wait: nothing is sent, to run after this call has given up on it.
        if (connecting(connection)) throw new Error('Redis is not connected yet');
        return run(script, keys, args);
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
