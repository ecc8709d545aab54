/** A tiny side-by-side harness: contenders alternate every round, medians in microseconds. */
export interface Contender {
  name: string;
  /** One operation; awaited. */
  run: () => Promise<unknown> | unknown;
  setup?: () => Promise<void> | void;
  teardown?: () => Promise<void> | void;
}

export interface Row {
  case: string;
  contender: string;
  medianUs: number;
  p99Us: number;
  ratio: number;
  samples: number;
}

/** Runs `contenders` alternately for `rounds` rounds of `perRound` operations after a warm-up. */
export async function compare(
  caseName: string,
  contenders: Contender[],
  { rounds = 20, perRound = 50, warmup = 50 }: { rounds?: number; perRound?: number; warmup?: number } = {},
): Promise<Row[]> {
  for (const c of contenders) await c.setup?.();
  for (const c of contenders) for (let i = 0; i < warmup; i++) await c.run();
  const samples = contenders.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < contenders.length; k++) {
      const c = contenders[(k + r) % contenders.length]!;
      const bucket = samples[(k + r) % contenders.length]!;
      for (let i = 0; i < perRound; i++) {
        const t0 = performance.now();
        await c.run();
        bucket.push((performance.now() - t0) * 1000);
      }
    }
  }
  for (const c of contenders) await c.teardown?.();
  const medians = samples.map((s) => quantile(s, 0.5));
  const base = medians[0]!;
  return contenders.map((c, i) => ({
    case: caseName,
    contender: c.name,
    medianUs: medians[i]!,
    p99Us: quantile(samples[i]!, 0.99),
    ratio: medians[i]! / base,
    samples: samples[i]!.length,
  }));
}

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** A markdown table of rows (ratio against the first contender of each case). */
export function table(rows: Row[]): string {
  const lines = ['| case | contender | median µs | p99 µs | ratio |', '|---|---|---:|---:|---:|'];
  for (const r of rows) lines.push(`| ${r.case} | ${r.contender} | ${fmt(r.medianUs)} | ${fmt(r.p99Us)} | ${r.ratio.toFixed(3)} |`);
  return lines.join('\n');
}

function fmt(n: number): string {
  return n >= 100 ? n.toFixed(0) : n.toFixed(2);
}
