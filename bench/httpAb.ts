/**
 * A/B of the legacy HTTP leg: `npx tsx bench/httpAb.ts [rounds] [sliceMs] [kinds] [--prof=<dir>]`. Starts each
 * kind (default `v2-sessions,fusion`) in a child process and drives them alternately with 1 and 50 sessions
 * of sequential tools/call; prints calls/s, p50 and p99 per kind and the ratio against the first kind.
 * `--prof=<dir>` runs the children under `--cpu-prof` (profiles written to <dir> when they exit).
 */
import { quantile } from './harness.js';
import { agent, drive, HTTP_N, openClient, startChild, type Cell, type Kind, type Server } from './http.js';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const prof = process.argv.find((a) => a.startsWith('--prof='))?.slice('--prof='.length);
const rounds = Number(args[0] ?? 4);
const sliceMs = Number(args[1] ?? 1000);
const kinds = (args[2] ?? 'v2-sessions,fusion').split(',') as Kind[];
const sessionCounts = (process.argv.find((a) => a.startsWith('--sessions='))?.slice('--sessions='.length) ?? '1,50').split(',').map(Number);

const servers: Server[] = [];
for (const kind of kinds) servers.push(await startChild(kind, HTTP_N, prof === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${prof}`]));
try {
  for (const sessions of sessionCounts) {
    const clients = await Promise.all(servers.map((s) => Promise.all(Array.from({ length: sessions }, () => openClient(s.port, 'legacy')))));
    for (const c of clients) await drive(c, 300, { latencies: [], calls: 0, ms: 0 });
    const cells: Cell[] = servers.map(() => ({ latencies: [], calls: 0, ms: 0 }));
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < servers.length; k++) {
        const i = (k + r) % servers.length;
        await drive(clients[i]!, sliceMs, cells[i]!, servers[i]);
      }
    }
    const rate = (c: Cell) => c.calls / (c.ms / 1000);
    for (let i = 0; i < servers.length; i++) {
      const c = cells[i]!;
      console.log(
        `${String(sessions).padStart(2)} sessions ${kinds[i]!.padEnd(12)} ${rate(c).toFixed(0).padStart(6)} calls/s (${(rate(c) / rate(cells[0]!)).toFixed(2)}×)  p50 ${(quantile(c.latencies, 0.5) / 1000).toFixed(2)} ms  p99 ${(quantile(c.latencies, 0.99) / 1000).toFixed(2)} ms (${(quantile(c.latencies, 0.99) / quantile(cells[0]!.latencies, 0.99)).toFixed(2)}×)  ${c.calls} calls  server CPU ${(c.cpuUs! / c.calls).toFixed(0)} µs/call (${(c.cpuUs! / c.calls / (cells[0]!.cpuUs! / cells[0]!.calls)).toFixed(2)}×)`,
      );
    }
  }
} finally {
  for (const s of servers) {
    s.child.removeAllListeners('exit');
    s.child.stdin!.end();
  }
  agent.destroy();
}
