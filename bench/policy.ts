import { detectOverlaps, matchGlob, type SyncPolicy } from 'mcp-fusion';
import { PolicyEngine } from 'mcp-fusion/advanced';
import { compileGlob, globCovers, stateSyncWarnings } from './internals.js';
import { fmt, quantile, type Row } from './harness.js';
import type { Section, SectionOptions } from './section.js';

export const POLICY = 'State Sync policy resolution';
export const GLOB = 'matchGlob';
export const ATTACH_POLICIES = 'State Sync at attach time';
export const ATTACH_INDEXED = 'mcp-fusion: compiled globs, indexed by first segment';

let sink = 0;

/** ns per operation: the median over `batches` timed batches of `perBatch` calls of `op(i)`. */
function nsPerOp(op: (i: number) => unknown, batches: number, perBatch: number): { median: number; p99: number } {
  for (let i = 0; i < perBatch; i++) sink ^= op(i) === null ? 1 : 0;
  const samples: number[] = [];
  let i = 0;
  for (let b = 0; b < batches; b++) {
    const t0 = process.hrtime.bigint();
    for (let k = 0; k < perBatch; k++) sink ^= op(i++) === null ? 1 : 0;
    samples.push(Number(process.hrtime.bigint() - t0) / perBatch);
  }
  return { median: quantile(samples, 0.5), p99: quantile(samples, 0.99) };
}

/** `ns<i>.*` for i < p: every name resolves after scanning up to p globs. */
function policies(p: number): SyncPolicy[] {
  return Array.from({ length: p }, (_, i) => ({
    match: `ns${i}.*`,
    cacheControl: i % 2 === 0 ? 'no-store' : 'immutable',
  }));
}

/**
 * Policy resolution: warm (cached, the per-call path) and cold (first resolution: a first-match scan),
 * for 10, 100 and 1,000 policies, and glob matching on its own.
 */
