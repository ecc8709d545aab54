/**
 * A quick A/B of tools/call contenders in one process, alternating (raw JSON-RPC, legacy, in memory):
 * `npm run build && npx tsx --tsconfig bench/tsconfig.json bench/abCall.ts bare,floor,floorfull,plain,full [rounds] [inFlight] [raw|client]`
 * (floorfull: the floor server answering with the full stack's result; scale: the registry-scale State Sync server of
 * bench/registryScale.ts, calling its invalidating tool; `<name>@<dir>` builds a fusion contender with another
 * checkout's `dist/`). Prints µs per call (median of rounds) and × the first.
 */
import { contender, fusionOf } from './contenders.js';
import { connectV2, fusionServer, RawClient } from './fixtures.js';
import { medianCi, quantile } from './harness.js';
import { SCALE_CALLED, syncRegistry } from './registryScale.js';

const [list = 'bare,plain', rounds = '15', inFlight = '1', via = 'raw'] = process.argv.slice(2);
const names = list.split(',');
const contenders = await Promise.all(
  names.map(async (who) => {
    if (!who.startsWith('scale')) return contender(who, 1000);
    const registry = syncRegistry(1000, await fusionOf(who.split('@')[1]));
    return { server: () => fusionServer(registry, {}), args: SCALE_CALLED };
  }),
);
const clients = await Promise.all(
  contenders.map(async ({ server }): Promise<{ request(method: string, args: unknown): Promise<unknown> }> => {
    if (via === 'raw') return RawClient.connect(server());
    const client = await connectV2(server());
    return { request: (_method, args) => client.callTool(args as never) };
  }),
);
const per = 2000;
const samples = names.map(() => [] as number[]);
// CPU time per call of this process (server and client): steadier than wall time on a shared machine.
const cpu = names.map(() => [] as number[]);
for (let r = -2; r < Number(rounds); r++) {
  for (let k = 0; k < names.length; k++) {
    const i = (k + Math.max(r, 0)) % names.length;
    const raw = clients[i]!;
    const args = contenders[i]!.args;
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    let left = per;
    await Promise.all(
      Array.from({ length: Number(inFlight) }, async () => {
        while (left-- > 0) await raw.request('tools/call', args);
      }),
    );
    if (r >= 0) {
      samples[i]!.push(((performance.now() - t0) * 1000) / per);
      const c = process.cpuUsage(c0);
      cpu[i]!.push((c.user + c.system) / per);
    }
  }
}
// The median, the best round (the least disturbed by other work on a shared machine), and the median of the
// per-round ratios of CPU per call with its 95 % interval (each round pairs the contenders: load drift cancels).
const base = quantile(samples[0]!, 0.5);
const baseMin = Math.min(...samples[0]!);
for (let i = 0; i < names.length; i++) {
  const m = quantile(samples[i]!, 0.5);
  const best = Math.min(...samples[i]!);
  const c = quantile(cpu[i]!, 0.5);
  const perRound = cpu[i]!.map((v, r) => v / cpu[0]![r]!);
  const [lo, hi] = medianCi(perRound);
  process.stdout.write(
    `${names[i]!.padEnd(12)} median ${m.toFixed(2).padStart(8)} µs/call ${(m / base).toFixed(2)}×   best ${best.toFixed(2).padStart(8)} µs ${(best / baseMin).toFixed(2)}×   CPU ${c.toFixed(2).padStart(8)} µs, per round ${quantile(perRound, 0.5).toFixed(2)}× (95 % CI ${lo.toFixed(2)}–${hi.toFixed(2)}×)\n`,
  );
}
process.exit(0);
