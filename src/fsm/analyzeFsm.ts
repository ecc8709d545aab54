import type { StateMachineGate } from './StateMachineGate.js';
import type { FsmStateConfig } from './types.js';

function allStates(states: Record<string, FsmStateConfig>): FsmStateConfig[] {
  return Object.values(states).flatMap((s) => [s, ...(s.states === undefined ? [] : allStates(s.states))]);
}

/**
 * Attach-time warnings: events a bound tool sends that no state handles, and states no path reaches.
 */
export function fsmWarnings(gate: StateMachineGate): string[] {
  const out: string[] = [];
  const { states, initial } = gate.config;
  const handled = new Set(allStates(states).flatMap((s) => Object.keys(s.on ?? {})));
  const machine = gate.id === undefined ? 'the FSM' : `FSM "${gate.id}"`;
  for (const [tool, binding] of gate.bindings) {
    if (binding.event !== undefined && !handled.has(binding.event)) {
      out.push(
        `Tool "${tool}" sends event "${binding.event}", which no state of ${machine} handles; add it to a state's "on" or fix the name.`,
      );
    } else if (
      binding.event !== undefined &&
      !gate.statechart &&
      !binding.states.some((s) => states[s]?.on?.[binding.event!] !== undefined)
    ) {
      out.push(
        `Tool "${tool}" sends event "${binding.event}", but none of its states (${binding.states.join(', ')}) handles it, so it never changes the state of ${machine}.`,
      );
    }
  }
  // Nested and parallel machines: XState resolves targets through the hierarchy; only flat machines are walked here.
  if (gate.statechart) return out;
  const reached = new Set([initial]);
  const queue = [initial];
  while (queue.length > 0) {
    for (const target of Object.values(states[queue.shift()!]?.on ?? {}).filter(
      (t): t is string => typeof t === 'string',
    )) {
      if (!reached.has(target)) {
        reached.add(target);
        queue.push(target);
      }
    }
  }
  for (const state of Object.keys(states)) {
    if (!reached.has(state))
      out.push(`State "${state}" of ${machine} is unreachable from "${initial}"; add a transition to it or remove it.`);
  }
  return out;
}
