// A short-lived function as the fleet guide says to deploy one ("Short-lived processes"): bundled by esbuild into
// one ESM file with the SDK, its `/redis` store and the Redis client, then run from a folder with no node_modules.
// Each of node-redis's client (`@redis/client`) and ioredis, against the redis-server at REDIS_URL, backs a
// ManagementClient's store: calls to the reference server go through the fleet's turns ('shared'), and the store
// keeps its state in Redis under its prefix.
import { createClient } from '@redis/client';
import { ManagementClient } from 'content-platform-sdk';
import { redisStore } from 'content-platform-sdk/redis';
import { createReferenceServer, listen } from 'content-platform-sdk/testing';
import { Redis } from 'ioredis';

const KEY = 'mk_bundled_consumer_key';
const url = process.env.REDIS_URL;
if (!url) throw new Error('bundled: REDIS_URL is not set');
const check = (ok, what) => {
  if (!ok) throw new Error(`bundled: ${what}`);
};

const clients = [
  {
    name: '@redis/client',
    open: async () => {
      const redis = createClient({ url }).on('error', () => {});
      await redis.connect();
      return { redis, keys: () => redis.keys('content-platform-sdk*'), close: () => redis.close() };
    },
  },
  {
    name: 'ioredis',
    open: async () => {
      const redis = new Redis(url, { lazyConnect: true });
      redis.on('error', () => {});
      await redis.connect();
      return { redis, keys: () => redis.keys('content-platform-sdk*'), close: () => redis.quit() };
    },
  },
];

const api = createReferenceServer({ managementKeys: [KEY], seed: false });
const server = await listen(api, { port: 0, host: '127.0.0.1' });
try {
  for (const { name, open } of clients) {
    const { redis, keys, close } = await open();
    try {
      const mgmt = new ManagementClient({
        baseUrl: server.url,
        apiKey: KEY,
        rateLimit: { store: redisStore(redis) },
      });
      const pixel = await mgmt.pixels.create({ name: `Bundled ${name}`, type: 'facebook', value: '123' });
      check(Number.isInteger(pixel.id) && pixel.name === `Bundled ${name}`, `${name}: pixels.create`);
      const again = await mgmt.pixels.get(pixel.id);
      check(again.id === pixel.id, `${name}: pixels.get`);
      check(mgmt.rateLimit.store === 'shared', `${name}: the store is ${mgmt.rateLimit.store}, not 'shared'`);
      const stored = await keys();
      check(stored.length > 0, `${name}: the store wrote nothing under its prefix`);
      check(!stored.some((k) => k.includes(KEY)), `${name}: a Redis key names the API key`);
    } finally {
      await close();
    }
  }
} finally {
  await server.close();
}
check(api.store.pixels(KEY).length === clients.length, 'the server did not store one pixel per client');
console.log(
  `ok: bundled by esbuild into one file, the store shared on ${clients.map((c) => c.name).join(' and ')}`,
);
