// One process of a fleet on one key, spawned by fleet.test.ts and store.test.ts as a real `node` process: a client
// with default options plus `rateLimit: { store: redisStore(redis) }`, against a reference server on 127.0.0.1.
// Settings come from the environment:
//   MODE          'create' (pixels.create, unique names), 'validate' (purchases.validate), 'hang' (one pixels.list,
//                 which the parent makes hang at the server and then kills this process)
//   BASE_URL      the reference server's origin          API_KEY  the key the whole fleet shares
//   REDIS_URL     where the store is (a cluster: one of its nodes)
//   REDIS_CLIENT  'redis' (node-redis, default), 'ioredis', 'redis-cluster' (node-redis createCluster) or
//                 'ioredis-cluster' (ioredis Cluster)
//   START         'await' (default: the client is connected before the first call) or 'background' (the fleet
//                 guide's start-up that does not block: connect() not awaited, the offline queue off, so calls go
//                 through the fallback until Redis answers; Redis may well be down when the process starts)
//   CALLS         how many calls (default 25)            PARALLEL  how many at once (default 3)
//   NAME          pixel name prefix (unique per run)     CODES  purchase codes to validate, JSON array
//   TIMEOUT, MAX_CONCURRENT   the client's `timeout` and `rateLimit.maxConcurrent`, when set
//   CACHE         '1': validations go through a purchase cache on the same Redis store
//   EXIT          '1': print the result and `process.exit(0)` right after the last call, Redis left open (a cron job)
//   GATED         '1': once ready, wait for a line on stdin before the first call (the parent starts a fleet at once)
// Once its clients are made (and, with START=await, connected), it writes `{"ready":true}` to stderr: what came
// before is start-up, the machine's time; the parent's limit for the calls counts from there.
// Every log line of the client goes to stderr as one JSON object `{ level, message, fields }`. The result goes to
// stdout as one JSON line: `{ succeeded, failed, errors: { [name]: count }, store, ms, msAlone, redisErrors }` (`ms`:
// the calls' wall-clock time; `msAlone`: the same less this process's wait for a CPU, test/helpers/load.ts). Then the
// process exits on its own; if anything keeps it alive 3 s after the Redis client is closed, it prints
// `{ "lingering": true }` to stderr and exits anyway.
import { writeSync } from 'node:fs';
import { CatalogClient } from '../../src/catalog/index.js';
import type { Logger } from '../../src/core/transport/index.js';
import { ManagementClient } from '../../src/management/index.js';
import { redisStore } from '../../src/redis/index.js';
import { mark, since, wallSince } from '../helpers/load.js';

const env = process.env;
const mode = env.MODE ?? 'create';
const calls = Number(env.CALLS ?? '25');
const parallel = Number(env.PARALLEL ?? '3');
const which = env.REDIS_CLIENT ?? 'redis';
const url = required('REDIS_URL');

function required(name: string): string {
  const value = env[name];
  if (!value) throw new Error(`fleet-child: ${name} is not set`);
  return value;
}

const line = (level: string) => (message: string, fields?: unknown) => {
  process.stderr.write(`${JSON.stringify({ level, message, fields })}\n`);
};
const logger: Logger = { error: line('error'), warn: line('warn'), info: line('info'), debug: line('debug') };

