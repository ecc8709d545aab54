/**
 * One contender of the tools/call bench in a loop, for a CPU profile of the compiled package:
 * `npm run build && node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profileCall.ts <contender> [raw|client] [seconds] [inFlight]`
 * with contender one of bare, floor, plain, sync, fsm, middlewares, full, grouped. Prints calls/s.
 */
import type { Client } from '@modelcontextprotocol/client';
import { bareV2, callArgs, connectV2, floorServer, fusionRegistry, fusionServer, groupedCallArgs, RawClient, threeMiddlewares, variantOptions, type Variant } from './fixtures.js';

const [who = 'plain', via = 'raw', seconds = '6', inFlight = '1'] = process.argv.slice(2);
const n = 1000;
const VARIANTS: Record<string, { variant: Variant; middlewares: boolean }> = {
  plain: { variant: 'plain', middlewares: false },
  sync: { variant: 'sync', middlewares: false },
  fsm: { variant: 'fsm', middlewares: false },
  middlewares: { variant: 'plain', middlewares: true },
  full: { variant: 'sync+fsm', middlewares: true },
  grouped: { variant: 'grouped', middlewares: false },
};
const server = () => {
  if (who === 'bare') return bareV2(n);
  if (who === 'floor') return floorServer(n);
  const v = VARIANTS[who];
  if (v === undefined) throw new Error(`unknown contender ${who}`);
  return fusionServer(fusionRegistry(n, v.middlewares ? threeMiddlewares : []), variantOptions(v.variant, n));
};
const args = who === 'grouped' ? groupedCallArgs : callArgs;
let call: () => Promise<unknown>;
if (via === 'client') {
  const client: Client = await connectV2(server());
  call = () => client.callTool(args);
} else {
  const raw = await RawClient.connect(server());
  call = () => raw.request('tools/call', args);
}
const deadline = performance.now() + Number(seconds) * 1000;
let done = 0;
const t0 = performance.now();
await Promise.all(
  Array.from({ length: Number(inFlight) }, async () => {
    while (performance.now() < deadline) {
      await call();
      done++;
    }
  }),
);
process.stdout.write(`${who} ${via} ×${inFlight}: ${Math.round(done / ((performance.now() - t0) / 1000))} calls/s\n`);
process.exit(0);
