/**
 * The usage chart's geometry, pure so it is tested without a browser: stacked bars, one per time
 * bucket, the largest series kept and the rest summed as "Other", and a rounded axis maximum.
 */
export const MAX_SERIES = 5;

export interface Series {
  name: string;
  values: number[];
}

export function topSeries(usage: Record<string, number[]>, max = MAX_SERIES): Series[] {
  const all = Object.entries(usage).map(([name, values]) => ({ name, values, total: values.reduce((a, b) => a + b, 0) }));
  all.sort((a, b) => b.total - a.total || a.name.localeCompare(b.name));
  const kept = all.slice(0, max).map(({ name, values }) => ({ name, values }));
  const rest = all.slice(max);
  if (rest.length) kept.push({ name: "Other", values: rest[0].values.map((_, i) => rest.reduce((s, r) => s + r.values[i], 0)) });
  return kept;
}

/** 1, 2, 5 × 10^n at or above the largest stacked value (at least 1). */
export function niceMax(series: Series[]): number {
  const len = series[0]?.values.length ?? 0;
  let top = 0;
  for (let i = 0; i < len; i++) top = Math.max(top, series.reduce((s, x) => s + x.values[i], 0));
  if (top <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(top));
  return [1, 2, 5, 10].map((m) => m * p).find((v) => v >= top)!;
}

export interface Bar {
  x: number;
  width: number;
  segments: Array<{ series: number; y: number; height: number; value: number }>;
}

export function layoutBars(series: Series[], width: number, height: number, max: number): Bar[] {
  const n = series[0]?.values.length ?? 0;
  if (!n) return [];
  const slot = width / n;
  const barWidth = Math.max(1, slot * 0.7);
  return Array.from({ length: n }, (_, i) => {
    let base = height;
    const segments = series.map((s, k) => {
      const h = (s.values[i] / max) * height;
      base -= h;
      return { series: k, y: base, height: h, value: s.values[i] };
    });
    return { x: i * slot + (slot - barWidth) / 2, width: barWidth, segments: segments.filter((g) => g.value > 0) };
  });
}
