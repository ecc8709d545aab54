/**
 * `npm run bench` — mcp-fusion against the bare SDK, side by side in one process (HTTP servers and heap
 * measurements in child processes). `-- --quick` is the CI smoke run; `-- --only=list,call` runs some
 * sections (`redis` prints Redis commands per call of each kind). The full run writes bench/RESULTS.md.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { ATTACH_ONLY, CALL_LATENCY, callSection, FULL_STACK, LEGACY_CLIENT, LEGACY_RAW, MODERN_FETCH } from './call.js';
import { detail, fmt, fmtRatio, type Row } from './harness.js';
import { httpSection } from './http.js';
import { LIST_CLIENT, LIST_RAW, listSection } from './list.js';
import { MEMORY_SESSIONS, memorySection } from './memory.js';
import { ATTACH_INDEXED, ATTACH_POLICIES, POLICY, policySection } from './policy.js';
import { redisSection } from './redis.js';
import { scaleSection } from './scale.js';
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
};

const started = performance.now();
const sections: Section[] = [];
for (const [name, run] of Object.entries(SECTIONS)) {
  if (only !== undefined && !only.includes(name)) continue;
  options.log(`${name}…`);
  sections.push(await run(options));
}
const rows = sections.flatMap((s) => s.rows);
const minutes = (performance.now() - started) / 60_000;

interface Verdict {
  target: string;
  met: boolean | undefined;
  text: string;
  /** The section of bench/PROFILE.md with the profile of a miss. */
  profile?: string;
}

function find(table: string, column: string, contender: string): Row | undefined {
  return rows.find((r) => r.table === table && r.column === column && r.contender === contender);
}

