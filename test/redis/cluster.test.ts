// redisStore on a Redis Cluster (issue 33): three masters on 127.0.0.1 made by redis-cli, reached through node-redis
// `createCluster` and ioredis `Cluster`. Every script's keys share one hash tag (`{<hash>}`), so each runs on the one
// master that owns the key's slot; the cache's single key routes the same way. Four real processes on one key share
// the server's budget through the cluster as they do through one redis-server (fleet.test.ts).
import { Cluster } from 'ioredis';
import { createCluster } from 'redis';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { ManagementClient } from '../../src/management/index.js';
import { type RedisClientLike, redisStore } from '../../src/redis/index.js';
import { createReferenceServer, listen } from '../../src/testing/index.js';
import { blockRunner, docBlock } from '../docs/readme-blocks.js';
import { occurring, type RedisCluster, startCluster } from '../helpers/redis.js';
import { describeRun, killAll, spawnChild } from './children.js';

const TOKEN = 'QX7CLUSTERKEYZK';
const MGMT_KEY = `mk_${TOKEN}_fleet`;
const PROCESSES = 4;
const CALLS = 25;
// From when the fleet starts its calls (as fleet.test.ts: the processes' start-up has a limit of its own).
const CHILD_LIMIT_MS = 40_000;
// As fleet.test.ts: about one 429 per second-long window is the budget's edge.
const MOST_429S = 30;

// The fleet guide's cluster sample, run verbatim against the cluster (the sample runner runs it on one Redis).
const guideApi = createReferenceServer();
const guide = blockRunner(guideApi, 'cluster-guide');

let cluster: RedisCluster;
beforeAll(async () => {
  cluster = await startCluster();
}, 40_000);
afterAll(async () => {
  killAll();
  await cluster?.stop();
});

describe('the cluster clients fit redisStore', () => {
  it('node-redis createCluster and ioredis Cluster are RedisClientLike, as they are (typecheck)', () => {
    type NodeRedisCluster = ReturnType<typeof createCluster>;
    expectTypeOf<NodeRedisCluster>().toExtend<RedisClientLike>();
    expectTypeOf<Cluster>().toExtend<RedisClientLike>();
    expectTypeOf<NodeRedisCluster>().toExtend<Parameters<typeof redisStore>[0]>();
    expectTypeOf<Cluster>().toExtend<Parameters<typeof redisStore>[0]>();
  });
});

/** Two cluster clients, one of each library, connected to the test's cluster; both closed after `use`. */
async function withClients(use: (client: RedisClientLike, name: string) => Promise<void>) {
  const [first] = cluster.nodes;
  const io = new Cluster([first as { host: string; port: number }]);
  const node = createCluster({ rootNodes: [{ url: cluster.urls[0] as string }] });
  // Listening from the start: ioredis connects by itself, and may be ready before node-redis is.
  const ioReady = new Promise<void>((resolve, reject) => {
    io.once('ready', () => resolve());
    io.once('error', reject);
  });
  try {
    await Promise.all([node.connect(), ioReady]);
    await use(node, 'node-redis createCluster');
    await use(io, 'ioredis Cluster');
  } finally {
    node.destroy();
    io.disconnect();
  }
}

describe('redisStore on a Redis Cluster of 3 masters', () => {
  it('the cache store sets, gets and deletes an entry through either cluster client', async () => {
    await withClients(async (client, name) => {
      const store = redisStore(client);
      const key = `entry-${name.replace(/\W+/g, '-')}`;
      expect(await store.get(key), name).toBeUndefined();
      await store.set(key, { purchase: { item: 42 }, at: 1 }, 60_000);
      expect(await store.get(key), name).toEqual({ purchase: { item: 42 }, at: 1 });
      await store.delete(key);
      expect(await store.get(key), name).toBeUndefined();
    });
  });

  it("a client's turns go through the cluster: rateLimit.store is 'shared' with either client", async () => {
    const api = createReferenceServer({ managementKeys: [MGMT_KEY] });
    const server = await listen(api, { port: 0 });
    try {
      await withClients(async (client, name) => {
        const mgmt = new ManagementClient({
          baseUrl: server.url,
          apiKey: MGMT_KEY,
          rateLimit: { store: redisStore(client) },
        });
        await mgmt.pixels.list();
        expect(mgmt.rateLimit.store, name).toBe('shared');
      });
    } finally {
      await server.close();
    }
  });

  for (const client of ['redis-cluster', 'ioredis-cluster'] as const) {
    it(`${PROCESSES} processes × ${CALLS} creates on one key through ${client}: 0 failed, each pixel stored once, few 429s`, async () => {
      const api = createReferenceServer({
        rateLimit: { limit: 10, windowMs: 1_000 },
        managementKeys: [MGMT_KEY],
      });
      const server = await listen(api, { port: 0 });
      try {
        const children = Array.from({ length: PROCESSES }, (_, c) =>
          spawnChild(
            {
              MODE: 'create',
              BASE_URL: server.url,
              API_KEY: MGMT_KEY,
              // One node: the clients find the others (and the slots) from it.
              REDIS_URL: cluster.urls[c % cluster.urls.length] as string,
              REDIS_CLIENT: client,
              CALLS: String(CALLS),
              PARALLEL: '3',
              NAME: `${client}-${c}`,
            },
            CHILD_LIMIT_MS,
            { gated: true },
          ),
        );
        // The fleet starts its calls together, however long each process took to start.
        await Promise.all(children.map((child) => child.ready));
        for (const child of children) child.go();
        const runs = await Promise.all(children.map((child) => child.done));
        for (const run of runs) {
          expect(run.code, describeRun(run)).toBe(0);
          expect(run.result, describeRun(run)).toMatchObject({ succeeded: CALLS, failed: 0, errors: {} });
          expect(run.result?.store, describeRun(run)).toBe('shared');
          expect(run.lingered, describeRun(run)).toBe(false);
          expect(occurring([Buffer.from(run.stdout + run.stderr)], [TOKEN])).toEqual([]);
        }
        const stored = api.store
          .pixels(MGMT_KEY)
          .map((pixel) => pixel.name)
          .filter((pixel) => pixel.startsWith(`${client}-`))
          .sort();
        const asked = Array.from({ length: PROCESSES }, (_, c) =>
          Array.from({ length: CALLS }, (_, i) => `${client}-${c}-${i}`),
        )
          .flat()
          .sort();
        expect(stored).toEqual(asked);
        const limited = api.requests.filter((r) => r.status === 429).length;
        expect(limited).toBeLessThanOrEqual(MOST_429S);
      } finally {
        await server.close();
      }
    }, 120_000);
  }

  it("the fleet guide's Redis Cluster sample, run as printed with REDIS_CLUSTER_URLS naming two of the nodes", async () => {
    const printed = await guide.run('cluster', docBlock('Redis Cluster', 'docs/fleets.md'), {
      CONTENT_PLATFORM_BASE_URL: guide.url(),
      CONTENT_PLATFORM_MANAGEMENT_API_KEY: guideApi.keys.management[0] as string,
      REDIS_CLUSTER_URLS: cluster.urls.slice(0, 2).join(','),
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    expect(printed).toEqual(['shared']);
  });
});
