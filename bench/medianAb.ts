/**
 * The steadiest A/B of tools/call contenders this box allows: the bench's own sequential `latency` (each call
 * timed alone, contenders alternating every round, the median of every call), raw JSON-RPC or through the SDK
 * Client, legacy, in memory: `npm run build && npx tsx --tsconfig bench/tsconfig.json bench/medianAb.ts
 * bare,bare,plain,full@../base [rounds] [raw|client]`. A contender is as in bench/abCall.ts (`scale` for the
 * registry-scale server, `<name>@<dir>` another checkout's `dist/`); name `bare` twice to see the run's noise
 * (per-call medians ignore GC pauses and stolen time, which per-round means of abCall.ts do not).
 */
import { contender, fusionOf } from './contenders.js';
import { connectV2, fusionServer, RawClient } from './fixtures.js';
import { latency, type Contender } from './harness.js';
import { SCALE_CALLED, syncRegistry } from './registryScale.js';

const [list = 'bare,bare,plain', rounds = '30', via = 'raw'] = process.argv.slice(2);

async function target(who: string) {
  if (!who.startsWith('scale')) return contender(who, 1000);
  const registry = syncRegistry(1000, await fusionOf(who.split('@')[1]));
  return { server: () => fusionServer(registry, {}), args: SCALE_CALLED };
}

const contenders: Contender[] = await Promise.all(
  list.split(',').map(async (who): Promise<Contender> => {
    const { server, args } = await target(who);
    if (via === 'raw') {
      const raw = await RawClient.connect(server());
      return { name: who, run: () => raw.request('tools/call', args) };
    }
    const client = await connectV2(server());
    return { name: who, run: () => client.callTool(args as never) };
  }),
);
const budget = { rounds: Number(rounds), perRound: 200, warmup: 500 };
for (const row of await latency('tools/call', via, contenders, budget))
  process.stdout.write(
    `${row.contender.padEnd(24)} ${row.value.toFixed(2).padStart(8)} µs  ${row.ratio.toFixed(3)}×\n`,
  );
process.exit(0);
