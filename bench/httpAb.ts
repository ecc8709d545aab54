/**
 * A/B of the legacy HTTP leg: `npx tsx --tsconfig bench/tsconfig.json bench/httpAb.ts [rounds] [sliceMs] [kinds] [--sessions=1,50] [--prof=<dir>]`. Starts each
 * kind (default `v2-sessions,fusion`) in a child process and drives them alternately with 1 and 50 sessions
 * of sequential tools/call; prints calls/s, p50 and p99 per kind and the ratio against the first kind.
 * `--prof=<dir>` runs the children under `--cpu-prof` (profiles written to <dir> when they exit).
 * `--era=modern` drives every kind with stateless 2026-07-28 requests instead of sessions; a kind's own
 * `:legacy` / `:modern` suffix overrides it, e.g. `v2-sessions:legacy,fusion:modern,fusion@/work/main:modern,floor`.
 */
import { existsSync } from 'node:fs';
import { quantile } from './harness.js';
import {
  closeConnections,
  drive,
  HTTP_N,
  openClient,
  startChild,
  type Cell,
  type Era,
  type Kind,
  type Server,
} from './http.js';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const prof = process.argv.find((a) => a.startsWith('--prof='))?.slice('--prof='.length);
const rounds = Number(args[0] ?? 4);
const sliceMs = Number(args[1] ?? 1000);
// `fusion@/path/to/checkout`: the fusion server of another checkout (built), e.g. the commit before a change.
const kinds = (args[2] ?? 'v2-sessions,fusion').split(',');
const sessionCounts = (process.argv.find((a) => a.startsWith('--sessions='))?.slice('--sessions='.length) ?? '1,50')
  .split(',')
  .map(Number);
const era = (process.argv.find((a) => a.startsWith('--era='))?.slice('--era='.length) ?? 'legacy') as Era;

const servers: Server[] = [];
const eras: Era[] = [];
for (const spec of kinds) {
  const [named, suffix] = spec.split(':') as [string, Era | undefined];
  eras.push(suffix ?? era);
  const [kind, tree] = named.split('@') as [Kind, string | undefined];
  servers.push(
    await startChild(
      kind,
      HTTP_N,
      prof === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${prof}`],
      tree === undefined
        ? undefined
        : existsSync(`${tree}/bench/httpServe.ts`)
          ? `${tree}/bench/httpServe.ts`
          : `${tree}/bench/http.ts`,
    ),
  );
}
try {
  for (const sessions of sessionCounts) {
    const clients = await Promise.all(
      servers.map((s, i) => Promise.all(Array.from({ length: sessions }, () => openClient(s.port, eras[i]!)))),
    );
    for (const c of clients) await drive(c, 300, { latencies: [], calls: 0, ms: 0 });
    const cells: Cell[] = servers.map(() => ({ latencies: [], calls: 0, ms: 0 }));
    // Per round: each kind's calls/s and CPU µs/call, for the median of the per-round ratios (robust to load drift).
    const perRound: Array<Array<{ rate: number; cpu: number }>> = [];
    for (let r = 0; r < rounds; r++) {
      const round: Array<{ rate: number; cpu: number }> = [];
      for (let k = 0; k < servers.length; k++) {
        const i = (k + r) % servers.length;
        const one: Cell = { latencies: [], calls: 0, ms: 0 };
        await drive(clients[i]!, sliceMs, one, servers[i]);
        cells[i]!.latencies.push(...one.latencies);
        cells[i]!.calls += one.calls;
        cells[i]!.ms += one.ms;
        cells[i]!.cpuUs = (cells[i]!.cpuUs ?? 0) + one.cpuUs!;
        round[i] = { rate: one.calls / (one.ms / 1000), cpu: one.cpuUs! / one.calls };
      }
      perRound.push(round);
    }
    const median = (xs: number[]) => quantile(xs, 0.5);
    const rate = (c: Cell) => c.calls / (c.ms / 1000);
    for (let i = 0; i < servers.length; i++) {
      const c = cells[i]!;
      console.log(
        `median of per-round ratios: calls/s ${median(perRound.map((r) => r[i]!.rate / r[0]!.rate)).toFixed(2)}×, CPU/call ${median(perRound.map((r) => r[i]!.cpu / r[0]!.cpu)).toFixed(2)}× | ` +
          `${String(sessions).padStart(2)} sessions ${kinds[i]!.padEnd(12)} ${rate(c).toFixed(0).padStart(6)} calls/s (${(rate(c) / rate(cells[0]!)).toFixed(2)}×)  p50 ${(quantile(c.latencies, 0.5) / 1000).toFixed(2)} ms  p99 ${(quantile(c.latencies, 0.99) / 1000).toFixed(2)} ms (${(quantile(c.latencies, 0.99) / quantile(cells[0]!.latencies, 0.99)).toFixed(2)}×)  ${c.calls} calls  server CPU ${(c.cpuUs! / c.calls).toFixed(0)} µs/call (${(c.cpuUs! / c.calls / (cells[0]!.cpuUs! / cells[0]!.calls)).toFixed(2)}×)`,
      );
    }
  }
} finally {
  for (const s of servers) {
    s.child.removeAllListeners('exit');
    s.child.stdin!.end();
  }
  closeConnections();
}
