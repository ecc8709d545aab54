/**
 * One contender of the tools/call bench in a loop, for a CPU profile of the compiled package:
 * `npm run build && TSX_TSCONFIG_PATH=bench/tsconfig.json node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profileCall.ts <contender> [raw|client] [seconds] [inFlight]`
 * with contender one of bare, floor, floorfull, plain, sync, fsm, middlewares, full, grouped. Prints calls/s.
 */
import type { Client } from '@modelcontextprotocol/client';
import { contender } from './contenders.js';
import { connectV2, RawClient } from './fixtures.js';

const [who = 'plain', via = 'raw', seconds = '6', inFlight = '1'] = process.argv.slice(2);
const { server, args } = await contender(who, 1000);
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
