import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
/**
 * A small side-by-side harness: contenders alternate every round (so drift, GC and thermal effects
 * spread evenly), medians are taken over all samples, and every ratio is against the first contender
 * of its case (the bare SDK v2 `McpServer`).
 */
export interface Contender {
  name: string;
  /** One operation; awaited. */
  run: () => Promise<unknown> | unknown;
  /** Runs once before the warm-up; use it to check that the contender answers correctly. */
  setup?: () => Promise<void> | void;
  teardown?: () => Promise<void> | void;
}

export interface Budget {
  rounds: number;
  perRound: number;
  warmup: number;
}

/** One measured cell. `value` is a median in `unit`; `ratio` is value ÷ the first contender's value. */
export interface Row {
  table: string;
  column: string;
  contender: string;
  value: number;
  p99?: number;
  /** p99 ÷ the first contender's p99, where measured (HTTP: the median of the per-round ratios). */
  p99Ratio?: number;
  ratio: number;
  /** A 95 % confidence interval of `ratio` (order statistics of the per-round ratios), where measured. */
  ci?: readonly [number, number];
  /** Load rows: the median of the per-round ratios of calls/s (wall time; `ratio` is over CPU time). */
  wallRatio?: number;
  samples: number;
  unit: 'µs' | 'calls/s' | 'ns' | 'KB' | 'ms' | 'commands' | 'ops/s';
}

/** Sequential latency: `rounds` × `perRound` operations per contender after `warmup`, alternating. */
export async function latency(table: string, column: string, contenders: Contender[], budget: Budget): Promise<Row[]> {
  for (const c of contenders) await c.setup?.();
  for (const c of contenders) for (let i = 0; i < budget.warmup; i++) await c.run();
  const samples = contenders.map(() => [] as number[]);
  for (let r = 0; r < budget.rounds; r++) {
    for (let k = 0; k < contenders.length; k++) {
      const index = (k + r) % contenders.length;
      const c = contenders[index]!;
      const bucket = samples[index]!;
      for (let i = 0; i < budget.perRound; i++) {
        const t0 = performance.now();
        await c.run();
        bucket.push((performance.now() - t0) * 1000);
      }
    }
  }
  for (const c of contenders) await c.teardown?.();
  const medians = samples.map((s) => quantile(s, 0.5));
  return contenders.map((c, i) => ({
    table,
    column,
    contender: c.name,
    value: medians[i]!,
    p99: quantile(samples[i]!, 0.99),
    ratio: medians[i]! / medians[0]!,
    samples: samples[i]!.length,
    unit: 'µs' as const,
  }));
}

/**
 * Throughput with `inFlight` operations outstanding at all times (a closed loop of `inFlight` workers),
 * in slices of `sliceMs`; the value is the median of the slices' calls per second, the ratio the median of the
 * per-round ratios to the first contender.
 */
/**
 * A closed loop of `inFlight` concurrent operations per contender, in slices that alternate between contenders
 * round by round. `value` is the median calls/s. `ratio` is the median of the per-round ratios of calls per
 * second of this process's CPU time (in-memory contenders are CPU-bound: that is the calls/s each would reach on a
 * core of its own), because on a shared machine the CPU a slice gets swings several-fold and calls/s with it;
 * `wallRatio` is the same over calls/s.
 */
export async function throughput(
  table: string,
  column: string,
  contenders: Contender[],
  options: { inFlight: number; rounds: number; sliceMs: number; warmupMs: number },
): Promise<Row[]> {
  for (const c of contenders) await c.setup?.();
  for (const c of contenders) await slice(c, options.inFlight, options.warmupMs);
  const rates = contenders.map(() => [] as Slice[]);
  for (let r = 0; r < options.rounds; r++) {
    for (let k = 0; k < contenders.length; k++) {
      const index = (k + r) % contenders.length;
      rates[index]!.push(await slice(contenders[index]!, options.inFlight, options.sliceMs));
    }
  }
  for (const c of contenders) await c.teardown?.();
  // A contender is compared with the first one's slice of the same round, so load drifting across the run cancels out.
  const perRound = (of: (s: Slice) => number): number[][] =>
    rates.map((own) => own.map((s, r) => of(s) / of(rates[0]![r]!)));
  const cpu = perRound((s) => s.perCpuSecond);
  const wall = perRound((s) => s.perSecond);
  return contenders.map((c, i) => ({
    table,
    column,
    contender: c.name,
    value: quantile(
      rates[i]!.map((s) => s.perSecond),
      0.5,
    ),
    ratio: quantile(cpu[i]!, 0.5),
    ci: medianCi(cpu[i]!),
    wallRatio: quantile(wall[i]!, 0.5),
    samples: rates[i]!.length,
    unit: 'calls/s' as const,
  }));
}

