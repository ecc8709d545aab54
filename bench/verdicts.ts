/**
 * The goals of issue #34 (performance, round three), each with its verdict from this run's rows. A ratio
 * with a 95 % confidence interval that straddles its goal is "not settled": another run may flip it.
 */
import {
  BARE_AGAIN,
  CALL_LATENCY,
  CALL_LOAD,
  FLOOR_FULL,
  FULL_STACK,
  LEGACY_CLIENT,
  LEGACY_RAW,
  PLAIN,
  SYNC,
} from './call.js';
import { fmt, fmtCi, fmtRatio, type Row } from './harness.js';
import {
  FUSION_LEGACY,
  FUSION_MODERN,
  HTTP_BASE,
  HTTP_COLUMNS,
  HTTP_TABLE,
  LATENCY,
  SERVER_CPU,
  VS_FLOOR,
} from './http.js';
import { REGISTRY_SCALE, SCALE_BARE, SCALE_CALL, SCALE_FUSION, SCALE_FUSION_MCP, SCALE_LIST } from './registryScale.js';

export interface Verdict {
  /** Issue #34's table (round three), or a goal kept from an earlier round. */
  group: 'issue' | 'kept';
  target: string;
  goal: string;
  /** The measured value and ratio, short (for the summary table); `not measured` when the section did not run. */
  measured: string;
  /** Met, missed, or undefined: not measured, or not settled (the confidence interval straddles the goal). */
  met: boolean | undefined;
  text: string;
  /** The section of bench/PROFILE.md with the profile of a miss. */
  profile?: string;
}

/** This run's rows, and the lookups every verdict uses. */
export class Rows {
  constructor(readonly all: readonly Row[]) {}

  find(table: string, column: string, contender: string): Row | undefined {
    return this.all.find((r) => r.table === table && r.column === column && r.contender === contender);
  }
}

/** A ratio as the tables print it, with a third decimal where two would hide which side of a goal it falls (0.995–1.005 reads 1.00×). */
export const preciseRatio = (ratio: number): string =>
  Math.abs(ratio - 1) < 0.005 ? `${ratio.toFixed(3)}×` : fmtRatio(ratio);
export const ratioOf = (r: Row | undefined): string => (r === undefined ? 'n/a' : preciseRatio(r.ratio));
export const valueOf = (r: Row): string => `${fmt(r.value)} ${r.unit} = **${preciseRatio(r.ratio)}**`;

/** A row of an issue's table that this run did not measure (a section left out with --only). */
export function notMeasured(target: string, goal: string, section: string, group: Verdict['group'] = 'issue'): Verdict {
  return {
    group,
    target,
    goal,
    measured: 'not measured',
    met: undefined,
    text: `Not measured in this run (the \`${section}\` section did not run).`,
  };
}

/** True/false when the whole confidence interval of `row`'s ratio is on one side of the goal; undefined when it straddles it. */
function settled(row: Row, ok: (ratio: number) => boolean): boolean | undefined {
  if (row.ci === undefined) return ok(row.ratio);
  const [a, b] = [ok(row.ci[0]), ok(row.ci[1])];
  return a === b ? a : undefined;
}

/** Every check of one goal: met when all are, missed when one is, otherwise not settled. */
function all(checks: Array<boolean | undefined>): boolean | undefined {
  if (checks.includes(false)) return false;
  return checks.includes(undefined) ? undefined : true;
}

const ci = (r: Row): string => (r.ci === undefined ? '' : ` (95 % CI ${fmtCi(r.ci)})`);

