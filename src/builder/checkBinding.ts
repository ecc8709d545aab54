import { DefinitionError } from '../errors/FusionError.js';
import type { FsmBinding } from '../fsm/types.js';

/**
 * The FSM binding `.bindState(states, event)` declares for `tool`: at least one state, and `'*'` (every
 * state, no transition) alone. Throws a `DefinitionError` saying how to write it otherwise.
 */
export function checkBinding(tool: string, states: string | string[], event: string | undefined): FsmBinding {
  const list = Array.isArray(states) ? [...states] : [states];
  if (list.length === 0) {
    throw new DefinitionError(
      'FSM_BINDING',
      `Tool "${tool}" calls .bindState() with no state; name at least one state.`,
      { tool },
    );
  }
  if (list.includes('*') && (list.length > 1 || event !== undefined)) {
    throw new DefinitionError(
      'FSM_BINDING',
      `Tool "${tool}" calls .bindState() with "*" ${event !== undefined ? `and event "${event}"` : 'beside other states'}; "*" (every state, no transition) stands alone: use .bindState('*') for a tool that reads the workflow, or name the states where it sends an event.`,
      { tool },
    );
  }
  return event === undefined ? { states: list } : { states: list, event };
}
