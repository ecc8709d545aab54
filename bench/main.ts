/**
 * `npm run bench` — mcp-fusion against the bare SDK, side by side in one process (HTTP servers and heap
 * measurements in child processes). `-- --quick` is the CI smoke run; `-- --only=list,call` runs some
 * sections (`redis` prints Redis commands per call of each kind). The full run writes bench/RESULTS.md.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ATTACH_ONLY, BARE, CALL_LATENCY, CALL_LOAD, callSection, FLOOR, FLOOR_FULL, FULL_STACK, LEGACY_CLIENT, LEGACY_RAW, MODERN_FETCH, PLAIN, SYNC } from './call.js';
import { consoleSection } from './console.js';
import { detail, fmt, fmtRatio, type Row } from './harness.js';
import { HTTP_COLUMNS, HTTP_LEGACY, httpSection, KINDS, LATENCY, SERVER_CPU } from './http.js';
import { LIST_CLIENT, LIST_RAW, listSection } from './list.js';
import { MEMORY_SESSIONS, memorySection } from './memory.js';
import { ATTACH_INDEXED, ATTACH_POLICIES, POLICY, policySection } from './policy.js';
import { redisSection } from './redis.js';
import { scaleSection } from './scale.js';
import { tasksSection } from './tasks.js';
import type { Section, SectionOptions } from './section.js';

const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const options: SectionOptions = { quick, log: (line) => process.stderr.write(`${line}\n`) };

const SECTIONS: Record<string, (o: SectionOptions) => Promise<Section>> = {
  policy: policySection,
  list: listSection,
  call: callSection,
  http: httpSection,
  memory: memorySection,
  redis: redisSection,
  scale: scaleSection,
  console: consoleSection,
  tasks: tasksSection,
};

const started = performance.now();
const loadAtStart = os.loadavg();
/** The file `mcp-fusion` resolves to here: the compiled package (dist/), not src/. */
const measured = relative(process.cwd(), fileURLToPath(import.meta.resolve('mcp-fusion')));
const sections: Section[] = [];
for (const [name, run] of Object.entries(SECTIONS)) {
  if (only !== undefined && !only.includes(name)) continue;
  options.log(`${name}…`);
  sections.push(await run(options));
}
const rows = sections.flatMap((s) => s.rows);
const minutes = (performance.now() - started) / 60_000;

interface Verdict {
  /** Issue #24's table (round two), or a goal kept from round one. */
  group: 'issue' | 'kept';
  target: string;
  goal: string;
  /** The measured value and ratio, short (for the summary table); `not measured` when the section did not run. */
  measured: string;
  met: boolean | undefined;
  text: string;
  /** The section of bench/PROFILE.md with the profile of a miss. */
  profile?: string;
}

function find(table: string, column: string, contender: string): Row | undefined {
  return rows.find((r) => r.table === table && r.column === column && r.contender === contender);
}

/** A ratio as the tables print it, with a third decimal where two would hide which side of a goal it falls (0.995–1.005 reads 1.00×). */
const preciseRatio = (ratio: number): string => (Math.abs(ratio - 1) < 0.005 ? `${ratio.toFixed(3)}×` : fmtRatio(ratio));
const ratioOf = (r: Row | undefined): string => (r === undefined ? 'n/a' : preciseRatio(r.ratio));
const valueOf = (r: Row): string => `${fmt(r.value)} ${r.unit} = **${preciseRatio(r.ratio)}**`;
const callN = quick ? ' (quick run: 100 tools)' : '';

/** A row of issue #24's table that this run did not measure (a section left out with --only). */
function notMeasured(target: string, goal: string, section: string): Verdict {
  return { group: 'issue', target, goal, measured: 'not measured', met: undefined, text: `Not measured in this run (the \`${section}\` section did not run).` };
}

