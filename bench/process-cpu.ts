// What a short-lived process costs in CPU, by its Redis client (the fleet guide's "Short-lived processes"): each
// process is the fleet trial's child (bench/fleet-shapes-child.mjs: start, build a ManagementClient, 3 creates, exit)
// against a reference server in a child process with no rate limit that matters (1 000 a second) and a redis-server
// this tool starts on 127.0.0.1, run one at a time so that nothing else competes for the CPU. Prints the medians of
// user and system CPU time (bash's `time`) and wall time for each client, in two interleaved rounds, for the child
// as it is (node_modules loaded file by file) and bundled as a serverless function is deployed (bench/lib/bundle.ts).
//
//   node bench/process-cpu.ts [processes per client and round, default 6]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleChild } from './lib/bundle.ts';
import { median } from './lib/stats.ts';
import { redisServerBinary, startRedis } from './scenarios/fleet.ts';

const CHILD = fileURLToPath(new URL('fleet-shapes-child.mjs', import.meta.url));
const KEY = 'mk_bench_process_cpu_key';
const CLIENTS = ['none', 'ioredis', '@redis/client', 'redis'] as const;
const count = Number(process.argv[2] ?? '6');
const bundled = await bundleChild(CHILD);
// Node's on-disk compile cache (NODE_COMPILE_CACHE, Node 22.1+): a process reuses the code V8 compiled for each
// module in an earlier process. Each form with it gets its own directory, warmed by one uncounted process a client.
const cacheRoot = mkdtempSync(join(tmpdir(), 'process-cpu-'));
const FORMS = [
  ['as is', CHILD, false],
  ['as is, compile cache', CHILD, true],
  ['bundled', bundled.file, false],
  ['bundled, compile cache', bundled.file, true],
] as const;

const binary = redisServerBinary();
if (binary === undefined) throw new Error('process-cpu: no redis-server on this machine');
const redis = await startRedis(binary);
const server = spawn(process.execPath, [CHILD, 'server'], {
  env: { ...process.env, API_KEY: KEY, LIMIT: '1000' },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
try {
  const url = await new Promise<string>((resolve) =>
    server.once('message', (m) => resolve((m as { url: string }).url)),
  );
  console.log(`| round | the process's Redis client | the process | user CPU | system CPU | CPU | wall |`);
  console.log('| ---: | --- | --- | ---: | ---: | ---: | ---: |');
  for (const round of [1, 2]) {
    for (const [form, file, cache] of FORMS) {
      for (const client of CLIENTS) {
        const times: number[][] = [];
        for (let i = cache ? -1 : 0; i < count; i += 1) {
          const env: NodeJS.ProcessEnv = {
            ...process.env,
            BASE_URL: url,
            API_KEY: KEY,
            CALLS: '3',
            PARALLEL: '3',
            NAME: `cpu-${client}-${round}-${i}-${Date.now()}`,
            TIMEFORMAT: '%U %S %R',
            ...(client === 'none' ? {} : { REDIS_URL: `redis://127.0.0.1:${redis.port}`, CLIENT: client }),
            ...(cache ? { NODE_COMPILE_CACHE: join(cacheRoot, form) } : {}),
          };
          const run = spawnSync('bash', ['-c', 'time "$0" "$1" client > /dev/null', process.execPath, file], {
            env,
            encoding: 'utf8',
          });
          if (run.status !== 0) throw new Error(`process-cpu: a ${client} process failed: ${run.stderr}`);
          if (i >= 0) times.push((run.stderr.trim().split('\n').pop() ?? '').split(' ').map(Number));
        }
        const at = (k: number) => median(times.map((t) => t[k] as number));
        const s = (n: number) => `${n.toFixed(2)} s`;
        console.log(
          `| ${round} | ${client} | ${form} | ${s(at(0))} | ${s(at(1))} | ${s(at(0) + at(1))} | ${s(at(2))} |`,
        );
      }
    }
  }
} finally {
  server.kill();
  await redis.stop();
  bundled.remove();
  rmSync(cacheRoot, { recursive: true, force: true });
}
