// Statistics and number formatting shared by the benchmark scenarios.

export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (s[lo] as number) + ((s[hi] as number) - (s[lo] as number)) * (pos - lo);
}

export const median = (xs: readonly number[]): number => quantile(xs, 0.5);

/** Median of the per-round ratios a[i] / b[i] (the two measurements of one round ran back to back). */
export function pairedRatio(a: readonly number[], b: readonly number[]): number {
  return median(a.map((x, i) => x / (b[i] as number)));
}

export const fx = (n: number, d = 2): string => n.toFixed(d);
export const us = (ms: number): string => `${fx(ms * 1000, 0)} µs`;
export const kb = (bytes: number): string => `${fx(bytes / 1024, 1)} KB`;
