// What starting a Redis client costs a process in CPU, phase by phase (the fleet guide's "Short-lived processes"):
// importing the client, creating one, connecting it, against a redis-server this tool starts on 127.0.0.1. Each
// client runs in fresh processes, one at a time, so that nothing else competes for the CPU; prints the medians.
//
//   node bench/redis-client-start.mjs [processes per client, default 7]
//
// Plain JavaScript, as a deployed process would run: the child is this file with a client's name as its argument.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PHASES = ['import', 'create', 'connect', 'total'];

/** CPU time (user + system) this process has used, in ms. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

if (process.argv[2] === 'child') {
  const client = process.argv[3];
  const url = process.env.REDIS_URL;
  const t0 = cpuMs();
  let redis;
  let t1;
  let t2;
  if (client === 'ioredis') {
    const { Redis } = await import('ioredis');
    t1 = cpuMs();
    redis = new Redis(url, { lazyConnect: true });
    redis.on('error', () => {});
    t2 = cpuMs();
    await redis.connect();
  } else {
    const { createClient } = await import(client);
    t1 = cpuMs();
    redis = createClient({ url }).on('error', () => {});
    t2 = cpuMs();
    await redis.connect();
  }
  const t3 = cpuMs();
  await (client === 'ioredis' ? redis.quit() : redis.close());
  process.send?.({ import: t1 - t0, create: t2 - t1, connect: t3 - t2, total: t3 - t0 });
} else {
  const { redisServerBinary, startRedis } = await import('./scenarios/fleet.ts');
  const count = Number(process.argv[2] ?? '7');
  const binary = redisServerBinary();
  if (binary === undefined) throw new Error('redis-client-start: no redis-server on this machine');
  const redis = await startRedis(binary);
  const self = fileURLToPath(import.meta.url);
  const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
  try {
    console.log(`| Redis client | ${PHASES.map((p) => `${p} (CPU)`).join(' | ')} |`);
    console.log(`| --- | ${PHASES.map(() => '---:').join(' | ')} |`);
    for (const client of ['ioredis', '@redis/client', 'redis']) {
      const runs = [];
      for (let i = 0; i < count; i += 1) {
        runs.push(
          await new Promise((resolve, reject) => {
            const child = spawn(process.execPath, [self, 'child', client], {
              env: { ...process.env, REDIS_URL: `redis://127.0.0.1:${redis.port}` },
              stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
            });
            child.once('message', resolve);
            child.once('exit', (code) => reject(new Error(`${client}: the child exited (${code}) unheard`)));
          }),
        );
      }
      const cells = PHASES.map((phase) => `${Math.round(median(runs.map((r) => r[phase])))} ms`);
      console.log(`| ${client} | ${cells.join(' | ')} |`);
    }
  } finally {
    await redis.stop();
  }
}
