import { matchGlob, PolicyEngine, type SyncPolicy } from '../src/index.js';
import { fmt, quantile, type Row } from './harness.js';
import type { Section, SectionOptions } from './section.js';

export const POLICY = 'State Sync policy resolution';
export const GLOB = 'matchGlob';

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
  return Array.from({ length: p }, (_, i) => ({ match: `ns${i}.*`, cacheControl: i % 2 === 0 ? 'no-store' : 'immutable' }));
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
    push('warm: one cached name', column, nsPerOp(() => engine.resolve(last), batches, 20_000), batches);
    const rotating = Array.from({ length: 1000 }, (_, i) => `ns${i % p}.tool${i}`);
    for (const name of rotating) engine.resolve(name);
    push('warm: 1,000 cached names in turn', column, nsPerOp((i) => engine.resolve(rotating[i % 1000]!), batches, 20_000), batches);
    // Cold: names never seen, so each resolution scans the policies. The cache is bounded (full
    // eviction on overflow), so the names are fresh strings made before timing.
    const perBatch = Math.max(10, Math.round(10_000 / p));
    const coldBatches = quick ? 5 : 30;
    const fresh = (prefix: string) => Array.from({ length: perBatch * (coldBatches + 1) }, (_, i) => `${prefix}.t${i}`);
    const lastNames = fresh(`ns${p - 1}`);
    const coldEngine = new PolicyEngine(policies(p));
    push('cold: matched by the last policy', column, nsPerOp((i) => coldEngine.resolve(lastNames[i]!), coldBatches, perBatch), coldBatches);
    const noneNames = fresh('other');
    const noneEngine = new PolicyEngine(policies(p));
    push('cold: no policy matches', column, nsPerOp((i) => noneEngine.resolve(noneNames[i]!), coldBatches, perBatch), coldBatches);
  }
  const globs: Array<[string, string, string]> = [
    ['identical name', 'sprints.list', 'sprints.list'],
    ['`sprints.*` vs `sprints.get`', 'sprints.*', 'sprints.get'],
    ['`sprints.*` vs `tasks.get` (miss)', 'sprints.*', 'tasks.get'],
    ['`**.get` vs `a.b.c.get`', '**.get', 'a.b.c.get'],
    ['`a.**.z` vs `a.b.c.d.e.z`', 'a.**.z', 'a.b.c.d.e.z'],
  ];
  for (const [label, pattern, name] of globs) {
    rows.push({ table: GLOB, column: 'ns per call', contender: label, ...toValue(nsPerOp(() => (matchGlob(pattern, name) ? 1 : null), batches, 20_000)), ratio: 1, samples: batches, unit: 'ns' });
  }
  if (sink === 42) log('');

  const columns = [...new Set(rows.filter((r) => r.table === POLICY).map((r) => r.column))];
  const names = [...new Set(rows.filter((r) => r.table === POLICY).map((r) => r.contender))];
  const cell = (name: string, col: string) => rows.find((r) => r.table === POLICY && r.contender === name && r.column === col)!;
  const lines = [`| median ns per resolve | ${columns.join(' | ')} |`, `|---|${columns.map(() => '---:').join('|')}|`];
  for (const name of names) lines.push(`| ${name} | ${columns.map((c) => fmt(cell(name, c).value)).join(' | ')} |`);
  lines.push(`| cold, no match: ns per policy scanned | ${columns.map((c) => fmt(cell('cold: no policy matches', c).value / Number(c.split(' ')[0]!.replace(/,/g, '')))).join(' | ')} |`);
  const globLines = ['| pattern vs name | median ns |', '|---|---:|', ...rows.filter((r) => r.table === GLOB).map((r) => `| ${r.contender} | ${fmt(r.value)} |`)];
  const markdown = [
    `### ${POLICY}`,
    '',
    '`PolicyEngine.resolve(name)` over `ns<i>.*` policies, first match wins. Warm: the name is in the resolution cache (what every call pays). Cold: a name never seen, resolved by scanning the policies in order; State Sync resolves every registered tool once, at attach time, so the cold path is a build-time cost. Median of timed batches.',
    '',
    lines.join('\n'),
    '',
    `### ${GLOB}`,
    '',
    globLines.join('\n'),
  ].join('\n');
  return { title: 'Policy resolution', markdown, rows };
}

function toValue(m: { median: number; p99: number }): { value: number; p99: number } {
  return { value: m.median, p99: m.p99 };
}
