import type { FsmEngine } from './builtinEngine.js';
import type { FsmConfig } from './types.js';

type Snapshot = { value: unknown };
type Machine = { resolveState(state: { value: string }): Snapshot };

/** The part of XState v5 the engine uses; `transition` from 5.19, `getNextSnapshot` before. */
interface XStateModule {
  createMachine(config: unknown): Machine;
  transition?(machine: Machine, snapshot: Snapshot, event: { type: string }): [Snapshot, unknown[]];
  getNextSnapshot(machine: Machine, snapshot: Snapshot, event: { type: string }): Snapshot;
}

/** An engine backed by XState v5's pure transition function (no actor is started). */
export function xstateEngine(xstate: unknown, config: FsmConfig): FsmEngine {
  const x = xstate as XStateModule;
  const machine = x.createMachine({ id: config.id ?? 'fusion', initial: config.initial, states: config.states });
  const step = x.transition !== undefined
    ? (snap: Snapshot, type: string) => x.transition!(machine, snap, { type })[0]
    : (snap: Snapshot, type: string) => x.getNextSnapshot(machine, snap, { type });
  // FsmConfig has no guards, actions or context: the target depends on (state, event) alone, so each
  // pair is computed by XState once (its transition() builds an actor scope on every call).
  const memo = new Map<string, string>();
  return (state, event) => {
    // XState still follows the `on` of a final state it was resolved into; a done machine must not move.
    if (config.states[state]?.type === 'final') return state;
    const key = `${state}\u0000${event}`;
    let target = memo.get(key);
    if (target === undefined) {
      const next = step(machine.resolveState({ value: state }), event);
      target = typeof next.value === 'string' ? next.value : state;
      if (memo.size < 10_000) memo.set(key, target);
    }
    return target;
  };
}
