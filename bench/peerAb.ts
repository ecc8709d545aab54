/**
 * A/B of server CPU per request under the peers benchmark's mix (bench/peerClient.ts: every `listEvery`-th request a
 * `tools/list`): `npx tsx --tsconfig bench/tsconfig.json bench/peerAb.ts <kinds> [rounds] [sliceMs] [clients] [n] [listEvery]`,
 * a kind as in bench/peerServe.ts with an optional era and checkout, e.g. `fusion:legacy,fusion@/tmp/before:legacy,floor`
 * (`@<dir>`: that checkout's bench/peerServe.ts, built; `fusion+sdk-patch`: on the SDK with bench/sdk-per-message.patch,
 * bench/sdkPatch.ts). Kinds alternate slice by slice; prints each kind's CPU µs per
 * request (median over rounds, and min–max) and the median of its per-round ratio to the last kind's (the floor,
 * usually): on a loaded machine, the figure that drifts least.
 */
import { existsSync } from 'node:fs';
import { Agent } from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { drive, startChild, type Era, type Server } from './http.js';
import { openMixClient, type Tally } from './peerClient.js';
import { preparePatchedSdk } from './sdkPatch.js';
import { fmtSpread, spread } from './spread.js';

const [list = 'fusion:legacy,floor', rounds = '7', sliceMs = '1000', clientCount = '50', n = '100', listEvery = '10'] =
  process.argv.slice(2);
const here = fileURLToPath(new URL('./peerServe.ts', import.meta.url));
const specs = list.split(',').map((spec) => {
  const [named, era = 'legacy'] = spec.split(':') as [string, Era | undefined];
  const [base, tree] = named.split('@') as [string, string | undefined];
  const patched = base.endsWith('+sdk-patch');
  const kind = patched ? base.slice(0, -'+sdk-patch'.length) : base;
  const script = tree === undefined ? here : `${tree}/bench/peerServe.ts`;
  if (!existsSync(script)) throw new Error(`no ${script}: give a checkout with bench/peerServe.ts (built)`);
  return { spec, kind, era: era as Era, script, patched };
});
const servers: Server[] = [];
const patchArgs = specs.some((s) => s.patched) ? preparePatchedSdk() : [];
for (const s of specs) servers.push(await startChild(s.kind as never, Number(n), s.patched ? patchArgs : [], s.script));
const load0 = os.loadavg();
const cpu: number[][] = specs.map(() => []);
const rate: number[][] = specs.map(() => []);
const agents = specs.map(() => new Agent({ keepAlive: true, maxSockets: 256 }));
const tallies: Tally[] = specs.map(() => ({ ok: 0, errors: 0 }));
try {
  const clients = await Promise.all(
    specs.map((s, i) => {
      const open = () =>
        openMixClient(
          () => agents[i]!,
          servers[i]!.port,
          s.era,
          Number(n),
          Number(listEvery),
          () => tallies[i]!,
        );
      return Promise.all(Array.from({ length: Number(clientCount) }, open));
    }),
  );
  for (const [i, c] of clients.entries())
    await drive(c, Number(sliceMs) / 2, { latencies: [], calls: 0, ms: 0 }, servers[i]);
  for (let r = 0; r < Number(rounds); r++) {
    for (let k = 0; k < specs.length; k++) {
      const i = (k + r) % specs.length;
      // Fresh connections each slice (as bench/peers.ts): a server may close the ones left idle meanwhile.
      agents[i]!.destroy();
      agents[i] = new Agent({ keepAlive: true, maxSockets: 256 });
      const tally: Tally = (tallies[i] = { ok: 0, errors: 0 });
      const cell = { latencies: [], calls: 0, ms: 0, cpuUs: 0 };
      await drive(clients[i]!, Number(sliceMs), cell, servers[i]);
      if (tally.errors > 0) throw new Error(`${specs[i]!.spec}: ${tally.errors} errors, first: ${tally.firstError}`);
      cpu[i]!.push(cell.cpuUs / tally.ok);
      rate[i]!.push(tally.ok / (cell.ms / 1000));
    }
    process.stderr.write(`round ${r + 1}/${rounds}\n`);
  }
} finally {
  for (const a of agents) a.destroy();
  for (const s of servers) {
    s.child.removeAllListeners('exit');
    s.child.stdin!.end();
  }
}
const last = specs.length - 1;
const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
console.log(
  `${clientCount} clients, ${n} tools, a tools/list every ${listEvery} requests; ${rounds} rounds of ${sliceMs} ms; load average ${load(load0)} at the start, ${load(os.loadavg())} at the end`,
);
console.log(`| kind | server CPU µs / request (min–max) | × ${specs[last]!.spec}'s CPU | req/s (min–max) |`);
console.log('|---|---:|---:|---:|');
for (const [i, s] of specs.entries()) {
  const c = spread(cpu[i]!);
  const ratio = spread(cpu[i]!.map((v, r) => v / cpu[last]![r]!));
  const q = spread(rate[i]!);
  console.log(
    `| ${s.spec} | ${c.median.toFixed(0)} (${c.min.toFixed(0)}–${c.max.toFixed(0)}) | ${fmtSpread(ratio)} | ${q.median.toFixed(0)} (${q.min.toFixed(0)}–${q.max.toFixed(0)}) |`,
  );
}
process.exit(0);
