import type { FsmEngine } from './builtinEngine.js';
import type { FsmConfig } from './types.js';

interface XStateModule {
  createMachine(config: unknown): { resolveState(s: { value: string }): unknown };
  getNextSnapshot(machine: unknown, snapshot: unknown, event: { type: string }): { value: unknown };
}

/** An engine backed by XState v5's pure `getNextSnapshot` (no actor). */
export function xstateEngine(xstate: unknown, config: FsmConfig): FsmEngine {
  const x = xstate as XStateModule;
  const machine = x.createMachine({ id: config.id ?? 'fusion', initial: config.initial, states: config.states });
  return (state, event) => {
    // getNextSnapshot still follows the `on` of a final state it was resolved into; a done machine must not move.
    if (config.states[state]?.type === 'final') return state;
    const next = x.getNextSnapshot(machine, machine.resolveState({ value: state }), { type: event });
    return typeof next.value === 'string' ? next.value : state;
  };
}