function httpGoals(rows: Rows): Verdict[] {
  const out: Verdict[] = [];
  const at50 = (table: string, who: string): Row | undefined => rows.find(table, HTTP_COLUMNS.fifty, who);
  const eras = [
    {
      who: FUSION_MODERN,
      target: "modern era (2026-07-28), 50 clients over HTTP, against the bare SDK's sessionful legacy server",
      p99: false,
    },
    { who: FUSION_LEGACY, target: 'legacy era, 50 sessions over HTTP, against the same', p99: true },
  ];
  for (const { who, target, p99 } of eras) {
    const goal = `≥ 1.5× calls/s, ≤ 0.67× CPU${p99 ? ', p99 ≤ 1.0×' : ''}`;
    const [calls, cpu, lat] = [
      at50(HTTP_TABLE, who),
      at50(`${HTTP_TABLE}${SERVER_CPU}`, who),
      at50(`${HTTP_TABLE}${LATENCY}`, who),
    ];
    const base = at50(HTTP_TABLE, HTTP_BASE);
    if (calls === undefined || cpu === undefined || lat === undefined || base === undefined) {
      out.push(notMeasured(target, goal, 'http'));
      continue;
    }
    const p99Ratio = lat.p99Ratio ?? NaN;
    out.push({
      group: 'issue',
      target,
      goal,
      measured: `${preciseRatio(calls.ratio)} calls/s, CPU ${preciseRatio(cpu.ratio)}${p99 ? `, p99 ${preciseRatio(p99Ratio)}` : ''}`,
      met: all([settled(calls, (r) => r >= 1.5), settled(cpu, (r) => r <= 0.67), ...(p99 ? [p99Ratio <= 1.0] : [])]),
      profile: 'HTTP',
      text: `${who}: ${fmt(calls.value)} calls/s against ${fmt(base.value)} = **${preciseRatio(calls.ratio)}**${ci(calls)}; server CPU ${fmt(cpu.value)} µs per call = **${preciseRatio(cpu.ratio)}**${ci(cpu)}; p50 ${fmt(lat.value / 1000)} ms, p99 ${fmt((lat.p99 ?? NaN) / 1000)} ms = ${preciseRatio(p99Ratio)} (medians of per-round ratios).`,
    });
  }
  const floorTarget =
    'either era against a floor that does no MCP work (node:http parsing the JSON-RPC body and writing the same result)';
  const vs = [FUSION_LEGACY, FUSION_MODERN].map((who) => ({
    who,
    one: rows.find(`${HTTP_TABLE}${VS_FLOOR}`, HTTP_COLUMNS.one, who),
    fifty: at50(`${HTTP_TABLE}${VS_FLOOR}`, who),
  }));
  const cells = vs.flatMap((v) => [v.one, v.fifty]).filter((r): r is Row => r !== undefined);
  if (cells.length < 4) out.push(notMeasured(floorTarget, "within 3× of the floor's calls/s", 'http'));
  else
    out.push({
      group: 'issue',
      target: floorTarget,
      goal: "within 3× of the floor's calls/s (≥ 0.33×)",
      measured: vs
        .map(
          (v) =>
            `${v.who === FUSION_LEGACY ? 'legacy' : 'modern'} ${preciseRatio(v.one!.ratio)} / ${preciseRatio(v.fifty!.ratio)}`,
        )
        .join('; '),
      met: all(cells.map((r) => settled(r, (x) => x >= 1 / 3))),
      profile: 'HTTP',
      text: `${vs.map((v) => `${v.who}: 1 client **${preciseRatio(v.one!.ratio)}**${ci(v.one!)}, 50 clients **${preciseRatio(v.fifty!.ratio)}**${ci(v.fifty!)}`).join('; ')} of the floor's calls/s.`,
    });
  return out;
}

function scaleGoals(rows: Rows): Verdict[] {
  const out: Verdict[] = [];
  const call = rows.find(REGISTRY_SCALE, SCALE_CALL, SCALE_FUSION);
  const target =
    '`tools/call` server side in a 1,000-tool registry, ⅓ invalidating a namespace glob, the rest `.stale()`';
  if (call === undefined) out.push(notMeasured(target, '≤ 1.10×', 'scale-sync'));
  else {
    const bare = rows.find(REGISTRY_SCALE, SCALE_CALL, SCALE_BARE);
    const mcp = rows.find(REGISTRY_SCALE, SCALE_CALL, SCALE_FUSION_MCP);
    out.push({
      group: 'issue',
      target,
      goal: '≤ 1.10×',
      measured: `${fmt(call.value)} µs = ${preciseRatio(call.ratio)}`,
      met: call.ratio <= 1.1,
      profile: '1. tools/call',
      text: `${valueOf(call)} the bare SDK's ${bare === undefined ? 'n/a' : `${fmt(bare.value)} µs`} (raw JSON-RPC, legacy, in memory); attached to an \`McpServer\` ${ratioOf(mcp)}; one invalidating tool in the tools/call section: ${ratioOf(rows.find(CALL_LATENCY, LEGACY_RAW, SYNC))}.`,
    });
  }
  const lists = [SCALE_FUSION, SCALE_FUSION_MCP].map((who) => rows.find(REGISTRY_SCALE, SCALE_LIST, who));
  const listTarget = '`tools/list` server side, 1,000 tools (on a low-level `Server` / on an `McpServer`)';
  if (lists.includes(undefined)) out.push(notMeasured(listTarget, '≤ 0.005×', 'scale-sync'));
  else {
    const [low, mcp] = lists as [Row, Row];
    out.push({
      group: 'issue',
      target: listTarget,
      goal: '≤ 0.005×',
      measured: `${fmt(low.value)} µs = ${fmtRatio(low.ratio)} / ${fmt(mcp.value)} µs = ${fmtRatio(mcp.ratio)}`,
      met: Math.max(low.ratio, mcp.ratio) <= 0.005,
      profile: '2. tools/list',
      text: `on a low-level \`Server\` ${fmt(low.value)} µs = **${fmtRatio(low.ratio)}**; attached to an \`McpServer\` ${fmt(mcp.value)} µs = **${fmtRatio(mcp.ratio)}** (raw JSON-RPC; the bare SDK lists the same tools).`,
    });
  }
  return out;
}

