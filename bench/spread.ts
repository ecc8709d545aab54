/** The ratios of the peers benchmark: per round, against the base of that round, and their spread over rounds. */

/** The median and the range of a set of values (NaN values, from a contender that failed a round, left out). */
export interface Spread {
  median: number;
  min: number;
  max: number;
  /** How many values were finite. */
  count: number;
}

/** The median (the mean of the two middle values for an even count), minimum and maximum of the finite values. */
export function spread(values: readonly number[]): Spread {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  const count = sorted.length;
  if (count === 0) return { median: NaN, min: NaN, max: NaN, count };
  const mid = Math.floor(count / 2);
  const median = count % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[count - 1]!, count };
}

/**
 * Each round's value of contender `i` divided by the base's value in the same round (`rounds[r][i]`): the
 * ratio that load drift on a shared machine disturbs least, since both ran within seconds of each other.
 */
export function ratiosPerRound(rounds: readonly (readonly number[])[], i: number, base: number): number[] {
  return rounds.map((round) => (round[i] ?? NaN) / (round[base] ?? NaN));
}

/** A ratio and its spread for a table cell: `1.94× (1.80–2.05)`; `n/a` when no round measured it. */
export function fmtSpread(s: Spread): string {
  if (s.count === 0) return 'n/a';
  const r = (x: number): string => x.toFixed(x >= 10 ? 1 : 2);
  return s.count === 1 ? `${r(s.median)}×` : `${r(s.median)}× (${r(s.min)}–${r(s.max)})`;
}