export async function policySection({ quick, log }: SectionOptions): Promise<Section> {
  log('  policy resolution');
  const counts = quick ? [10, 1000] : [10, 100, 1000];
  const batches = quick ? 20 : 100;
  const rows: Row[] = [];
  const push = (contender: string, column: string, m: { median: number; p99: number }, samples: number): void => {
    rows.push({ table: POLICY, column, contender, value: m.median, p99: m.p99, ratio: 1, samples, unit: 'ns' });
  };
  for (const p of counts) {
    const column = `${p.toLocaleString('en-US')} policies`;
    const engine = new PolicyEngine(policies(p));
    const last = `ns${p - 1}.list`;
    engine.resolve(last);
    push(
      'warm: one cached name',
      column,
      nsPerOp(() => engine.resolve(last), batches, 20_000),
      batches,
    );
    const rotating = Array.from({ length: 1000 }, (_, i) => `ns${i % p}.tool${i}`);
    for (const name of rotating) engine.resolve(name);
    push(
      'warm: 1,000 cached names in turn',
      column,
      nsPerOp((i) => engine.resolve(rotating[i % 1000]!), batches, 20_000),
      batches,
    );
    // Cold: names never seen, so each resolution scans the policies. The cache is bounded (full
    // eviction on overflow), so the names are fresh strings made before timing.
    const perBatch = Math.max(10, Math.round(10_000 / p));
    const coldBatches = quick ? 5 : 30;
    const fresh = (prefix: string) => Array.from({ length: perBatch * (coldBatches + 1) }, (_, i) => `${prefix}.t${i}`);
    const lastNames = fresh(`ns${p - 1}`);
    const coldEngine = new PolicyEngine(policies(p));
    push(
      'cold: matched by the last policy',
      column,
      nsPerOp((i) => coldEngine.resolve(lastNames[i]!), coldBatches, perBatch),
      coldBatches,
    );
    const noneNames = fresh('other');
    const noneEngine = new PolicyEngine(policies(p));
    push(
      'cold: no policy matches',
      column,
      nsPerOp((i) => noneEngine.resolve(noneNames[i]!), coldBatches, perBatch),
      coldBatches,
    );
  }
  const globs: Array<[string, string, string]> = [
    ['identical name', 'sprints.list', 'sprints.list'],
    ['`sprints.*` vs `sprints.get`', 'sprints.*', 'sprints.get'],
    ['`sprints.*` vs `tasks.get` (miss)', 'sprints.*', 'tasks.get'],
    ['`**.get` vs `a.b.c.get`', '**.get', 'a.b.c.get'],
    ['`a.**.z` vs `a.b.c.d.e.z`', 'a.**.z', 'a.b.c.d.e.z'],
  ];
  for (const [label, pattern, name] of globs) {
    const direct = nsPerOp(() => (matchGlob(pattern, name) ? 1 : null), batches, 20_000);
    const glob = compileGlob(pattern);
    const compiled = nsPerOp(() => (glob.test(name) ? 1 : null), batches, 20_000);
    rows.push({
      table: GLOB,
      column: 'matchGlob',
      contender: label,
      ...toValue(direct),
      ratio: 1,
      samples: batches,
      unit: 'ns',
    });
    rows.push({
      table: GLOB,
      column: 'compiled',
      contender: label,
      ...toValue(compiled),
      ratio: compiled.median / direct.median,
      samples: batches,
      unit: 'ns',
    });
  }
  rows.push(...attachRows(quick));
  if (sink === 42) log('');

  const columns = [...new Set(rows.filter((r) => r.table === POLICY).map((r) => r.column))];
  const names = [...new Set(rows.filter((r) => r.table === POLICY).map((r) => r.contender))];
  const cell = (name: string, col: string) =>
    rows.find((r) => r.table === POLICY && r.contender === name && r.column === col)!;
  const lines = [`| median ns per resolve | ${columns.join(' | ')} |`, `|---|${columns.map(() => '---:').join('|')}|`];
  for (const name of names) lines.push(`| ${name} | ${columns.map((c) => fmt(cell(name, c).value)).join(' | ')} |`);
  lines.push(
    `| cold, no match: ns per policy scanned | ${columns.map((c) => fmt(cell('cold: no policy matches', c).value / Number(c.split(' ')[0]!.replace(/,/g, '')))).join(' | ')} |`,
  );
  const attach = rows.filter((r) => r.table === ATTACH_POLICIES);
  const attachLines = [
    '| tools × policies | contender | ms | ratio |',
    '|---|---|---:|---:|',
    ...attach.map((r) => `| ${r.column} | ${r.contender} | ${fmt(r.value)} | ${r.ratio.toFixed(3)}× |`),
  ];
  const globRows = rows.filter((r) => r.table === GLOB && r.column === 'compiled');
  const globCell = (label: string) =>
    rows.find((r) => r.table === GLOB && r.column === 'matchGlob' && r.contender === label)!;
  const globLines = [
    '| pattern vs name | `matchGlob` ns | `compileGlob(p).test` ns | ratio |',
    '|---|---:|---:|---:|',
    ...globRows.map(
      (r) => `| ${r.contender} | ${fmt(globCell(r.contender).value)} | ${fmt(r.value)} | ${r.ratio.toFixed(3)}× |`,
    ),
  ];
  const markdown = [
    `### ${POLICY}`,
    '',
    '`PolicyEngine.resolve(name)` over `ns<i>.*` policies, first match wins. Warm: the name is in the resolution cache (what every call pays). Cold: a name never seen, resolved by scanning the policies in order; State Sync resolves every registered tool once, at attach time, so the cold path is a build-time cost. Median of timed batches.',
    '',
    lines.join('\n'),
    '',
    `### ${ATTACH_POLICIES}`,
    '',
    'What attaching a registry costs State Sync: every tool resolved once (first match wins), shadowed policies detected, and every pattern checked against the registered tools. The reference is the same work done the direct way (each name scanned against every policy with `matchGlob`, every pair of policies compared), in the same process.',
    '',
    attachLines.join('\n'),
    '',
    `### ${GLOB}`,
    '',
    globLines.join('\n'),
  ].join('\n');
  return { title: 'Policy resolution', markdown, rows };
}

/** Attach-time State Sync work for `tools` names over `policies` `ns<i>.*` policies: indexed against the direct way. */
function attachRows(quick: boolean): Row[] {
  const [tools, count] = quick ? [2_000, 200] : [10_000, 1_000];
  const column = `${tools.toLocaleString('en-US')} × ${count.toLocaleString('en-US')}`;
  const list = policies(count);
  const names = Array.from({ length: tools }, (_, i) => `ns${(i * 7) % count}.t${i}`);
  const indexed = timeMs(() => {
    const engine = new PolicyEngine(list);
    for (const n of names) engine.resolve(n);
    stateSyncWarnings({ policies: list }, new Map(), names);
  });
  const direct = timeMs(() => {
    for (const n of names) sink ^= list.findIndex((p) => matchGlob(p.match, n));
    list.forEach(
      (later, j) => (sink ^= list.findIndex((earlier, k) => k < j && globCovers(earlier.match, later.match))),
    );
    for (const p of list) sink ^= names.some((n) => matchGlob(p.match, n)) ? 1 : 0;
  });
  if (detectOverlaps(list).length !== 0) throw new Error('bench policies must not overlap');
  const row = (contender: string, value: number): Row => ({
    table: ATTACH_POLICIES,
    column,
    contender,
    value,
    p99: value,
    ratio: value / direct,
    samples: 1,
    unit: 'ms',
  });
  return [row(ATTACH_INDEXED, indexed), row('direct: every name × every policy', direct)];
}

function timeMs(run: () => void): number {
  const t0 = performance.now();
  run();
  return performance.now() - t0;
}

function toValue(m: { median: number; p99: number }): { value: number; p99: number } {
  return { value: m.median, p99: m.p99 };
}
