/**
 * The FSM gate alone: `WorkflowSessions.run` of a tool that flips a two-state machine on every call, one key,
 * in memory (what a legacy session's bound call pays on top of its handler), sequential or N in flight:
 * `npm run build && npx tsx --tsconfig bench/tsconfig.json bench/gateRun.ts [inFlight] [rounds] [engine]`. Prints µs per run (median of rounds).
 */
import { StateMachineGate } from 'mcp-fusion';
import { WorkflowSessions } from 'mcp-fusion/advanced';
import { quantile } from './harness.js';

const [inFlight = '1', rounds = '8', engine = 'auto'] = process.argv.slice(2);
const gate = new StateMachineGate(
  { id: 'bench', initial: 'idle', states: { idle: { on: { toggle: 'busy' } }, busy: { on: { toggle: 'idle' } } } },
  { engine: engine as 'auto' | 'builtin' | 'xstate' },
).bindTool('flip', ['idle', 'busy'], 'toggle');
let notified = 0;
const sessions = new WorkflowSessions(gate, { onListChanged: () => void notified++ });
const result: { isError?: boolean; content: unknown[] } = { content: [{ type: 'text', text: 'ok' }] };
const handler = async () => result;
const per = 20_000;
const samples: number[] = [];
for (let r = -2; r < Number(rounds); r++) {
  const t0 = performance.now();
  let left = per;
  await Promise.all(
    Array.from({ length: Number(inFlight) }, async () => {
      while (left-- > 0) await sessions.run('session-1', 'flip', handler);
    }),
  );
  if (r >= 0) samples.push(((performance.now() - t0) * 1000) / per);
}
process.stdout.write(
  `WorkflowSessions.run (${await gate.engine()}) ×${inFlight}: ${quantile(samples, 0.5).toFixed(2)} µs/run (median of ${rounds})\n`,
);
sessions.dispose();
process.exit(0);
