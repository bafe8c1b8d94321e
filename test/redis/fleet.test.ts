// A fleet on one key (issue 26): four real Node processes, each a client with default options plus
// `rateLimit: { store: redisStore(redis) }`, against one reference server over 127.0.0.1 that allows the key 10
// requests a second. Without a shared store a quarter of such calls failed with RateLimitError after 3 attempts.
import { afterAll, describe, expect, it } from 'vitest';
import { createReferenceServer, listen, type ReferenceServer } from '../../src/testing/index.js';
import { occurring, startRedis, useRedis } from '../helpers/redis.js';
import { type ChildRun, describeRun, killAll, spawnChild, until } from './children.js';

const TOKEN = 'QX7FLEETKEYZK';
const MGMT_KEY = `mk_${TOKEN}_fleet`;
const CATALOG_KEY = `ck_${TOKEN}_fleet`;
const PROCESSES = 4;
const CALLS = 25;
// A child's calls are over in well under this, Redis or not (~10 s: the fleet's 100 calls at 10 a second; 12 s next to
// three busy processes on a 2-core machine); a hung call fails the test instead of stalling it. It counts from when
// the fleet starts its calls. The processes' start-up before that has a limit of its own: eight at once take up to
// 10 s on a busy machine, and counted in this limit they left the calls too little (children were killed at 40 s).
const CHILD_LIMIT_MS = 40_000;
// A test's timeout (120 s): its processes' start-up (START_LIMIT_MS, 60 s), their calls (40 s) and the checks after.
// Fleet-wide at 10 a second the 100 calls take ~10 s; about one 429 per second-long window is the budget's edge
// (measured here: 9–10 a run; issue 26 measured ~420 for 4 × 100 creates without a store).
const MOST_429S = 30;

// One Redis for the scenarios that keep it; the outage scenario stops one of its own. Each scenario has its own
// reference server (its own port, so its own API root): the scenarios share nothing and may run side by side.
const redis = useRedis();
afterAll(killAll);

interface FleetRun {
  api: ReferenceServer;
  runs: ChildRun[];
  wallMs: number;
}

/** Runs PROCESSES children of `mode` against a fresh reference server; `during` runs alongside them. */
async function fleet(
  options: { client: 'redis' | 'ioredis'; mode: 'create' | 'validate'; name: string; redisUrl?: string },
  during?: (api: ReferenceServer) => Promise<void>,
): Promise<FleetRun> {
  const api = createReferenceServer({
    rateLimit: { limit: 10, windowMs: 1_000 },
    managementKeys: [MGMT_KEY],
    catalogKeys: [CATALOG_KEY],
  });
  const server = await listen(api, { port: 0 });
  const codes = Object.entries(api.fixtures.purchaseCodes)
    .filter(([kind]) => kind !== 'invalid')
    .map(([, code]) => code);
  try {
    const children = Array.from({ length: PROCESSES }, (_, c) =>
      spawnChild(
        {
          MODE: options.mode,
          BASE_URL: server.url,
          API_KEY: options.mode === 'validate' ? CATALOG_KEY : MGMT_KEY,
          REDIS_URL: options.redisUrl ?? redis.url,
          REDIS_CLIENT: options.client,
          CALLS: String(CALLS),
          PARALLEL: '3',
          NAME: `${options.name}-${c}`,
          CODES: JSON.stringify(codes),
        },
        CHILD_LIMIT_MS,
        { gated: true },
      ),
    );
    // The fleet starts its calls together, however long each process took to start (one that died is reported below).
    await Promise.all(children.map((child) => child.ready));
    for (const child of children) child.go();
    const started = performance.now();
    await during?.(api);
    const runs = await Promise.all(children.map((child) => child.done));
    return { api, runs, wallMs: Math.round(performance.now() - started) };
  } finally {
    await server.close();
  }
}

/** The common promises of a fleet run: every call of every child succeeded, nothing hung, nothing leaked. */
function expectAllSucceeded({ runs }: FleetRun) {
  for (const run of runs) {
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.result, describeRun(run)).toMatchObject({ succeeded: CALLS, failed: 0, errors: {} });
    expect(
      run.lingered,
      `something kept the child alive after its Redis client closed\n${describeRun(run)}`,
    ).toBe(false);
    expect(occurring([Buffer.from(run.stdout + run.stderr)], [TOKEN])).toEqual([]);
  }
}