// Redis errors (the server going away) are the client's to report, not to crash on: count them.
let redisErrors = 0;
const countError = () => {
  redisErrors += 1;
};
const background = env.START === 'background';
let closeRedis: () => Promise<void>;
// Each client goes to redisStore as it is: all four must fit its parameter's type (typecheck proves it).
let store: ReturnType<typeof redisStore>;
if (which === 'ioredis' || which === 'ioredis-cluster') {
  const { Redis, Cluster } = await import('ioredis');
  const { hostname, port } = new URL(url);
  // In the background: ioredis connects by itself; without an offline queue a command it cannot send now fails at
  // once (the store's fallback) instead of waiting for a connection.
  const options = background ? { enableOfflineQueue: false } : {};
  const client =
    which === 'ioredis'
      ? new Redis(url, options)
      : new Cluster([{ host: hostname, port: Number(port) }], options);
  client.on('error', countError);
  if (!background) {
    await new Promise<void>((resolve, reject) => {
      client.once('ready', () => resolve());
      client.once('end', () => reject(new Error('ioredis could not connect')));
    });
  }
  store = redisStore(client);
  closeRedis = async () => {
    await Promise.race([client.quit().catch(() => {}), sleep(1_000)]);
    client.disconnect();
  };
} else {
  const { createClient, createCluster } = await import('redis');
  const options = background ? { disableOfflineQueue: true } : {};
  const client =
    which === 'redis'
      ? createClient({ url, ...options })
      : createCluster({ rootNodes: [{ url }], defaults: options });
  client.on('error', countError);
  if (background) {
    // Not awaited: while Redis is down, connect() waits (node-redis reconnects); the store falls back meanwhile.
    client.connect().catch(countError);
  } else {
    await client.connect();
  }
  store = redisStore(client);
  closeRedis = async () => {
    await Promise.race([client.close().catch(() => {}), sleep(1_000)]);
    client.destroy();
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const rateLimit = {
  store,
  ...(env.MAX_CONCURRENT ? { maxConcurrent: Number(env.MAX_CONCURRENT) } : {}),
};
const timeout = env.TIMEOUT ? { timeout: Number(env.TIMEOUT) } : {};
const apiKey = required('API_KEY');
const baseUrl = required('BASE_URL');
// Only the client the mode uses exists: another one would be another member of the fleet.
const mgmt =
  mode === 'validate' ? undefined : new ManagementClient({ baseUrl, apiKey, logger, rateLimit, ...timeout });
// CACHE=1: purchase validations through a cache on the same Redis (an hour fresh), shared by every process.
const cache = env.CACHE === '1' ? { cache: { ttl: 3_600_000, store } } : {};
const catalog =
  mode === 'validate'
    ? new CatalogClient({ siteUrl: baseUrl, apiKey, logger, rateLimit, ...timeout, ...cache })
    : undefined;
const codes: string[] = JSON.parse(env.CODES ?? '[]');
const name = env.NAME ?? `p${process.pid}`;

process.stderr.write('{"ready":true}\n');
if (env.GATED === '1') {
  // The parent says go once every process of the fleet is ready.
  await new Promise<void>((resolve) => {
    process.stdin.once('data', () => resolve());
    process.stdin.once('end', () => resolve());
  });
  process.stdin.destroy();
}

if (mode === 'hang') {
  // The parent scripts a hang for this request and kills the process while it waits.
  await mgmt?.pixels.list();
  process.stdout.write(`${JSON.stringify({ unexpected: 'the hung call returned' })}\n`);
  process.exit(1);
}

const call = (i: number) =>
  catalog
    ? catalog.purchases.validate(codes[i % codes.length] as string)
    : (mgmt as ManagementClient).pixels.create({
        name: `${name}-${i}`,
        type: 'facebook',
        value: String(1_000_000 + i),
      });

const started = mark();
let next = 0;
let succeeded = 0;
let failed = 0;
const errors: Record<string, number> = {};
await Promise.all(
  Array.from({ length: Math.min(parallel, calls) }, async () => {
    while (next < calls) {
      const i = next++;
      try {
        await call(i);
        succeeded += 1;
      } catch (error) {
        failed += 1;
        const errorName = (error as Error)?.name ?? String(error);
        errors[errorName] = (errors[errorName] ?? 0) + 1;
      }
    }
  }),
);
const ms = Math.round(wallSince(started));
// The calls' time less this process's wait for a CPU meanwhile: what a bound on the SDK's time should read.
const msAlone = Math.round(since(started));
const snapshot = (catalog ?? (mgmt as ManagementClient)).rateLimit;
const result = { succeeded, failed, errors, store: snapshot.store ?? null, ms, msAlone, redisErrors };
if (env.EXIT === '1') {
  // Synchronously, so nothing else gets a turn of the event loop before the exit.
  writeSync(1, `${JSON.stringify(result)}\n`);
  process.exit(0);
}
await closeRedis();
process.stdout.write(`${JSON.stringify(result)}\n`);
setTimeout(() => {
  process.stderr.write(`${JSON.stringify({ lingering: true })}\n`);
  process.exit(0);
}, 3_000).unref();
