// Child process of the fleet trial (bench/fleet-shapes.ts), run by plain node against the built SDK (dist/). Plain
// JavaScript, as deployed code is: Node's type stripping would cost each process ~80 ms of CPU (a fifth of a client
// process's), which a CPU-bound shape (serverless, 3 processes spawned a second on 2 cores) counts against the store.
// `npm run bench:fleet -- --bundle` runs it bundled (bench/lib/bundle.ts), as a serverless function is deployed.
// Two roles, by its first argument:
//   server  a reference server on 127.0.0.1 allowing the key LIMIT requests a second, over IPC: sends `{ url }`,
//           and on 'report' sends `{ requests, pixels }` (each request's time, method and status; every pixel
//           name the server stored) and exits.
//   client  a ManagementClient with default options, plus `rateLimit: { store: redisStore(redis) }` when REDIS_URL
//           is set, that starts its CALLS pixels.create (unique names, PARALLEL at a time) as soon as it is built.
//           It writes one JSON line to stdout per event (synchronously, so a process that exits at once has said
//           everything): `ready`, `call` (each call's end, with the error's name if it failed), `snap` (the
//           client's `rateLimit` every SNAP_MS, when set), `fallback` / `rejoin` (the store's warn and info lines)
//           and `done` once the calls are over.
// Settings of a client: BASE_URL, API_KEY, CALLS, PARALLEL, NAME, REDIS_URL (optional), CLIENT (`redis`: node-redis,
// default; `ioredis`), CONNECT (`wait`: await the connection, the docs' start-up, default; `nowait`: hand the store
// a client still connecting), END (`close`: close Redis and let the process end, default; `exit`:
// `process.exit(0)` right after the last call, Redis left open), SNAP_MS, LOG_LEVEL (`warn`, default; `info`).
import { writeSync } from 'node:fs';

// The parent going away ends the child, whatever it was doing. The channel itself does not keep a child alive:
// a client ends when its work is over, or it lingers (the trial counts that).
process.on('disconnect', () => process.exit(0));
process.channel?.unref?.();

/**
 * A CommonJS package's exports as imported: named by Node's own loader, or only under `default` once bundled.
 * @template T
 * @param {T & { default?: T }} module
 * @returns {T}
 */
const cjs = (module) => module.default ?? module;

if (process.argv[2] === 'server') {
  const { createReferenceServer, listen } = await import('content-platform-sdk/testing');
  const key = process.env.API_KEY ?? 'mk_bench_fleet';
  const api = createReferenceServer({
    rateLimit: { limit: Number(process.env.LIMIT ?? '10'), windowMs: 1_000 },
    managementKeys: [key],
    seed: false,
  });
  // [time (epoch ms), method, status] of every answer, for the parent's idle gaps and counts.
  /** @type {[number, string, number][]} */
  const requests = [];
  const http = await listen(
    {
      fetch: async (request) => {
        const response = await api.fetch(request);
        requests.push([Date.now(), request.method, response.status]);
        return response;
      },
    },
    { port: 0, host: '127.0.0.1' },
  );
  process.send?.({ url: http.url });
  process.on('message', (m) => {
    if (m !== 'report') return;
    const pixels = api.store.pixels(key).map((p) => p.name);
    process.send?.({ requests, pixels }, () => {
      void http.close().then(() => process.exit(0));
    });
  });
} else {
  const env = process.env;
  /** @param {Record<string, unknown>} event */
  const line = (event) => {
    const text = `${JSON.stringify({ ...event, t: Date.now() })}\n`;
    // A pipe may be full for a moment (EAGAIN): the line is written whole or the child says so on stderr.
    for (let attempt = 0; attempt < 100; attempt += 1) {
      try {
        writeSync(1, text);
        return;
      } catch (error) {
        if (error?.code !== 'EAGAIN') throw error;
      }
    }
    process.stderr.write('fleet-shapes-child: stdout stayed full\n');
  };
  const { ManagementClient } = await import('content-platform-sdk');
  const calls = Number(env.CALLS ?? '25');
  const parallel = Number(env.PARALLEL ?? '3');
  const name = env.NAME ?? `p${process.pid}`;
  const exitAtOnce = env.END === 'exit';
  let close = async () => {};
  let rateLimit = {};
  if (env.REDIS_URL) {
    const { redisStore } = await import('content-platform-sdk/redis');
    const url = env.REDIS_URL;
    if (env.CLIENT === 'ioredis') {
      const { Redis } = cjs(await import('ioredis'));
      // Without `lazyConnect` ioredis connects on its own, and queues commands meanwhile.
      const nowait = env.CONNECT === 'nowait';
      const redis = new Redis(url, { lazyConnect: !nowait });
      redis.on('error', () => {});
      if (!nowait) await redis.connect();
      rateLimit = { rateLimit: { store: redisStore(redis) } };
      close = async () => {
        await redis.quit().catch(() => {});
      };
    } else {
      // Literal specifiers, so a bundler (`--bundle`) can follow them.
      const { createClient } = cjs(
        env.CLIENT === '@redis/client' ? await import('@redis/client') : await import('redis'),
      );
      const redis = createClient({ url }).on('error', () => {});
      const connecting = redis.connect();
      if (env.CONNECT === 'nowait') connecting.catch(() => {});
      else await connecting;
      rateLimit = { rateLimit: { store: redisStore(redis) } };
      close = async () => {
        await redis.close().catch(() => {});
      };
    }
  }
  // Log lines (a warn for each retry after a 429) are dropped; the store's own are told: a `warn` about the store
  // is a fall-back to the process's own throttle, an `info` about it a return to the fleet (LOG_LEVEL `info`, where
  // the trial counts those; the default level, `warn`, otherwise: an `info` level writes a line per attempt, work a
  // deployed process at the default level does not do).
  // Each is a line of its own, so a process killed later has still told them.
  const quiet = () => {};
  const logger = {
    warn: (message) => {
      if (/rate-limit store/i.test(message)) line({ k: 'fallback' });
    },
    info: (message) => {
      if (/rate-limit store/i.test(message)) line({ k: 'rejoin' });
    },
    error: quiet,
    debug: quiet,
  };
  const mgmt = new ManagementClient({
    baseUrl: env.BASE_URL,
    apiKey: env.API_KEY,
    logger,
    // The store says its return to the fleet at info.
    logLevel: env.LOG_LEVEL === 'info' ? 'info' : 'warn',
    ...rateLimit,
  });
  const snapshot = () => {
    const { store, queued, inFlight } = mgmt.rateLimit;
    return { store: store ?? null, queued, inFlight };
  };
  const snapMs = Number(env.SNAP_MS ?? '0');
  const snaps = snapMs > 0 ? setInterval(() => line({ k: 'snap', ...snapshot() }), snapMs) : undefined;
  line({ k: 'ready' });
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, calls) }, async () => {
      while (next < calls) {
        const i = next++;
        try {
          await mgmt.pixels.create({ name: `${name}-${i}`, type: 'facebook', value: String(1_000_000 + i) });
          line({ k: 'call' });
        } catch (error) {
          line({ k: 'call', e: error?.name ?? String(error) });
        }
      }
    }),
  );
  if (snaps) clearInterval(snaps);
  // The CPU the process has used (start-up and calls, in ms), for the trial's CPU column.
  const { user, system } = process.cpuUsage();
  line({ k: 'done', ...snapshot(), cpu: Math.round((user + system) / 1000) });
  // A worker that ends this way drops whatever its clients had not sent yet.
  if (exitAtOnce) process.exit(0);
  await close();
}
