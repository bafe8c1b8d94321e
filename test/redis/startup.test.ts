// A start-up that does not wait for Redis (issue 33, item 10). With node-redis 6.3, `await createClient({ url })
// .connect()` never rejects on ECONNREFUSED (it reconnects, and the promise waits as long as Redis is down), so a
// process that awaits it at start-up blocks. The fleet guide's start-up instead hands redisStore a client that is
// still connecting (node-redis: connect() not awaited, `disableOfflineQueue: true`; ioredis: `enableOfflineQueue:
// false`): calls go through the fallback until Redis answers, then the process joins the fleet.
// Real processes (fleet-child.ts, START=background) against the reference server and a real redis-server on
// 127.0.0.1 that is down (nothing listens on its port) when they start.
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ManagementClient } from '../../src/management/index.js';
import { type RedisClientLike, redisStore } from '../../src/redis/index.js';
import { createReferenceServer, listen, type ReferenceServer } from '../../src/testing/index.js';
import { blockRunner, docBlock } from '../docs/readme-blocks.js';
import { mark, since } from '../helpers/load.js';
import { occurring, type RedisServer, startRedis } from '../helpers/redis.js';
import { type ChildRun, describeRun, killAll, spawnChild, until } from './children.js';

const TOKEN = 'QX7STARTUPKEYZK';
const MGMT_KEY = `mk_${TOKEN}_fleet`;
const CHILD_LIMIT_MS = 40_000;

afterAll(killAll);

/** Every client a test made, ended after it. */
const made: (() => void)[] = [];
afterEach(() => {
  for (const end of made.splice(0)) end();
});

const NEVER = 'node-redis, connect() never called';
/** The client set-ups a process may hand redisStore before Redis answers, as the issue lists them. */
const SETUPS: Record<string, (url: string) => RedisClientLike> = {
  [NEVER]: (url) => {
    const client = createClient({ url });
    made.push(() => client.destroy());
    return client;
  },
  'node-redis, connect() not awaited': (url) => nodeRedis(url, {}),
  'node-redis, connect() not awaited, disableOfflineQueue: true': (url) =>
    nodeRedis(url, { disableOfflineQueue: true }),
  'ioredis, lazyConnect: true': (url) => ioredis(url, { lazyConnect: true }),
  'ioredis, enableOfflineQueue: false': (url) => ioredis(url, { enableOfflineQueue: false }),
  'ioredis, defaults (connects by itself)': (url) => ioredis(url, {}),
};

function nodeRedis(url: string, options: { disableOfflineQueue?: boolean }): RedisClientLike {
  const client = createClient({ url, ...options });
  client.on('error', () => {});
  client.connect().catch(() => {});
  made.push(() => client.destroy());
  return client;
}

function ioredis(
  url: string,
  options: { lazyConnect?: boolean; enableOfflineQueue?: boolean },
): RedisClientLike {
  const client = new Redis(url, options);
  client.on('error', () => {});
  made.push(() => client.disconnect());
  return client;
}

/**
 * How one cache call through the store settled, and in how many milliseconds (less a loaded machine's wait for a CPU:
 * test/helpers/load.ts).
 */
async function settle(pending: unknown): Promise<{ outcome: string; ms: number }> {
  const started = mark();
  const outcome = await Promise.resolve(pending).then(
    () => 'answered',
    (error: unknown) => `rejected ${(error as Error)?.name}: ${(error as Error)?.message}`,
  );
  return { outcome, ms: Math.round(since(started)) };
}