const statuses = (api: ReferenceServer, status: number) =>
  api.requests.filter((r) => r.status === status).length;

/** Pixel names stored by a run, sorted, against the names its children were asked to create (each once). */
function expectEachPixelOnce(api: ReferenceServer, name: string) {
  const stored = api.store
    .pixels(MGMT_KEY)
    .map((pixel) => pixel.name)
    .filter((pixel) => pixel.startsWith(`${name}-`))
    .sort();
  const asked = Array.from({ length: PROCESSES }, (_, c) =>
    Array.from({ length: CALLS }, (_, i) => `${name}-${c}-${i}`),
  )
    .flat()
    .sort();
  expect(stored).toEqual(asked);
}

// Two fleets at a time (8 processes): the pairs run one after the other, so a 2-core machine stays responsive.
const title = 'redisStore: a fleet of 4 processes on one key, the server allowing 10 requests a second';

/** 4 × CALLS creates through `client`: 0 failed, few 429s, each pixel stored once, every process on the fleet store. */
async function creates(client: 'redis' | 'ioredis') {
  const name = client === 'redis' ? 'nr' : 'io';
  const run = await fleet({ client, mode: 'create', name });
  expectAllSucceeded(run);
  for (const child of run.runs) expect(child.result?.store).toBe('shared');
  expectEachPixelOnce(run.api, name);
  const limited = statuses(run.api, 429);
  expect(limited, `${limited} answers of 429 in ${run.wallMs} ms`).toBeLessThanOrEqual(MOST_429S);
  expect(statuses(run.api, 201)).toBe(PROCESSES * CALLS);
}

describe.concurrent(`${title} (node-redis)`, () => {
  it(`4 × ${CALLS} creates share the budget through node-redis: 0 failed, few 429s, each pixel stored once`, async () => {
    await creates('redis');
  }, 120_000);

  it(`4 × ${CALLS} purchase validations with a shared store: 0 failed, few 429s`, async () => {
    const run = await fleet({ client: 'redis', mode: 'validate', name: 'va' });
    expectAllSucceeded(run);
    for (const child of run.runs) expect(child.result?.store).toBe('shared');
    expect(statuses(run.api, 200)).toBe(PROCESSES * CALLS);
    expect(statuses(run.api, 429)).toBeLessThanOrEqual(MOST_429S);
  }, 120_000);
});

// Not `describe.concurrent`: that would join the suite above; its two tests run at once, after the suite above.
describe(`${title} (ioredis; Redis going away)`, () => {
  it.concurrent(`4 × ${CALLS} creates share the budget through ioredis: 0 failed, few 429s, each pixel stored once`, async () => {
    await creates('ioredis');
  }, 120_000);

  it.concurrent('Redis stopped 1–2 s into the run: every call still succeeds, nothing hangs, one warn line a process', async () => {
    const own = await startRedis();
    let answeredAtStop = Number.NaN;
    try {
      const run = await fleet(
        { client: 'redis', mode: 'create', name: 'down', redisUrl: own.url },
        async (api) => {
          // Once the fleet is under way (a dozen creates answered, about a second in), Redis goes away for good.
          // (A busy machine runs the processes slowly: never stop Redis before they are under way.)
          await until(() => statuses(api, 201) >= 12, CHILD_LIMIT_MS);
          answeredAtStop = statuses(api, 201);
          await own.stop();
        },
      );
      // Most of the run happens without Redis.
      expect(answeredAtStop).toBeGreaterThanOrEqual(12);
      expect(answeredAtStop).toBeLessThan((PROCESSES * CALLS) / 2);
      expectAllSucceeded(run);
      expectEachPixelOnce(run.api, 'down');
      for (const child of run.runs) {
        // Redis is still down when the calls end: the process throttles alone, on its share.
        expect(child.result?.store, describeRun(child)).toBe('fallback');
        const warned = child.logs.filter((l) => l.level === 'warn' && /redis/i.test(l.message));
        expect(warned, `warn lines about Redis\n${describeRun(child)}`).toHaveLength(1);
      }
    } finally {
      await own.stop();
    }
  }, 120_000);
});
