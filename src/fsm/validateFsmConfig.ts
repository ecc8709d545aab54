import { DefinitionError } from '../errors/FusionError.js';
import type { FsmConfig } from './types.js';

/** Fails fast on a machine that cannot work, naming the culprit. */
export function validateFsmConfig(config: FsmConfig): void {
  const name = config?.id === undefined ? 'The FSM' : `FSM "${config.id}"`;
  const states = config?.states;
  if (typeof states !== 'object' || states === null || Object.keys(states).length === 0) {
    throw new DefinitionError('FSM_CONFIG', `${name} has no states; declare at least one under "states".`, { machine: config?.id });
  }
  if (!Object.hasOwn(states, config.initial)) {
    throw new DefinitionError('FSM_CONFIG', `${name} has initial state "${config.initial}", which is not one of its states (${Object.keys(states).join(', ')}).`, { machine: config.id, state: config.initial });
  }
  for (const [state, def] of Object.entries(states)) {
    // XState reads these as paths (`a.b`, `#id`); the built-in engine would not, so the engines would disagree.
    if (state.includes('.') || state.startsWith('#')) {
      throw new DefinitionError('FSM_CONFIG', `${name} has state "${state}"; state names may not contain "." or start with "#" (XState reads them as paths). Rename it, e.g. "${state.replace(/^#/, '').replaceAll('.', '_')}".`, { machine: config.id, state });
    }
    for (const [event, target] of Object.entries(def.on ?? {})) {
      // XState treats "*" as a wildcard and ignores its own "xstate.*" events; the built-in engine does neither.
      if (event.includes('*') || event.startsWith('xstate.')) {
        throw new DefinitionError('FSM_CONFIG', `${name}: state "${state}" handles event "${event}"; wildcards ("*") and the reserved "xstate." prefix are not supported. List each event by its exact name.`, { machine: config.id, state, event });
      }
      if (!Object.hasOwn(states, target)) {
        throw new DefinitionError('FSM_CONFIG', `${name}: state "${state}" sends event "${event}" to unknown state "${target}"; add the state or fix the target.`, { machine: config.id, state, event, target });
      }
    }
  }
}

/** Throws unless every state exists. */
export function assertKnownStates(config: FsmConfig, states: readonly string[], what: string): void {
  for (const state of states) {
    if (!Object.hasOwn(config.states, state)) {
      throw new DefinitionError('FSM_UNKNOWN_STATE', `${what} names unknown state "${state}"${config.id !== undefined ? ` of FSM "${config.id}"` : ''}; known states: ${Object.keys(config.states).join(', ')}.`, { machine: config.id, state });
    }
  }
}
