/**
 * `npm run bench` — mcp-fusion against the bare SDK, side by side in one process (HTTP servers and heap
 * measurements in child processes). `-- --quick` is the CI smoke run; `-- --only=list,call` runs some
 * sections (`redis` prints Redis commands per call of each kind; `workers`, plain calls on the front while 50 CPU-heavy
 * tasks run on BullMQ workers, runs only when named there); `-- --long` (or BENCH_LONG=1) measures the load rows
 * (64 in flight, HTTP) over more and longer slices, so that three runs give the same verdicts. The full run
 * (without --only) writes bench/RESULTS.md. `-- --peers` runs only the peer frameworks' comparison (bench/peers.ts,
 * docs/performance.md), installing them under bench/peers/ on first use; `-- --peers --quick` is its short run.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callSection } from './call.js';
import { consoleSection } from './console.js';
import { detail } from './harness.js';
import { httpSection } from './http.js';
import { keptVerdicts } from './keptVerdicts.js';
import { listSection } from './list.js';
import { memorySection } from './memory.js';
import { policySection } from './policy.js';
import { redisSection } from './redis.js';
import { registryScaleSection } from './registryScale.js';
import { scaleSection } from './scale.js';
import { tasksSection } from './tasks.js';
import { workersSection } from './workers.js';
import { nodeHandlerSection } from './nodeHandler.js';
import { issueVerdicts, Rows, type Verdict } from './verdicts.js';
import type { Section, SectionOptions } from './section.js';

const quick = process.argv.includes('--quick');
if (process.argv.includes('--peers')) {
  // The peers run (bench/peers.ts) is its own report: the other MCP frameworks, installed under bench/peers/.
  // `--tables=main,1000,list,redis`: only those tables (all of them by default; the main one with --quick).
  const tables = process.argv
    .find((a) => a.startsWith('--tables='))
    ?.slice('--tables='.length)
    .split(',');
  await (await import('./peers.js')).peersMain(quick, (line) => process.stderr.write(`${line}\n`), tables);
  process.exit(0);
}
const long = !quick && (process.argv.includes('--long') || process.env.BENCH_LONG === '1');
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const options: SectionOptions = { quick, long, log: (line) => process.stderr.write(`${line}\n`) };

const SECTIONS: Record<string, (o: SectionOptions) => Promise<Section>> = {
  policy: policySection,
  list: listSection,
  call: callSection,
  'scale-sync': registryScaleSection,
  http: httpSection,
  // A section is one line here: a module exporting `(o: SectionOptions) => Promise<Section>`; its verdicts go
  // to bench/verdicts.ts (issueVerdicts) by their row names.
  'node-handler': nodeHandlerSection,
  memory: memorySection,
  redis: redisSection,
  scale: scaleSection,
  console: consoleSection,
  tasks: tasksSection,
  workers: workersSection,
};
/** Sections that run only when named in `--only` (several processes and a redis-server; about a minute). */
const OPT_IN = new Set(['workers']);

const started = performance.now();
const loadAtStart = os.loadavg();
/** The file `mcp-fusion` resolves to here: the compiled package (dist/), not src/. */
const measured = relative(process.cwd(), fileURLToPath(import.meta.resolve('mcp-fusion')));
const sections: Section[] = [];
for (const [name, run] of Object.entries(SECTIONS)) {
  if (only === undefined ? OPT_IN.has(name) : !only.includes(name)) continue;
  options.log(`${name}…`);
  const t0 = performance.now();
  sections.push(await run(options));
  options.log(`  ${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
const rows = sections.flatMap((s) => s.rows);
const minutes = (performance.now() - started) / 60_000;

const rowsOf = new Rows(rows);

const cpus = os.cpus();
const header = [
  `- Machine: ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`,
  `- Node ${process.version}; @modelcontextprotocol/server, /client 2.4, /node 2.1, v1 @modelcontextprotocol/sdk 1.x`,
  `- Package measured: the compiled mcp-fusion, \`${measured}\` (dist/, built by \`npm run bench\` first); the bench files themselves run through tsx`,
  `- Date: ${new Date().toISOString()}; duration ${minutes.toFixed(1)} min${long ? ' (**long mode**: load rows over more and longer slices)' : ''}; load average (1 / 5 / 15 min) at the start ${loadAtStart.map((l) => l.toFixed(1)).join(' / ')}, at the end ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')}${quick ? '; **quick smoke run** (fewer sizes and samples: not for conclusions)' : ''}`,
].join('\n');
const all = [...issueVerdicts(rowsOf, quick), ...keptVerdicts(rowsOf, quick)];
const verdictWord = (v: Verdict): string =>
  v.met === true ? 'met' : v.met === false ? 'missed' : v.measured === 'not measured' ? 'n/a' : 'not settled';
const summary = (group: Verdict['group']): string[] => [
  '| goal | measured | target | verdict |',
  '|---|---|---|---|',
  ...all
    .filter((v) => v.group === group)
    .map((v) => `| ${v.target} | ${v.measured} | ${v.goal} | ${v.met === false ? '**missed**' : verdictWord(v)} |`),
];
const details = (group: Verdict['group']): string[] =>
  all
    .filter((v) => v.group === group)
    .flatMap((v) => [
      `#### ${v.target} (${v.goal}) — ${verdictWord(v)}`,
      '',
      v.text,
      ...(v.profile !== undefined && v.met === false
        ? ['', `Why, and the fixes: [PROFILE.md, section "${v.profile}"](PROFILE.md).`]
        : []),
      '',
    ]);
const targetLines = [
  '### Issue #34: both eras over HTTP, the floor, State Sync at registry scale',
  '',
  ...summary('issue'),
  '',
  ...details('issue'),
  '### Kept from earlier rounds',
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
  'Every goal is reported with its verdict (a miss does not fail the run; "not settled": the 95 % confidence interval of a ratio straddles its goal, so another run may flip it). Profiles of the misses, the SDK floor and the fixes (applied and recommended): [bench/PROFILE.md](PROFILE.md).',
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
