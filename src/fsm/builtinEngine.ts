import type { FsmConfig } from './types.js';

/** A pure transition function over an {@link FsmConfig}. */
export type FsmEngine = (state: string, event: string) => string;

/** The built-in engine: the target of `event` in `state`, or the same state when unhandled or final. */
export function builtinEngine(config: FsmConfig): FsmEngine {
  return (state, event) => {
    const def = Object.hasOwn(config.states, state) ? config.states[state] : undefined;
    if (def === undefined || def.type === 'final' || def.on === undefined || !Object.hasOwn(def.on, event)) return state;
    return def.on[event] ?? state;
  };
}