function callGoals(rows: Rows, callN: string): Verdict[] {
  const out: Verdict[] = [];
  const full = rows.find(CALL_LATENCY, LEGACY_CLIENT, FULL_STACK);
  const target = 'full stack through the SDK Client (State Sync + FSM + 3 middlewares)';
  if (full === undefined) out.push(notMeasured(target, '≤ 1.15×', 'call'));
  else
    out.push({
      group: 'issue',
      target: `${target}${callN}`,
      goal: '≤ 1.15×',
      measured: `${fmt(full.value)} µs = ${preciseRatio(full.ratio)}`,
      met: full.ratio <= 1.15,
      profile: '1. tools/call',
      text: `${valueOf(full)} (SDK v2 Client, legacy, in memory); server side (raw) ${ratioOf(rows.find(CALL_LATENCY, LEGACY_RAW, FULL_STACK))}. The SDK alone answering the same result (no framework code): ${ratioOf(rows.find(CALL_LATENCY, LEGACY_CLIENT, FLOOR_FULL))}; the bare SDK against a second instance of itself: ${ratioOf(rows.find(CALL_LATENCY, LEGACY_CLIENT, BARE_AGAIN))}.`,
    });
  const loadTarget = '64 calls in flight, plain / invalidating / full stack';
  const loads = [LEGACY_CLIENT, LEGACY_RAW].map((column) => ({
    column,
    cells: [PLAIN, SYNC, FULL_STACK].map((c) => rows.find(CALL_LOAD, column, c)),
  }));
  const measured = loads.filter((l) => l.cells.every((c) => c !== undefined)) as Array<{
    column: string;
    cells: Row[];
  }>;
  if (measured.length === 0) out.push(notMeasured(loadTarget, '≥ 1.00× each, the same verdict in 3 runs', 'call'));
  else
    out.push({
      group: 'issue',
      target: `${loadTarget}${callN}`,
      goal: '≥ 1.00× each, the same verdict in 3 runs',
      measured: measured
        .map(
          (l) =>
            `${l.column === LEGACY_CLIENT ? 'Client' : 'raw'} ${l.cells.map((c) => preciseRatio(c.ratio)).join(' / ')}`,
        )
        .join('; '),
      met: all(measured.flatMap((l) => l.cells.map((c) => settled(c, (r) => r >= 1.0)))),
      profile: '1. tools/call',
      text: `${measured.map((l) => `${l.column === LEGACY_CLIENT ? 'through the SDK Client' : 'server side (raw JSON-RPC)'}: ${l.cells.map((c) => `**${preciseRatio(c.ratio)}**${ci(c)}`).join(' / ')}`).join('; ')}. Ratios of calls per CPU second (calls/s: ${measured.map((l) => l.cells.map((c) => fmtRatio(c.wallRatio ?? NaN)).join(' / ')).join('; ')}). A cell is settled when its whole 95 % interval is on one side of 1.00× (then runs agree); run \`npm run bench -- --long --only=call\` to narrow the intervals. The run's noise, the bare SDK against a second instance of itself: ${measured
        .map((l) => {
          const again = rows.find(CALL_LOAD, l.column, BARE_AGAIN);
          return again === undefined ? 'n/a' : `${preciseRatio(again.ratio)}${ci(again)}`;
        })
        .join('; ')}.`,
    });
  return out;
}

/** Issue #34's goals, in the order of its table. */
export function issueVerdicts(rows: Rows, quick: boolean): Verdict[] {
  const callN = quick ? ' (quick run: 100 tools)' : '';
  return [...httpGoals(rows), ...scaleGoals(rows), ...callGoals(rows, callN)];
}
