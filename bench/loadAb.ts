/**
 * The 64-in-flight rows of the tools/call section for a few contenders, alone (raw JSON-RPC or through the SDK
 * Client, legacy, in memory): `npm run build && npx tsx --tsconfig bench/tsconfig.json bench/loadAb.ts
 * bare,plain,sync,full [rounds] [sliceMs] [raw|client]`, a contender as in bench/abCall.ts (`plain@../main`).
 * Prints each contender's median calls/s and the medians of its per-round ratios to the first (calls per CPU second,
 * with the 95 % CI, and calls/s).
 */
import { contender } from './contenders.js';
import { connectV2, RawClient } from './fixtures.js';
import { throughput, type Contender } from './harness.js';

const [list = 'bare,plain', rounds = '7', sliceMs = '500', via = 'raw'] = process.argv.slice(2);
const contenders: Contender[] = await Promise.all(
  list.split(',').map(async (who): Promise<Contender> => {
    const { server, args } = await contender(who, 1000);
    if (via === 'raw') {
      const raw = await RawClient.connect(server());
      return { name: who, run: () => raw.request('tools/call', args) };
    }
    const client = await connectV2(server());
    return { name: who, run: () => client.callTool(args) };
  }),
);
const load = { inFlight: 64, rounds: Number(rounds), sliceMs: Number(sliceMs), warmupMs: 300 };
for (const row of await throughput('load', via, contenders, load)) {
  const [lo, hi] = row.ci!;
  process.stdout.write(
    `${row.contender.padEnd(12)} ${Math.round(row.value).toString().padStart(7)} calls/s per CPU ${row.ratio.toFixed(2)}× (95 % CI ${lo.toFixed(2)}–${hi.toFixed(2)}×), wall ${row.wallRatio!.toFixed(2)}×\n`,
  );
}
process.exit(0);
