// The targets, each with this run's figure and whether it is met.
import type { FleetFigures } from '../scenarios/fleet.ts';
import type { LatencyFigures } from '../scenarios/latency.ts';
import type { SizeFigures } from '../scenarios/size.ts';
import type { ThroughputFigures } from '../scenarios/throughput.ts';
import type { WalkFigures } from '../scenarios/walk.ts';
import { fx } from './stats.ts';

export interface Figures {
  latency: Record<string, LatencyFigures>;
  throughput: Record<string, ThroughputFigures>;
  walk: { sdk: WalkFigures };
  walkTotal: number;
  size: SizeFigures;
  /** Absent when redis-server is not installed. */
  fleet?: FleetFigures | undefined;
}

/** SDK / bare ky latency (ratio of the medians) at most this, by call. */
const LATENCY_VS_KY: Record<string, number> = {
  'pixels.get': 1.05,
  'pixels.list (100)': 1.08,
  'items.list (59)': 1.08,
  'purchases.validate': 1.08,
};
const THROUGHPUT_VS_KY = 0.95;
const HEAP_MB = 20;
const FLEET_VS_ONE = 1.2;

export function targets(f: Figures): string[] {
  const rows: [string, string, boolean][] = [];
  for (const [name, max] of Object.entries(LATENCY_VS_KY)) {
    const r = f.latency[name]?.sdkKy ?? Number.NaN;
    rows.push([`SDK / bare ky, ${name}`, `${fx(r)}× (≤ ${fx(max)}×)`, r <= max]);
  }
  for (const [name, t] of Object.entries(f.throughput)) {
    rows.push([
      `throughput c=64 SDK / bare ky, ${name}`,
      // Judged at the SDK's default of 16 in flight; the figure with as many in flight as bare ky is told beside it.
      `${fx(t.sdkKy)}× (≥ ${fx(THROUGHPUT_VS_KY)}×; ${fx(t.wideKy)}× with maxConcurrent 64)`,
      t.sdkKy >= THROUGHPUT_VS_KY,
    ]);
  }
  for (const [name, l] of Object.entries(f.latency)) {
    rows.push([`SDK / openai, ${name}`, `${fx(l.sdkOpenai)}× (< 1×)`, l.sdkOpenai < 1]);
  }
  const w = f.walk.sdk;
  rows.push(
    [
      `heap growth over ${f.walkTotal.toLocaleString('en')} pixels`,
      `${fx(w.retainedGrowthMb, 1)} MB retained, ${fx(w.peakGrowthMb, 1)} MB peak (< ${HEAP_MB} MB)`,
      w.retainedGrowthMb < HEAP_MB && w.peakGrowthMb < HEAP_MB,
    ],
    [
      'ESM entry + ky + zod, brotli, as loaded at import (size-limit)',
      f.size.atImport
        ? `${(f.size.atImport.size / 1000).toFixed(2)} kB (≤ ${(f.size.atImport.limit / 1000).toFixed(2)} kB)`
        : 'no figure',
      f.size.atImport !== undefined && f.size.atImport.size <= f.size.atImport.limit,
    ],
  );
  if (f.fleet) {
    const { shared, sharedSingle } = f.fleet;
    rows.push([
      `fleet of ${shared.processes} on one key with a store: failed calls; wall / one process`,
      `${shared.failed}; ${fx(sharedSingle)}× (0; ≤ ${fx(FLEET_VS_ONE)}×)`,
      shared.failed === 0 && sharedSingle <= FLEET_VS_ONE,
    ]);
  }
  return [
    '## Targets',
    '',
    'Ratios are against bare ky measured in this run: latency as the ratio of the medians (section 1),',
    'throughput as the median of the per-round ratios (section 2).',
    '',
    '| target | this run | met |',
    '|---|---:|:---:|',
    ...rows.map(([name, value, ok]) => `| ${name} | ${value} | ${ok ? 'yes' : '**no**'} |`),
    '',
  ];
}
