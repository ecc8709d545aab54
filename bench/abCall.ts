/**
 * A quick A/B of tools/call contenders in one process, alternating (raw JSON-RPC, legacy, in memory):
 * `npm run build && npx tsx bench/abCall.ts bare,floor,floorfull,plain,full [rounds] [inFlight] [raw|client]`
 * (floorfull: the floor server answering with the full stack's result). Prints µs per call (median of rounds) and × the first.
 */
import { bareV2, callArgs, connectV2, floorServer, fullStackAnswer, fusionRegistry, fusionServer, groupedCallArgs, RawClient, threeMiddlewares, variantOptions, type Variant } from './fixtures.js';
import { quantile } from './harness.js';

const [list = 'bare,plain', rounds = '15', inFlight = '1', via = 'raw'] = process.argv.slice(2);
const n = 1000;
const VARIANTS: Record<string, { variant: Variant; middlewares: boolean }> = {
  plain: { variant: 'plain', middlewares: false },
  sync: { variant: 'sync', middlewares: false },
  fsm: { variant: 'fsm', middlewares: false },
  middlewares: { variant: 'plain', middlewares: true },
  full: { variant: 'sync+fsm', middlewares: true },
  grouped: { variant: 'grouped', middlewares: false },
};
const names = list.split(',');
const fullAnswer = names.includes('floorfull') ? await fullStackAnswer(n) : undefined;
const serverOf = (who: string) => {
  if (who === 'bare') return bareV2(n);
  if (who === 'floorfull') return floorServer(n, undefined, fullAnswer);
  if (who === 'floor') return floorServer(n);
  const v = VARIANTS[who]!;
  return fusionServer(fusionRegistry(n, v.middlewares ? threeMiddlewares : []), variantOptions(v.variant, n));
};
const clients = await Promise.all(
  names.map(async (who): Promise<{ request(method: string, args: unknown): Promise<unknown> }> => {
    if (via === 'raw') return RawClient.connect(serverOf(who));
    const client = await connectV2(serverOf(who));
    return { request: (_method, args) => client.callTool(args as never) };
  }),
);
const argsOf = (who: string) => (who === 'grouped' ? groupedCallArgs : callArgs);
const per = 2000;
const samples = names.map(() => [] as number[]);
for (let r = -2; r < Number(rounds); r++) {
  for (let k = 0; k < names.length; k++) {
    const i = (k + Math.max(r, 0)) % names.length;
    const raw = clients[i]!;
    const args = argsOf(names[i]!);
    const t0 = performance.now();
    let left = per;
    await Promise.all(
      Array.from({ length: Number(inFlight) }, async () => {
        while (left-- > 0) await raw.request('tools/call', args);
      }),
    );
    if (r >= 0) samples[i]!.push(((performance.now() - t0) * 1000) / per);
  }
}
// The median, and the best round (the least disturbed by other work on a shared machine).
const base = quantile(samples[0]!, 0.5);
const baseMin = Math.min(...samples[0]!);
for (let i = 0; i < names.length; i++) {
  const m = quantile(samples[i]!, 0.5);
  const best = Math.min(...samples[i]!);
  process.stdout.write(`${names[i]!.padEnd(12)} median ${m.toFixed(2).padStart(8)} µs/call ${(m / base).toFixed(2)}×   best ${best.toFixed(2).padStart(8)} µs ${(best / baseMin).toFixed(2)}×\n`);
}
process.exit(0);
