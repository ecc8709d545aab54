import type { FsmEngine } from './builtinEngine.js';
import { stateKey } from './stateValue.js';
import type { FsmConfig, FsmStateValue } from './types.js';

/** A guard as XState calls it: the machine's (static) context and the event. */
export type FsmGuard = (args: { context: Record<string, unknown>; event: { type: string } }) => boolean;

type Snapshot = { value: unknown };
type Machine = { resolveState(state: { value: unknown; context?: unknown }): Snapshot };

/** The part of XState v5 the engine uses; `transition` from 5.19, `getNextSnapshot` before. */
interface XStateModule {
  createMachine(config: unknown, implementations?: unknown): Machine;
  transition?(machine: Machine, snapshot: Snapshot, event: { type: string }): [Snapshot, unknown[]];
  getNextSnapshot(machine: Machine, snapshot: Snapshot, event: { type: string }): Snapshot;
}

/**
 * An engine backed by XState v5's pure transition function (no actor is started). Nested and parallel
 * states come back as XState's state value (an object); guards are the gate's `guards` option.
 */
export function xstateEngine(
  xstate: unknown,
  config: FsmConfig,
  guards: Record<string, (args: never) => boolean> = {},
): FsmEngine {
  const x = xstate as XStateModule;
  const context = config.context ?? {};
  const machine = x.createMachine(
    { id: config.id ?? 'fusion', initial: config.initial, context, states: config.states },
    { guards },
  );
  const step =
    x.transition !== undefined
      ? (snap: Snapshot, type: string) => x.transition!(machine, snap, { type })[0]
      : (snap: Snapshot, type: string) => x.getNextSnapshot(machine, snap, { type });
  // Without guards the target depends on (state, event) alone, so each pair is computed by XState once
  // (its transition() builds an actor scope on every call), then looked up by state key and event without
  // building a combined key. Guards may read changing data: never memoized.
  const memo = Object.keys(guards).length === 0 ? new Map<string, Map<string, FsmStateValue>>() : undefined;
  let size = 0;
  return (state, event) => {
    // XState still follows the `on` of a final state it was resolved into; a done machine must not move.
    if (typeof state === 'string' && config.states[state]?.type === 'final') return state;
    const key = memo === undefined ? '' : stateKey(state);
    const known = memo?.get(key)?.get(event);
    if (known !== undefined) return known;
    const next = step(machine.resolveState({ value: state, context }), event);
    const target =
      typeof next.value === 'string' || (typeof next.value === 'object' && next.value !== null)
        ? (next.value as FsmStateValue)
        : state;
    if (memo !== undefined && size < 10_000) {
      let byEvent = memo.get(key);
      if (byEvent === undefined) memo.set(key, (byEvent = new Map()));
      byEvent.set(event, target);
      size++;
    }
    return target;
  };
}
