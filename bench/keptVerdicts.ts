/**
 * Goals kept from earlier rounds (issue #24's that issue #34 does not restate, and round one's), each with
 * its verdict from this run's rows.
 */
import { ATTACH_ONLY, BARE, CALL_LATENCY, FLOOR, LEGACY_RAW, MODERN_FETCH, PLAIN, SYNC } from './call.js';
import { fmt, fmtRatio } from './harness.js';
import { LIST_CLIENT, LIST_RAW } from './list.js';
import { MEMORY_SESSIONS } from './memory.js';
import { ATTACH_INDEXED, ATTACH_POLICIES, POLICY } from './policy.js';
import { notMeasured, preciseRatio, ratioOf, valueOf, type Rows, type Verdict } from './verdicts.js';

/** The kept goals, issue #24's first. */
export function keptVerdicts(rows: Rows, quick: boolean): Verdict[] {
  const callN = quick ? ' (quick run: 100 tools)' : '';
  const out: Verdict[] = [];
  const floorRaw = rows.find(CALL_LATENCY, LEGACY_RAW, FLOOR);

  const plainRaw = rows.find(CALL_LATENCY, LEGACY_RAW, PLAIN);
  const bareRaw = rows.find(CALL_LATENCY, LEGACY_RAW, BARE);
  const target1 = 'tools/call server side (raw JSON-RPC, in-memory), plain';
  if (plainRaw === undefined) out.push(notMeasured(target1, '≤ 1.00×', 'call', 'kept'));
  else
    out.push({
      group: 'kept',
      target: `${target1}${callN}`,
      goal: '≤ 1.00×',
      measured: `${fmt(plainRaw.value)} µs = ${preciseRatio(plainRaw.ratio)}`,
      met: plainRaw.ratio <= 1.0,
      profile: '1. tools/call',
      text: `${valueOf(plainRaw)} the bare SDK's ${bareRaw === undefined ? 'n/a' : `${fmt(bareRaw.value)} µs`} (median, sequential, legacy era); the floor (low-level Server, no validation) ${ratioOf(floorRaw)}.`,
    });
  const syncRaw = rows.find(CALL_LATENCY, LEGACY_RAW, SYNC);
  const target2 = 'tools/call server side with a State Sync invalidation';
  if (syncRaw === undefined) out.push(notMeasured(target2, '≤ 1.10×', 'call', 'kept'));
  else
    out.push({
      group: 'kept',
      target: `${target2}${callN}`,
      goal: '≤ 1.10×',
      measured: `${fmt(syncRaw.value)} µs = ${preciseRatio(syncRaw.ratio)}`,
      met: syncRaw.ratio <= 1.1,
      profile: '1. tools/call',
      text: `${valueOf(syncRaw)} (raw JSON-RPC, legacy, in-memory); plain mcp-fusion ${ratioOf(plainRaw)}, a difference of ${plainRaw === undefined ? 'n/a' : `${fmt(syncRaw.value - plainRaw.value)} µs`}: State Sync's decoration and bookkeeping (a compiled decorator per tool, about 0.2 µs) plus the SDK validating the larger result (the signal block and \`_meta\`).`,
    });
  const attachCold = rows.all.find((r) => r.table === ATTACH_POLICIES && r.contender === ATTACH_INDEXED);
  const target6 = 'cold policy resolution (attach time), 10,000 tools × 1,000 policies';
  if (attachCold === undefined) out.push(notMeasured(target6, '< 0.5 s', 'policy', 'kept'));
  else
    out.push({
      group: 'kept',
      target: `${target6}${quick ? ' (quick run: measured at 2,000 × 200)' : ''}`,
      goal: '< 0.5 s',
      measured: `${fmt(attachCold.value)} ms`,
      met: attachCold.value < 500,
      profile: 'Policy resolution: met, and the startup cost removed',
      text: `${attachCold.column}: **${fmt(attachCold.value)} ms** (resolution, overlap detection and pattern checks) = ${preciseRatio(attachCold.ratio)} the direct way.`,
    });

  // Kept from round one: goals the issue does not restate, still worth watching.
  const attach = rows.find(CALL_LATENCY, MODERN_FETCH, ATTACH_ONLY);
  const app = rows.find(CALL_LATENCY, MODERN_FETCH, PLAIN);
  if (attach !== undefined && app !== undefined) {
    out.push({
      group: 'kept',
      target: `Modern era, one request at N = 1,000, per-request attach included${quick ? ' (quick run: measured at N = 100)' : ''}`,
      goal: "≤ 0.05× the SDK's factory",
      measured: `${preciseRatio(attach.ratio)} / ${preciseRatio(app.ratio)}`,
      met: Math.max(attach.ratio, app.ratio) <= 0.05,
      text: `per-request Server + attachToServer ${fmt(attach.value)} µs = **${preciseRatio(attach.ratio)}**; through the whole createFusionApp ${fmt(app.value)} µs = **${preciseRatio(app.ratio)}** (the factory: ${fmt(attach.value / attach.ratio)} µs).`,
    });
  }
  const list = rows.find(LIST_CLIENT, 'N=1,000', 'mcp-fusion + State Sync + FSM gate');
  const listRaw = rows.find(LIST_RAW, 'N=1,000', 'mcp-fusion + State Sync + FSM gate');
  if (list !== undefined && listRaw !== undefined) {
    const floor = rows.find(LIST_CLIENT, 'N=1,000', 'floor: v2 low-level Server, precomputed list');
    const floorListRaw = rows.find(LIST_RAW, 'N=1,000', 'floor: v2 low-level Server, precomputed list');
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
  const warm = rows.all.filter((r) => r.table === POLICY && r.contender.startsWith('warm'));
  const cold = rows.all.filter((r) => r.table === POLICY && r.contender === 'cold: no policy matches');
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
  const sessions = rows.all.filter((r) => r.table === MEMORY_SESSIONS && r.contender.startsWith('mcp-fusion'));
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
