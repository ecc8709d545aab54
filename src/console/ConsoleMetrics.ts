import type { ConsoleEvent } from './types.js';

/** One bucket of the charts' time axis. */
export interface MetricsBucket {
  /** Start of the bucket (epoch ms of the clock the events were stamped with). */
  at: number;
  calls: number;
  errors: number;
  /** Sessions and workflow instances that made at least one call in the bucket. */
  sessions: number;
}

/** Calls, errors and latency percentiles of one tool over the window. */
export interface ToolMetrics {
  tool: string;
  calls: number;
  errors: number;
  /** Milliseconds, over the latest durations kept (at most `samplesPerTool` of the window). */
  p50: number;
  p99: number;
}

/** What `/console/metrics` answers: the window's buckets, oldest first, and the tools busiest first. */
export interface MetricsView {
  bucketMs: number;
  windowMs: number;
  now: number;
  buckets: MetricsBucket[];
  tools: ToolMetrics[];
}

interface Bucket {
  at: number;
  calls: number;
  errors: number;
  sessions: Set<string>;
}

/** What {@link ConsoleMetrics} keeps at most. */
export interface MetricsBounds {
  /** Width of one bucket (default 5 s). */
  bucketMs?: number;
  /** How far back the charts look (default 5 minutes). */
  windowMs?: number;
  /** Tools counted one by one (default 50); the calls of the others count under `(other tools)`. */
  maxTools?: number;
  /** Latest durations kept per tool for its percentiles (default 512). */
  samplesPerTool?: number;
  /** Distinct sessions counted per bucket (default 1,000). */
  maxSessions?: number;
}

const OTHER = '(other tools)';

/**
 * The charts' numbers, from the calls the console hears (every instance's, with a shared bus), in bounded
 * rolling windows: per bucket the calls, errors and active sessions; per tool its calls, errors and the
 * latest durations. Old buckets leave as the clock moves; memory is bounded by the bounds above, whatever
 * the load.
 */
export class ConsoleMetrics {
  readonly #buckets: Bucket[] = [];
  readonly #tools = new Map<string, { calls: Array<[number, number, boolean]> }>();
  readonly #bucketMs: number;
  readonly #windowMs: number;
  readonly #maxTools: number;
  readonly #samples: number;
  readonly #maxSessions: number;

  constructor(
    readonly now: () => number,
    bounds: MetricsBounds = {},
  ) {
    this.#bucketMs = bounds.bucketMs ?? 5_000;
    this.#windowMs = bounds.windowMs ?? 300_000;
    this.#maxTools = bounds.maxTools ?? 50;
    this.#samples = bounds.samplesPerTool ?? 512;
    this.#maxSessions = bounds.maxSessions ?? 1_000;
  }

  /** Counts `entry` when it is a call's result. */
  add(entry: ConsoleEvent): void {
    const { event, at } = entry;
    if (event.type !== 'result') return;
    const start = at - (at % this.#bucketMs);
    let bucket = this.#buckets.at(-1);
    if (bucket === undefined || bucket.at < start) {
      bucket = { at: start, calls: 0, errors: 0, sessions: new Set() };
      this.#buckets.push(bucket);
    } else if (bucket.at > start) bucket = this.#buckets.find((b) => b.at === start) ?? bucket;
    bucket.calls++;
    if (!event.ok) bucket.errors++;
    const key = event.workflowKey ?? event.sessionId;
    if (key !== undefined && bucket.sessions.size < this.#maxSessions) bucket.sessions.add(key);
    const name = this.#tools.has(event.tool) || this.#tools.size < this.#maxTools ? event.tool : OTHER;
    let tool = this.#tools.get(name);
    if (tool === undefined) this.#tools.set(name, (tool = { calls: [] }));
    tool.calls.push([at, event.durationMs, event.ok]);
    if (tool.calls.length > this.#samples) tool.calls.shift();
    this.#expire();
  }

  /** The window as it stands now. */
  view(): MetricsView {
    this.#expire();
    const tools: ToolMetrics[] = [];
    for (const [tool, { calls }] of this.#tools) {
      const ms = calls.map(([, d]) => d).sort((a, b) => a - b);
      tools.push({
        tool,
        calls: calls.length,
        errors: calls.filter(([, , ok]) => !ok).length,
        p50: percentile(ms, 0.5),
        p99: percentile(ms, 0.99),
      });
    }
    tools.sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool));
    return {
      bucketMs: this.#bucketMs,
      windowMs: this.#windowMs,
      now: this.now(),
      buckets: this.#buckets.map(({ at, calls, errors, sessions }) => ({ at, calls, errors, sessions: sessions.size })),
      tools,
    };
  }

  #expire(): void {
    const since = this.now() - this.#windowMs;
    while (this.#buckets.length > 0 && this.#buckets[0]!.at + this.#bucketMs <= since) this.#buckets.shift();
    for (const [name, tool] of this.#tools) {
      while (tool.calls.length > 0 && tool.calls[0]![0] <= since) tool.calls.shift();
      if (tool.calls.length === 0) this.#tools.delete(name);
    }
  }
}

/** The nearest-rank percentile of sorted `ms` (0 for none). */
function percentile(ms: readonly number[], q: number): number {
  if (ms.length === 0) return 0;
  return ms[Math.min(ms.length - 1, Math.max(0, Math.ceil(q * ms.length) - 1))]!;
}