function verdicts(): Verdict[] {
  const out: Verdict[] = [];
  const call = find(CALL_LATENCY, LEGACY_CLIENT, FULL_STACK);
  if (call !== undefined) {
    const raw = find(CALL_LATENCY, LEGACY_RAW, FULL_STACK);
    const plain = find(CALL_LATENCY, LEGACY_CLIENT, 'mcp-fusion');
    const floor = find(CALL_LATENCY, LEGACY_CLIENT, 'floor: v2 low-level Server, no validation');
    out.push({
      target: 'tools/call median latency with State Sync + FSM + 3 middlewares ≤ 0.95× the bare SDK',
      met: call.ratio <= 0.95,
      profile: '1. tools/call',
      text: `${fmt(call.value)} µs = **${fmtRatio(call.ratio)}** (SDK v2 Client, legacy, in-memory); raw JSON-RPC ${raw === undefined ? 'n/a' : fmtRatio(raw.ratio)}; plain mcp-fusion ${plain === undefined ? 'n/a' : fmtRatio(plain.ratio)}; the floor (low-level Server, no validation) ${floor === undefined ? 'n/a' : fmtRatio(floor.ratio)}.`,
    });
  }
  const list = find(LIST_CLIENT, 'N=1,000', 'mcp-fusion + State Sync + FSM gate');
  const listRaw = find(LIST_RAW, 'N=1,000', 'mcp-fusion + State Sync + FSM gate');
  if (list !== undefined && listRaw !== undefined) {
    const floor = find(LIST_CLIENT, 'N=1,000', 'floor: v2 low-level Server, precomputed list');
    const floorRaw = find(LIST_RAW, 'N=1,000', 'floor: v2 low-level Server, precomputed list');
    out.push({
      target: 'tools/list at N = 1,000 with decoration and gating ≤ 0.06×',
      met: listRaw.ratio <= 0.06 && list.ratio <= 0.06,
      profile: '2. tools/list',
      text: `server side (raw JSON-RPC) ${fmt(listRaw.value)} µs = **${fmtRatio(listRaw.ratio)}** (floor ${floorRaw === undefined ? 'n/a' : fmtRatio(floorRaw.ratio)}); through the SDK v2 Client ${fmt(list.value)} µs = **${fmtRatio(list.ratio)}**, where the floor alone is ${floor === undefined ? 'n/a' : `${fmt(floor.value)} µs = ${fmtRatio(floor.ratio)}`}: the client's own validation of the listed tools bounds this ratio.`,
    });
  }
  const attach = find(CALL_LATENCY, MODERN_FETCH, ATTACH_ONLY);
  const app = find(CALL_LATENCY, MODERN_FETCH, 'mcp-fusion');
  if (attach !== undefined && app !== undefined) {
    out.push({
      target: `Modern era, one request at N = 1,000, per-request attach included ≤ 0.05× the SDK's factory${quick ? ' (quick run: measured at N = 100)' : ''}`,
      met: Math.max(attach.ratio, app.ratio) <= 0.05,
      text: `per-request Server + attachToServer ${fmt(attach.value)} µs = **${fmtRatio(attach.ratio)}**; through the whole createFusionApp ${fmt(app.value)} µs = **${fmtRatio(app.ratio)}** (the factory: ${fmt(attach.value / attach.ratio)} µs).`,
    });
  }
  const warm = rows.filter((r) => r.table === POLICY && r.contender.startsWith('warm'));
  const cold = rows.filter((r) => r.table === POLICY && r.contender === 'cold: no policy matches');
  if (warm.length > 0 && cold.length > 1) {
    const worstWarm = Math.max(...warm.map((r) => r.value));
    const warmSpread = Math.max(...warm.filter((r) => r.contender === warm[0]!.contender).map((r) => r.value)) / Math.min(...warm.filter((r) => r.contender === warm[0]!.contender).map((r) => r.value));
    out.push({
      target: 'Policy resolution warm: O(1), under 100 ns median',
      met: worstWarm < 100 && warmSpread < 2,
      text: `warm at most **${fmt(worstWarm)} ns** (10 → 1,000 policies: ×${warmSpread.toFixed(2)}); cold ${cold.map((r) => `${fmt(r.value)} ns at ${r.column}`).join(', ')} (indexed by first segment: a name tests only the policies that can match it).`,
    });
  }
  const attachCold = rows.find((r) => r.table === ATTACH_POLICIES && r.contender === ATTACH_INDEXED);
  if (attachCold !== undefined) {
    out.push({
      target: `Cold policy resolution at attach time, 10,000 tools × 1,000 policies < 0.5 s${quick ? ' (quick run: measured at 2,000 × 200)' : ''}`,
      met: attachCold.value < 500,
      text: `${attachCold.column}: **${fmt(attachCold.value)} ms** (resolution, overlap detection and pattern checks) = ${fmtRatio(attachCold.ratio)} the direct way.`,
    });
  }
  const sessions = rows.filter((r) => r.table === MEMORY_SESSIONS && r.contender.startsWith('mcp-fusion'));
  if (sessions.length > 0) {
    const worst = Math.max(...sessions.map((r) => r.value));
    out.push({
      target: 'Idle legacy session ≤ 20 KB of heap with the in-memory stores',
      met: worst <= 20,
      text: `${sessions.map((r) => `${r.contender}: **${fmt(r.value)} KB** (${fmtRatio(r.ratio)} the bare SDK's)`).join('; ')}.`,
    });
  }
  return out;
}

const cpus = os.cpus();
const header = [
  `- Machine: ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`,
  `- Node ${process.version}; @modelcontextprotocol/server, /client 2.4, /node 2.1, v1 @modelcontextprotocol/sdk 1.x; mcp-fusion compiled (dist/, built by npm run bench), the bench itself through tsx`,
  `- Date: ${new Date().toISOString()}; duration ${minutes.toFixed(1)} min; load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}${quick ? '; **quick smoke run** (fewer sizes and samples: not for conclusions)' : ''}`,
].join('\n');
const targetLines = verdicts().flatMap((v) => [
  `### ${v.target} — ${v.met === true ? 'met' : v.met === false ? 'missed' : 'n/a'}`,
  '',
  v.text,
  ...(v.profile !== undefined && v.met === false ? ['', `Why, and the fixes: [PROFILE.md, section "${v.profile}"](PROFILE.md).`] : []),
  '',
]);
const report = [
  '# mcp-fusion benchmark results',
  '',
  header,
  '',
  'Every ratio is against the bare SDK v2 `McpServer.registerTool` in the same case and the same run (below 1 is faster, except for calls/s); contenders alternate every round. The SDK v1 `McpServer` is a second reference row; the "floor" rows are a low-level v2 `Server` answering from precomputed data without argument validation: the SDK\'s own message handling, which no framework on it can go below.',
  '',
  '## Targets',
  '',
  'Profiles of the misses, the SDK floor and the fixes (applied and recommended): [bench/PROFILE.md](PROFILE.md).',
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