describe('redisStore takes a client that is not connected (yet): a rejection is the fallback, never a hang', () => {
  const TIMEOUT_MS = 500;
  // A call settles within the store's bound, plus a loaded machine's slack.
  const BOUND_MS = TIMEOUT_MS + 400;

  for (const [setup, make] of Object.entries(SETUPS)) {
    it(`${setup}: Redis down, every call settles within timeoutMs; the calls go on through the fallback`, async () => {
      const redis = await downRedis();
      const store = redisStore(make(redis.url), { timeoutMs: TIMEOUT_MS });
      for (let i = 0; i < 3; i++) {
        const { outcome, ms } = await settle(store.get('entry'));
        expect(outcome).toMatch(/^rejected /);
        expect(ms, outcome).toBeLessThan(BOUND_MS);
      }
      const api = createReferenceServer({ managementKeys: [MGMT_KEY] });
      const server = await listen(api, { port: 0 });
      try {
        const mgmt = new ManagementClient({
          baseUrl: server.url,
          apiKey: MGMT_KEY,
          rateLimit: { store },
          logger: { error() {}, warn() {}, info() {}, debug() {} },
        });
        await mgmt.pixels.list();
        await mgmt.pixels.list();
        expect(mgmt.rateLimit.store).toBe('fallback');
      } finally {
        await server.close();
      }
    }, 20_000);

    it(`${setup}: Redis up, the first call right after the client is made answers (except where noted)`, async () => {
      const redis = await startRedis();
      try {
        const store = redisStore(make(redis.url), { timeoutMs: TIMEOUT_MS });
        const first = await settle(store.get('entry'));
        // connect() never called: node-redis refuses every command until it is (a ClientClosedError, named Error), at once.
        if (setup === NEVER) {
          expect(first.outcome).toBe('rejected Error: The client is closed');
          expect(first.ms).toBeLessThan(100);
        } else {
          expect(first.outcome).toBe('answered');
        }
      } finally {
        await redis.stop();
      }
    }, 20_000);
  }

  it('Redis started after the calls began: each set-up that connects answers within a few seconds of it', async () => {
    const redis = await downRedis();
    try {
      const stores = Object.entries(SETUPS).map(([setup, make]) => ({
        setup,
        store: redisStore(make(redis.url), { timeoutMs: TIMEOUT_MS }),
      }));
      for (const { store } of stores)
        expect((await settle(store.get('entry'))).outcome).toMatch(/^rejected /);
      await redis.start();
      const answered = await Promise.all(
        stores.map(async ({ setup, store }) => {
          // Not connected, and never will be: nothing to wait for.
          const deadline = setup === NEVER ? 0 : Date.now() + 10_000;
          let last = await settle(store.get('entry'));
          while (last.outcome !== 'answered' && Date.now() < deadline) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            last = await settle(store.get('entry'));
          }
          return `${setup}: ${last.outcome}`;
        }),
      );
      expect(answered).toEqual(
        Object.keys(SETUPS).map((setup) =>
          setup === NEVER ? `${setup}: rejected Error: The client is closed` : `${setup}: answered`,
        ),
      );
    } finally {
      await redis.stop();
    }
  }, 30_000);
});

/** A redis-server that is down: started once for a port of its own, then stopped (`start()` brings it back there). */
async function downRedis(): Promise<RedisServer> {
  const server = await startRedis();
  await server.stop();
  return server;
}

/** One child with the guide's start-up, its calls against a fresh reference server; `during` runs alongside. */
async function child(
  options: { client: 'redis' | 'ioredis'; redis: RedisServer; calls: number; name: string },
  during?: (api: ReferenceServer) => Promise<void>,
): Promise<{ run: ChildRun; api: ReferenceServer; wallMs: number }> {
  const api = createReferenceServer({
    rateLimit: { limit: 10, windowMs: 1_000 },
    managementKeys: [MGMT_KEY],
  });
  const server = await listen(api, { port: 0 });
  try {
    const spawned = spawnChild(
      {
        MODE: 'create',
        START: 'background',
        BASE_URL: server.url,
        API_KEY: MGMT_KEY,
        REDIS_URL: options.redis.url,
        REDIS_CLIENT: options.client,
        CALLS: String(options.calls),
        PARALLEL: '2',
        NAME: options.name,
      },
      CHILD_LIMIT_MS,
    );
    // From when the process is ready for its calls: its start-up (Node, tsx, the Redis client) is the machine's time.
    await spawned.ready;
    const started = performance.now();
    await during?.(api);
    const run = await spawned.done;
    return { run, api, wallMs: Math.round(performance.now() - started) };
  } finally {
    await server.close();
  }
}

function expectFinished(run: ChildRun, calls: number) {
  expect(run.code, describeRun(run)).toBe(0);
  expect(run.result, describeRun(run)).toMatchObject({ succeeded: calls, failed: 0, errors: {} });
  expect(
    run.lingered,
    `something kept the child alive after its Redis client closed\n${describeRun(run)}`,
  ).toBe(false);
  expect(occurring([Buffer.from(run.stdout + run.stderr)], [TOKEN])).toEqual([]);
}

