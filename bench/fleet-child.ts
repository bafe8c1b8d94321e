// Child process of the fleet section (bench/scenarios/fleet.ts), run by plain node against the built SDK (dist/).
// Two roles, by its first argument, both talking to the parent over IPC:
//   server  a reference server on 127.0.0.1 allowing the key LIMIT requests a second; sends `{ url }`, and on
//           'report' sends `{ statuses: { [status]: count } }` (from its request records) and exits.
//   client  a ManagementClient with default options, plus `rateLimit: { store: redisStore(redis) }` when REDIS_URL
//           is set; sends `{ ready: true }` once connected, runs CALLS pixels.create (unique names, PARALLEL at a
//           time) on 'go', then sends `{ succeeded, failed, errors, store, ms, outages }` and exits (outages: the
//           store's `warn` lines, each a fall-back to the process's own throttle).
// Settings of a client: BASE_URL, API_KEY, REDIS_URL (optional), CALLS, PARALLEL, NAME.
import { createReferenceServer, listen } from 'content-platform-sdk/testing';

const send = (message: unknown) =>
  new Promise<void>((resolve) =>
    (process.send as (m: unknown, h: undefined, o: object, cb: () => void) => boolean)(
      message,
      undefined,
      {},
      () => resolve(),
    ),
  );
const once = (word: string) =>
  new Promise<void>((resolve) => {
    process.on('message', (m) => {
      if (m === word) resolve();
    });
  });
// The parent going away ends the child, whatever it was doing.
process.on('disconnect', () => process.exit(0));

if (process.argv[2] === 'server') {
  const api = createReferenceServer({
    rateLimit: { limit: Number(process.env.LIMIT ?? '10'), windowMs: 1_000 },
    managementKeys: [process.env.API_KEY ?? 'mk_bench_fleet'],
    seed: false,
  });
  const http = await listen(api, { port: 0 });
  await send({ url: http.url });
  await once('report');
  const statuses: Record<string, number> = {};
  for (const { status } of api.requests) statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
  await send({ statuses });
  await http.close();
  process.exit(0);
} else {
  const { ManagementClient } = await import('content-platform-sdk');
  const env = process.env;
  const calls = Number(env.CALLS ?? '25');
  const parallel = Number(env.PARALLEL ?? '3');
  const name = env.NAME ?? `p${process.pid}`;
  let close = async () => {};
  let rateLimit = {};
  if (env.REDIS_URL) {
    const { createClient } = await import('redis');
    const { redisStore } = await import('content-platform-sdk/redis');
    const redis = await createClient({ url: env.REDIS_URL })
      .on('error', () => {})
      .connect();
    rateLimit = { rateLimit: { store: redisStore(redis) } };
    close = async () => {
      await redis.close().catch(() => {});
    };
  }
  // Log lines (a warn for each retry after a 429) are dropped; the store's falls-back to its own throttle counted.
  let outages = 0;
  const quiet = () => {};
  const logger = {
    warn: (message: string) => {
      if (/rate-limit store/.test(message)) outages += 1;
    },
    error: quiet,
    info: quiet,
    debug: quiet,
  };
  const mgmt = new ManagementClient({
    baseUrl: env.BASE_URL as string,
    apiKey: env.API_KEY as string,
    logger,
    ...rateLimit,
  });
  const go = once('go');
  await send({ ready: true });
  await go;
  const started = performance.now();
  let next = 0;
  let succeeded = 0;
  let failed = 0;
  const errors: Record<string, number> = {};
  await Promise.all(
    Array.from({ length: Math.min(parallel, calls) }, async () => {
      while (next < calls) {
        const i = next++;
        try {
          await mgmt.pixels.create({ name: `${name}-${i}`, type: 'facebook', value: String(1_000_000 + i) });
          succeeded += 1;
        } catch (error) {
          failed += 1;
          const kind = (error as Error)?.name ?? String(error);
          errors[kind] = (errors[kind] ?? 0) + 1;
        }
      }
    }),
  );
  const ms = performance.now() - started;
  // Read before the Redis client closes (a release still on its way would fail then, harmlessly).
  const result = { succeeded, failed, errors, store: mgmt.rateLimit.store ?? null, ms, outages };
  await close();
  await send(result);
  process.disconnect();
}
