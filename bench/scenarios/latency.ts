// Section 1: per-call latency over the socket, the four variants interleaved in a rotating order.
import { type Call, check, operations } from '../lib/calls.ts';
import type { Context, Section } from '../lib/env.ts';
import { fx, median, pairedRatio, us } from '../lib/stats.ts';

export interface LatencyFigures {
  /** SDK / bare ky, ratio of the medians. */
  sdkKy: number;
  /** SDK / bare ky, median of the per-round ratios. */
  pairedSdkKy: number;
  kyFetch: number;
  /** SDK / openai-node, ratio of the medians. */
  sdkOpenai: number;
}

export interface Samples {
  wall: number[];
  cpu: number[];
}

/** Rounds per call on a full run (a fifth of them with --quick, at least 100). */
const ROUNDS: Record<string, number> = {
  'pixels.get': 3000,
  'pixels.list (100)': 1500,
  'items.list (59)': 1500,
  'purchases.validate': 3000,
};

/**
 * Calls each variant once per round, in an order that rotates every round, so drift on a noisy machine hits
 * every variant alike. Records wall time and this process's CPU time (user + system) of every call.
 */
export async function interleaved(
  calls: readonly Call[],
  rounds: number,
  warmup: number,
): Promise<Samples[]> {
  const results = calls.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
  for (let round = -warmup; round < rounds; round += 1) {
    for (let k = 0; k < calls.length; k += 1) {
      const i = (((round + k) % calls.length) + calls.length) % calls.length;
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await (calls[i] as Call)();
      const wall = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      if (round >= 0) {
        (results[i] as Samples).wall.push(wall);
        (results[i] as Samples).cpu.push((cpu.user + cpu.system) / 1000);
      }
    }
  }
  return results;
}

export async function latency({ info, quick }: Context): Promise<Section<Record<string, LatencyFigures>>> {
  const lines = [
    '## 1. Per-call latency (interleaved, rotating order, medians)',
    '',
    "Wall = full round trip (server included); client CPU = this process's CPU time for the call.",
    '',
    '| call | SDK | bare ky | raw fetch | openai | SDK / ky | SDK / ky (paired) | ky / fetch | SDK / openai | client CPU SDK · ky · fetch · openai |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const figures: Record<string, LatencyFigures> = {};
  const ops = operations({
    base: info.small,
    managementKey: info.managementKey,
    catalogKey: info.catalogKey,
    purchaseCode: info.purchaseCode,
  });
  for (const op of ops) {
    await check(op);
    const rounds = Math.max(100, Math.round((ROUNDS[op.name] ?? 1500) * (quick ? 0.2 : 1)));
    const [sdk, ky, raw, oai] = (await interleaved(op.calls, rounds, Math.round(rounds / 10))) as [
      Samples,
      Samples,
      Samples,
      Samples,
    ];
    const m = (r: Samples) => median(r.wall);
    const f: LatencyFigures = {
      sdkKy: m(sdk) / m(ky),
      pairedSdkKy: pairedRatio(sdk.wall, ky.wall),
      kyFetch: m(ky) / m(raw),
      sdkOpenai: m(sdk) / m(oai),
    };
    figures[op.name] = f;
    const cpu = [sdk, ky, raw, oai].map((r) => us(median(r.cpu))).join(' · ');
    lines.push(
      `| ${op.name} | ${us(m(sdk))} | ${us(m(ky))} | ${us(m(raw))} | ${us(m(oai))} | ${fx(f.sdkKy)}× | ` +
        `${fx(f.pairedSdkKy)}× | ${fx(f.kyFetch)}× | ${fx(f.sdkOpenai)}× | ${cpu} |`,
    );
  }
  lines.push('');
  return { figures, lines };
}
