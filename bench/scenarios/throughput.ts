// Section 2: requests per second with 64 calls in flight, the four variants in 1 s rounds, order rotating, and the
// SDK once more with `maxConcurrent: 64`: its throttle keeps 16 requests in flight by default, the others 64.
import { type Call, check, operations } from '../lib/calls.ts';
import type { Context, Section } from '../lib/env.ts';
import { fx, median, pairedRatio, us } from '../lib/stats.ts';

export interface ThroughputFigures {
  /** SDK / bare ky req/s, median of the per-round ratios. */
  sdkKy: number;
  sdkFetch: number;
  kyFetch: number;
  /** The SDK with `maxConcurrent: 64` (as many requests in flight as bare ky) / bare ky. */
  wideKy: number;
}

interface Run {
  rps: number;
  cpuPerRequest: number;
  busy: number;
}

const CONCURRENCY = 64;
const CALLS = ['pixels.get', 'pixels.list (100)'];

/** Requests per second with `concurrency` calls in flight for `ms`, and this process's CPU µs per request. */
async function saturate(call: Call, concurrency: number, ms: number): Promise<Run> {
  let done = 0;
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const end = started + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await call();
        done += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    rps: done / seconds,
    cpuPerRequest: (cpu.user + cpu.system) / done,
    busy: (cpu.user + cpu.system) / 1e6 / seconds,
  };
}

export async function throughput({
  info,
  quick,
}: Context): Promise<Section<Record<string, ThroughputFigures>>> {
  const lines = [
    `## 2. Throughput at concurrency ${CONCURRENCY} (1 s rounds, order rotating, medians)`,
    '',
    "Client CPU = this process's CPU time per request; busy = share of one core this process used. The SDK's",
    `throttle keeps at most 16 requests in flight by default (\`rateLimit.maxConcurrent\`), the others all ${CONCURRENCY};`,
    `"SDK, ${CONCURRENCY} in flight" is the SDK with \`maxConcurrent: ${CONCURRENCY}\`, in the same rounds.`,
    '',
    `| call | SDK req/s | bare ky req/s | raw fetch req/s | openai req/s | SDK, ${CONCURRENCY} in flight, req/s | SDK / ky (paired) | SDK, ${CONCURRENCY} in flight / ky (paired) | SDK / fetch (paired) | ky / fetch (paired) | client CPU per request SDK · ky · fetch · openai · SDK, ${CONCURRENCY} in flight | busy SDK · ky · fetch · openai · SDK, ${CONCURRENCY} in flight |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const figures: Record<string, ThroughputFigures> = {};
  const rounds = quick ? 2 : 6;
  const endpoint = {
    base: info.small,
    managementKey: info.managementKey,
    catalogKey: info.catalogKey,
    purchaseCode: info.purchaseCode,
  };
  const ops = operations(endpoint).filter((op) => CALLS.includes(op.name));
  const wide = operations({ ...endpoint, maxConcurrent: CONCURRENCY });
  for (const op of ops) {
    await check(op);
    // The four variants, then the SDK with as many requests in flight as the others.
    const calls = [...op.calls, wide.find((o) => o.name === op.name)?.calls[0] as Call];
    for (const call of calls) await saturate(call, CONCURRENCY, 500);
    const runs = calls.map(() => [] as Run[]);
    for (let round = 0; round < rounds; round += 1) {
      for (let k = 0; k < calls.length; k += 1) {
        const i = (round + k) % calls.length;
        runs[i]?.push(await saturate(calls[i] as Call, CONCURRENCY, 1000));
      }
    }
    const [s, k, f, , w] = runs as [Run[], Run[], Run[], Run[], Run[]];
    const rps = (r: Run[]) => r.map((x) => x.rps);
    const fig: ThroughputFigures = {
      sdkKy: pairedRatio(rps(s), rps(k)),
      sdkFetch: pairedRatio(rps(s), rps(f)),
      kyFetch: pairedRatio(rps(k), rps(f)),
      wideKy: pairedRatio(rps(w), rps(k)),
    };
    figures[op.name] = fig;
    const perSecond = runs.map((r) => fx(median(rps(r)), 0)).join(' | ');
    const cpu = runs.map((r) => us(median(r.map((x) => x.cpuPerRequest)) / 1000)).join(' · ');
    const busy = runs.map((r) => `${fx(median(r.map((x) => x.busy)) * 100, 0)}%`).join(' · ');
    lines.push(
      `| ${op.name} | ${perSecond} | ${fx(fig.sdkKy)}× | ${fx(fig.wideKy)}× | ${fx(fig.sdkFetch)}× | ${fx(fig.kyFetch)}× | ${cpu} | ${busy} |`,
    );
  }
  lines.push('');
  return { figures, lines };
}