/** One load slice: calls per second of wall time and per second of this process's CPU time. */
interface Slice {
  readonly perSecond: number;
  readonly perCpuSecond: number;
}

/**
 * A full garbage collection (V8's `gc`, exposed at run time): each load slice starts on a clean heap, so it
 * pays for its own garbage only, not for what the contender before it left.
 */
const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

async function slice(c: Contender, inFlight: number, ms: number): Promise<Slice> {
  collectGarbage();
  let done = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const deadline = t0 + ms;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      await c.run();
      done++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const cpu = process.cpuUsage(cpu0);
  return {
    perSecond: done / ((performance.now() - t0) / 1000),
    perCpuSecond: done / ((cpu.user + cpu.system) / 1e6),
  };
}

export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/**
 * A distribution-free 95 % confidence interval of the median of `values` (order statistics: the ranks
 * n/2 ∓ 0.98·√n). A verdict whose goal lies outside it holds run after run; one inside it can flip.
 */
export function medianCi(values: readonly number[]): readonly [number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const k = Math.max(0, Math.floor(n / 2 - 0.98 * Math.sqrt(n)));
  return [sorted[k] ?? NaN, sorted[Math.min(n - 1, n - 1 - k)] ?? NaN];
}

/** Formats a value for a table: thousands separators, two decimals below 100. */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return 'n/a';
  if (Math.abs(n) >= 100) return Math.round(n).toLocaleString('en-US');
  return n.toFixed(n >= 10 ? 1 : 2);
}

export function fmtRatio(r: number): string {
  if (!Number.isFinite(r)) return 'n/a';
  return r >= 10 ? `${r.toFixed(1)}×` : r >= 0.1 ? `${r.toFixed(2)}×` : `${r.toFixed(3)}×`;
}

/** A confidence interval of a ratio, `0.91–1.04×`. */
export function fmtCi([low, high]: readonly [number, number]): string {
  return `${fmtRatio(low).slice(0, -1)}–${fmtRatio(high)}`;
}

/**
 * A markdown matrix of one table's rows: a line per contender, a column per `column` value, each cell
 * `value (ratio)`.
 */
export function matrix(rows: readonly Row[], table: string): string {
  const mine = rows.filter((r) => r.table === table);
  const columns = [...new Set(mine.map((r) => r.column))];
  const contenders = [...new Set(mine.map((r) => r.contender))];
  const unit = mine[0]?.unit ?? '';
  const lines = [
    `| ${unit === 'calls/s' ? 'calls/s (× bare v2)' : `median ${unit} (× bare v2)`} | ${columns.join(' | ')} |`,
    `|---|${columns.map(() => '---:').join('|')}|`,
  ];
  for (const name of contenders) {
    const cells = columns.map((col) => {
      const r = mine.find((x) => x.contender === name && x.column === col);
      return r === undefined
        ? '—'
        : `${fmt(r.value)} (${fmtRatio(r.ratio)}${r.ci === undefined ? '' : `, 95 % CI ${fmtCi(r.ci)}`})`;
    });
    lines.push(`| ${name} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Every row with its p99 and sample count (the appendix of the report). */
export function detail(rows: readonly Row[]): string {
  const lines = [
    '| table | column | contender | median | p99 | unit | ratio | samples |',
    '|---|---|---|---:|---:|---|---:|---:|',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.table} | ${r.column} | ${r.contender} | ${fmt(r.value)} | ${r.p99 === undefined ? '' : fmt(r.p99)} | ${r.unit} | ${fmtRatio(r.ratio)} | ${r.samples} |`,
    );
  return lines.join('\n');
}

/** Lets timers, microtasks and pending I/O settle between phases. */
export function settle(ms = 20): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