/** The rows of one legacy HTTP table at 50 sessions: mcp-fusion's and the first contender's (the bare SDK's, the base of its ratios). */
function httpAt50(table: string): { base: Row; fusion: Row } | undefined {
  const cells = rows.filter((r) => r.table === table && r.column === HTTP_COLUMNS.fifty);
  const base = cells[0];
  const fusion = cells.find((r) => r.contender === KINDS.fusion);
  return base === undefined || fusion === undefined ? undefined : { base, fusion };
}

function verdicts(): Verdict[] {
  const out: Verdict[] = [];
  const floorRaw = find(CALL_LATENCY, LEGACY_RAW, FLOOR);
  const floorClient = find(CALL_LATENCY, LEGACY_CLIENT, FLOOR);

  // Issue #24, in the order of its table.
  const plainRaw = find(CALL_LATENCY, LEGACY_RAW, PLAIN);
  const bareRaw = find(CALL_LATENCY, LEGACY_RAW, BARE);
  const target1 = 'tools/call server side (raw JSON-RPC, in-memory), plain';
  if (plainRaw === undefined) out.push(notMeasured(target1, '≤ 1.00×', 'call'));
  else
    out.push({
      group: 'issue',
      target: `${target1}${callN}`,
      goal: '≤ 1.00×',
      measured: `${fmt(plainRaw.value)} µs = ${preciseRatio(plainRaw.ratio)}`,
      met: plainRaw.ratio <= 1.0,
      profile: '1. tools/call',
      text: `${valueOf(plainRaw)} the bare SDK's ${bareRaw === undefined ? 'n/a' : `${fmt(bareRaw.value)} µs`} (median, sequential, legacy era); the floor (low-level Server, no validation) ${ratioOf(floorRaw)}.`,
    });
  const syncRaw = find(CALL_LATENCY, LEGACY_RAW, SYNC);
  const target2 = 'tools/call server side with a State Sync invalidation';
  if (syncRaw === undefined) out.push(notMeasured(target2, '≤ 1.10×', 'call'));
  else
    out.push({
      group: 'issue',
      target: `${target2}${callN}`,
      goal: '≤ 1.10×',
      measured: `${fmt(syncRaw.value)} µs = ${preciseRatio(syncRaw.ratio)}`,
      met: syncRaw.ratio <= 1.1,
      profile: '1. tools/call',
      text: `${valueOf(syncRaw)} (raw JSON-RPC, legacy, in-memory); plain mcp-fusion ${ratioOf(plainRaw)}, a difference of ${plainRaw === undefined ? 'n/a' : `${fmt(syncRaw.value - plainRaw.value)} µs`}: State Sync's decoration and bookkeeping (a compiled decorator per tool, about 0.2 µs) plus the SDK validating the larger result (the signal block and \`_meta\`).`,
    });
  const full = find(CALL_LATENCY, LEGACY_CLIENT, FULL_STACK);
  const target3 = 'tools/call through the SDK Client, State Sync + FSM + 3 middlewares';
  if (full === undefined) out.push(notMeasured(target3, '≤ 1.20×', 'call'));
  else
    out.push({
      group: 'issue',
      target: `${target3}${callN}`,
      goal: '≤ 1.20×',
      measured: `${fmt(full.value)} µs = ${preciseRatio(full.ratio)}`,
      met: full.ratio <= 1.2,
      profile: '1. tools/call',
      text: `${valueOf(full)} (SDK v2 Client, legacy, in-memory); the same stack server side (raw JSON-RPC) ${ratioOf(find(CALL_LATENCY, LEGACY_RAW, FULL_STACK))}; plain mcp-fusion through the Client ${ratioOf(find(CALL_LATENCY, LEGACY_CLIENT, PLAIN))}; the floor through the Client ${ratioOf(floorClient)}, and the floor answering the full stack's result ${ratioOf(find(CALL_LATENCY, LEGACY_CLIENT, FLOOR_FULL))} (raw ${ratioOf(find(CALL_LATENCY, LEGACY_RAW, FLOOR_FULL))}): the SDK's own cost for a result of that size.`,
    });
  const target4 = 'throughput, 64 calls in flight on one connection: plain / invalidating / full stack';
  const loads = [LEGACY_CLIENT, LEGACY_RAW].map((column) => ({ column, cells: [PLAIN, SYNC, FULL_STACK].map((c) => find(CALL_LOAD, column, c)) }));
  const measuredLoads = loads.filter((l) => l.cells.every((c) => c !== undefined)) as Array<{ column: string; cells: Row[] }>;
  if (measuredLoads.length === 0) out.push(notMeasured(target4, '≥ 1.00× each', 'call'));
  else {
    const label = (column: string): string => (column === LEGACY_CLIENT ? 'through the SDK Client' : 'server side (raw JSON-RPC)');
    out.push({
      group: 'issue',
      target: `${target4}${callN}`,
      goal: '≥ 1.00× each',
      measured: measuredLoads.map((l) => `${l.column === LEGACY_CLIENT ? 'Client' : 'raw'} ${l.cells.map((c) => preciseRatio(c.ratio)).join(' / ')}`).join('; '),
      met: measuredLoads.every((l) => l.cells.every((c) => c.ratio >= 1.0)),
      profile: '1. tools/call',
      text: `${measuredLoads.map((l) => `${label(l.column)}: ${l.cells.map((c) => `${fmt(c.value)} calls/s = **${preciseRatio(c.ratio)}**`).join(' / ')}`).join('; ')} (calls/s ÷ the bare SDK's, each contender on its own connection; every cell must reach 1.00×).`,
    });
  }
  const calls = httpAt50(HTTP_LEGACY);
  const latencies = httpAt50(`${HTTP_LEGACY}${LATENCY}`);
  const cpu = httpAt50(`${HTTP_LEGACY}${SERVER_CPU}`);
  const target5 = 'legacy HTTP, 50 sessions: calls/s and p99';
  if (calls === undefined || latencies === undefined || latencies.base.p99 === undefined || latencies.fusion.p99 === undefined) out.push(notMeasured(target5, 'calls/s ≥ 1.00×, p99 ≤ 1.2×', 'http'));
  else {
    const { fusion, base } = latencies;
    const p99Ratio = fusion.p99Ratio ?? fusion.p99! / base.p99!;
    out.push({
      group: 'issue',
      target: target5,
      goal: 'calls/s ≥ 1.00×, p99 ≤ 1.2×',
      measured: `${preciseRatio(calls.fusion.ratio)}, p99 ${fmt(fusion.p99! / 1000)} ms = ${preciseRatio(p99Ratio)}`,
      met: calls.fusion.ratio >= 1.0 && p99Ratio <= 1.2,
      profile: 'HTTP',
      text: `${calls.fusion.contender}: ${fmt(calls.fusion.value)} calls/s against ${fmt(calls.base.value)} for the ${calls.base.contender} = **${preciseRatio(calls.fusion.ratio)}**; p99 ${fmt(fusion.p99! / 1000)} ms against ${fmt(base.p99! / 1000)} ms = **${preciseRatio(p99Ratio)}** (p50 ${fmt(fusion.value / 1000)} ms against ${fmt(base.value / 1000)} ms)${cpu === undefined ? '' : `; server CPU ${fmt(cpu.fusion.value)} µs per call = ${preciseRatio(cpu.fusion.ratio)}`}. Ratios as the HTTP section computes them (the median of the per-round ratios).`,
    });
  }
  const attachCold = rows.find((r) => r.table === ATTACH_POLICIES && r.contender === ATTACH_INDEXED);
  const target6 = 'cold policy resolution (attach time), 10,000 tools × 1,000 policies';
  if (attachCold === undefined) out.push(notMeasured(target6, '< 0.5 s', 'policy'));
  else
    out.push({
      group: 'issue',
      target: `${target6}${quick ? ' (quick run: measured at 2,000 × 200)' : ''}`,
      goal: '< 0.5 s',
      measured: `${fmt(attachCold.value)} ms`,
      met: attachCold.value < 500,
      profile: 'Policy resolution: met, and the startup cost removed',
      text: `${attachCold.column}: **${fmt(attachCold.value)} ms** (resolution, overlap detection and pattern checks) = ${preciseRatio(attachCold.ratio)} the direct way.`,
    });

  // Kept from round one: goals the issue does not restate, still worth watching.
  const attach = find(CALL_LATENCY, MODERN_FETCH, ATTACH_ONLY);
  const app = find(CALL_LATENCY, MODERN_FETCH, PLAIN);
  if (attach !== undefined && app !== undefined) {
    out.push({
      group: 'kept',
      target: `Modern era, one request at N = 1,000, per-request attach included${quick ? ' (quick run: measured at N = 100)' : ''}`,
      goal: '≤ 0.05× the SDK\'s factory',
      measured: `${preciseRatio(attach.ratio)} / ${preciseRatio(app.ratio)}`,
      met: Math.max(attach.ratio, app.ratio) <= 0.05,
      text: `per-request Server + attachToServer ${fmt(attach.value)} µs = **${preciseRatio(attach.ratio)}**; through the whole createFusionApp ${fmt(app.value)} µs = **${preciseRatio(app.ratio)}** (the factory: ${fmt(attach.value / attach.ratio)} µs).`,
    });
  }
  const list = find(LIST_CLIENT, 'N=1,000', 'mcp-fusion + State Sync + FSM gate');
  const listRaw = find(LIST_RAW, 'N=1,000', 'mcp-fusion + State Sync + FSM gate');
  if (list !== undefined && listRaw !== undefined) {
    const floor = find(LIST_CLIENT, 'N=1,000', 'floor: v2 low-level Server, precomputed list');
    const floorListRaw = find(LIST_RAW, 'N=1,000', 'floor: v2 low-level Server, precomputed list');
    out.push({
      group: 'kept',
      target: 'tools/list at N = 1,000 with decoration and gating, server side',
      goal: '≤ 0.06×',
      measured: `${preciseRatio(listRaw.ratio)} (Client ${preciseRatio(list.ratio)})`,
      met: listRaw.ratio <= 0.06,
      profile: '2. tools/list',
      text: `server side (raw JSON-RPC) ${fmt(listRaw.value)} µs = **${fmtRatio(listRaw.ratio)}** (floor ${ratioOf(floorListRaw)}); through the SDK v2 Client ${fmt(list.value)} µs = **${fmtRatio(list.ratio)}**, where the floor alone is ${floor === undefined ? 'n/a' : `${fmt(floor.value)} µs = ${fmtRatio(floor.ratio)}`}: the client's own validation of the listed tools bounds that ratio, so the goal is judged server side.`,
    });
  }
  const warm = rows.filter((r) => r.table === POLICY && r.contender.startsWith('warm'));
  const cold = rows.filter((r) => r.table === POLICY && r.contender === 'cold: no policy matches');
  if (warm.length > 0 && cold.length > 1) {
    const worstWarm = Math.max(...warm.map((r) => r.value));
    const first = warm.filter((r) => r.contender === warm[0]!.contender).map((r) => r.value);
    const warmSpread = Math.max(...first) / Math.min(...first);
    out.push({
      group: 'kept',
      target: 'Policy resolution warm: O(1)',
      goal: '< 100 ns median, × < 2 from 10 to 1,000 policies',
      measured: `${fmt(worstWarm)} ns, ×${warmSpread.toFixed(2)} from 10 to 1,000 policies`,
      met: worstWarm < 100 && warmSpread < 2,
      text: `warm at most **${fmt(worstWarm)} ns** (10 → 1,000 policies: ×${warmSpread.toFixed(2)}); cold ${cold.map((r) => `${fmt(r.value)} ns at ${r.column}`).join(', ')} (indexed by first segment: a name tests only the policies that can match it).`,
    });
  }
  const sessions = rows.filter((r) => r.table === MEMORY_SESSIONS && r.contender.startsWith('mcp-fusion'));
  if (sessions.length > 0) {
    const worst = Math.max(...sessions.map((r) => r.value));
    out.push({
      group: 'kept',
      target: 'Idle legacy session heap with the in-memory stores',
      goal: '≤ 20 KB',
      measured: `${fmt(worst)} KB`,
      met: worst <= 20,
      text: `${sessions.map((r) => `${r.contender}: **${fmt(r.value)} KB** (${fmtRatio(r.ratio)} the bare SDK's)`).join('; ')}.`,
    });
  }
  return out;
}

const cpus = os.cpus();
const header = [
  `- Machine: ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`,
  `- Node ${process.version}; @modelcontextprotocol/server, /client 2.4, /node 2.1, v1 @modelcontextprotocol/sdk 1.x`,
  `- Package measured: the compiled mcp-fusion, \`${measured}\` (dist/, built by \`npm run bench\` first); the bench files themselves run through tsx`,
  `- Date: ${new Date().toISOString()}; duration ${minutes.toFixed(1)} min; load average (1 / 5 / 15 min) at the start ${loadAtStart.map((l) => l.toFixed(1)).join(' / ')}, at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}${quick ? '; **quick smoke run** (fewer sizes and samples: not for conclusions)' : ''}`,
].join('\n');
const all = verdicts();
const verdictWord = (v: Verdict): string => (v.met === true ? 'met' : v.met === false ? 'missed' : 'n/a');
const summary = (group: Verdict['group']): string[] => [
  '| goal | measured | target | verdict |',
  '|---|---|---|---|',
  ...all.filter((v) => v.group === group).map((v) => `| ${v.target} | ${v.measured} | ${v.goal} | ${v.met === false ? '**missed**' : verdictWord(v)} |`),
];
const details = (group: Verdict['group']): string[] =>
  all
    .filter((v) => v.group === group)
    .flatMap((v) => [
      `#### ${v.target} (${v.goal}) — ${verdictWord(v)}`,
      '',
      v.text,
      ...(v.profile !== undefined && v.met === false ? ['', `Why, and the fixes: [PROFILE.md, section "${v.profile}"](PROFILE.md).`] : []),
      '',
    ]);
const targetLines = [
  '### Issue #24: the legacy call path and concurrency',
  '',
  ...summary('issue'),
  '',
  ...details('issue'),
  '### Kept from round one',
  '',
  ...summary('kept'),
  '',
  ...details('kept'),
];
const report = [
  '# mcp-fusion benchmark results',
  '',
  header,
  '',
  'Every ratio is against the bare SDK v2 `McpServer.registerTool` in the same case and the same run (below 1 is faster, except for calls/s); contenders alternate every round. The SDK v1 `McpServer` is a second reference row; the "floor" rows are a low-level v2 `Server` answering from precomputed data without argument validation: the SDK\'s own message handling, which no framework on it can go below.',
  '',
  '## Targets',
  '',
  'Every goal is reported with its verdict (a miss does not fail the run). Profiles of the misses, the SDK floor and the fixes (applied and recommended): [bench/PROFILE.md](PROFILE.md).',
  '',
  ...targetLines,
  ...sections.flatMap((s) => [`## ${s.title}`, '', s.markdown, '']),
  '## All rows',
  '',
  '<details><summary>median, p99 and sample count of every cell</summary>',
  '',
  detail(rows),
  '',
  '</details>',
  '',
].join('\n');
process.stdout.write(report);
if (!quick && only === undefined) {
  writeFileSync(new URL('./RESULTS.md', import.meta.url), report);
  options.log('wrote bench/RESULTS.md');
}