for (const client of ['redis', 'ioredis'] as const) {
  describe(`the guide's start-up with ${client === 'redis' ? 'node-redis' : 'ioredis'}: a process does not wait for Redis`, () => {
    it('Redis down for the whole run: every call goes through the fallback, and the process ends promptly', async () => {
      const redis = await downRedis();
      const { run, wallMs } = await child({ client, redis, calls: 10, name: `down-${client}` });
      expectFinished(run, 10);
      expect(run.result?.store, describeRun(run)).toBe('fallback');
      // 10 creates one at a time, 500 ms apart (the fallback's pace before Redis has ever answered: 4.5 s), and nothing
      // waits for Redis. The calls' time less the process's wait for a CPU (helpers/load.ts): next to busy processes
      // their wall-clock time was 5.4-6.5 s, and 3.9-4.3 s less that wait.
      expect(run.result?.msAlone, describeRun(run)).toBeLessThan(5_000);
      // Its end as prompt: from when it was ready (its start-up is the machine's time) to its exit.
      expect(wallMs).toBeLessThan(15_000);
    }, 100_000);

    it("Redis started during the run: the process rejoins the fleet (rateLimit.store 'shared')", async () => {
      const redis = await downRedis();
      try {
        let createdBefore = 0;
        const { run, api } = await child({ client, redis, calls: 40, name: `up-${client}` }, async (api) => {
          // A few calls answered through the fallback, then Redis comes up on the port the client was given.
          await until(() => api.requests.filter((r) => r.status === 201).length >= 5, 20_000);
          createdBefore = api.requests.filter((r) => r.status === 201).length;
          await redis.start();
        });
        expectFinished(run, 40);
        expect(createdBefore, 'calls answered before Redis came up').toBeGreaterThanOrEqual(5);
        expect(createdBefore).toBeLessThan(40);
        expect(run.result?.store, describeRun(run)).toBe('shared');
        expect(api.store.pixels(MGMT_KEY).filter((p) => p.name.startsWith(`up-${client}-`))).toHaveLength(40);
      } finally {
        await redis.stop();
      }
    }, 120_000);

    it("Redis up at start: the first call is already the fleet's (no fallback while the client connects)", async () => {
      const redis = await startRedis();
      try {
        const { run } = await child({ client, redis, calls: 1, name: `first-${client}` });
        expectFinished(run, 1);
        expect(run.result?.store, describeRun(run)).toBe('shared');
        expect(
          run.logs.filter((l) => l.level === 'warn'),
          describeRun(run),
        ).toEqual([]);
      } finally {
        await redis.stop();
      }
    }, 100_000);
  });
}

// The fleet guide's ioredis start-up sample, run as printed (in this process, as the README's samples are).
const guideApi = createReferenceServer();
const guide = blockRunner(guideApi, 'startup-guide');
const sample = () => docBlock('Start-up that does not wait for Redis', 'docs/fleets.md');

describe("the fleet guide's ioredis start-up sample, run as printed", () => {
  const env = (redis: RedisServer) => ({
    CONTENT_PLATFORM_BASE_URL: guide.url(),
    CONTENT_PLATFORM_MANAGEMENT_API_KEY: guideApi.keys.management[0] as string,
    REDIS_URL: redis.url,
    // The fallback's warn line would reach the console (test/setup.ts fails a test for that).
    CONTENT_PLATFORM_LOG: 'off',
  });

  it("Redis down: says 'fallback' and closes its client without an error (quit() rejects with the queue off)", async () => {
    const redis = await downRedis();
    expect(await guide.run('startup-down', sample(), env(redis))).toEqual(['fallback']);
    expect(guideApi.requests.at(-1)?.url).toBe(`${guide.url()}/api/v1/pixels`);
  }, 30_000);

  it("Redis up: says 'shared'", async () => {
    const redis = await startRedis();
    try {
      expect(await guide.run('startup-up', sample(), env(redis))).toEqual(['shared']);
    } finally {
      await redis.stop();
    }
  }, 30_000);
});
