import type { FsmConfig, FsmStateValue } from './types.js';

/** A pure transition function over an {@link FsmConfig}. */
export type FsmEngine = (state: FsmStateValue, event: string) => FsmStateValue;

/** The built-in engine: the target of `event` in `state`, or the same state when unhandled or final. */
export function builtinEngine(config: FsmConfig): FsmEngine {
  // Flat machines only: the gate refuses nested/parallel states and guards without XState.
  return (state, event) => {
    if (typeof state !== 'string') return state;
    const def = Object.hasOwn(config.states, state) ? config.states[state] : undefined;
    if (def === undefined || def.type === 'final' || def.on === undefined || !Object.hasOwn(def.on, event))
      return state;
    const target = def.on[event];
    return typeof target === 'string' ? target : state;
  };
}
