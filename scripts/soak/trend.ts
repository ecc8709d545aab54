/** One metric over time: `[seconds since start, value]` samples. */
export type Series = ReadonlyArray<readonly [number, number]>;

/** How much a metric may grow over the judged window: `absolute` units, or `relative` × its median, whichever is larger. */
export interface Tolerance {
  readonly absolute: number;
  readonly relative: number;
}

/** The verdict on one metric: its slope over the second half, and the growth that slope projects. */
export interface Trend {
  readonly slopePerMin: number;
  /** Growth the slope projects over the judged window. */
  readonly growth: number;
  readonly allowed: number;
  readonly median: number;
  readonly bounded: boolean;
}

/**
 * The Theil–Sen slope of `series` (value units per second): the median of the slopes between every two samples,
 * so that a few spikes (a busy machine's latency) do not tilt it; 0 with fewer than two distinct times.
 */
export function slope(series: Series): number {
  const slopes: number[] = [];
  for (let i = 0; i < series.length; i++) {
    for (let j = i + 1; j < series.length; j++) {
      const [ti, vi] = series[i]!;
      const [tj, vj] = series[j]!;
      if (tj !== ti) slopes.push((vj - vi) / (tj - ti));
    }
  }
  if (slopes.length === 0) return 0;
  slopes.sort((a, b) => a - b);
  const mid = slopes.length / 2;
  return Number.isInteger(mid) ? (slopes[mid - 1]! + slopes[mid]!) / 2 : slopes[Math.floor(mid)]!;
}

/**
 * Judges the second half of `series` (the first is warm-up): the metric grows without bound when the slope
 * there, over that half's length, projects more growth than `tolerance` allows. A flat or falling metric, or
 * one that wobbles around a level, passes.
 */
export function judge(series: Series, tolerance: Tolerance): Trend {
  const start = series[0]?.[0] ?? 0;
  const end = series.at(-1)?.[0] ?? 0;
  const half = series.filter(([t]) => t >= start + (end - start) / 2);
  const perSecond = slope(half);
  const window = (half.at(-1)?.[0] ?? 0) - (half[0]?.[0] ?? 0);
  const sorted = half.map(([, v]) => v).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const growth = perSecond * window;
  const allowed = Math.max(tolerance.absolute, tolerance.relative * Math.abs(median));
  return { slopePerMin: perSecond * 60, growth, allowed, median, bounded: growth <= allowed };
}

/** The `q` quantile (0–1) of `values` (nearest rank); 0 when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}
