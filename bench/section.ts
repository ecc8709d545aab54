import type { Row } from './harness.js';

/** What every section of the benchmark receives. */
export interface SectionOptions {
  /** The CI smoke run: fewer sizes and samples, no thresholds. */
  quick: boolean;
  /** `--long` (or BENCH_LONG=1): the load rows (64 in flight, HTTP) over more and longer slices, so runs agree. */
  long?: boolean;
  /** Progress lines (stderr), so that stdout carries only the report. */
  log: (line: string) => void;
}

/** One section's output: its markdown (tables and notes) and its raw rows, for the targets. */
export interface Section {
  title: string;
  markdown: string;
  rows: Row[];
}
