import type { StateMachineGate } from './StateMachineGate.js';

/**
 * Attach-time warnings: events a bound tool sends that no state handles, and states no path reaches.
 */
export function fsmWarnings(gate: StateMachineGate): string[] {
  const out: string[] = [];
  const { states, initial } = gate.config;
  const handled = new Set(Object.values(states).flatMap((s) => Object.keys(s.on ?? {})));
  const machine = gate.id === undefined ? 'the FSM' : `FSM "${gate.id}"`;
  for (const [tool, binding] of gate.bindings) {
    if (binding.event !== undefined && !handled.has(binding.event)) {
      out.push(`Tool "${tool}" sends event "${binding.event}", which no state of ${machine} handles; add it to a state's "on" or fix the name.`);
    } else if (binding.event !== undefined && !binding.states.some((s) => states[s]?.on?.[binding.event!] !== undefined)) {
      out.push(`Tool "${tool}" sends event "${binding.event}", but none of its states (${binding.states.join(', ')}) handles it, so it never changes the state of ${machine}.`);
    }
  }
  const reached = new Set([initial]);
  const queue = [initial];
  while (queue.length > 0) {
    for (const target of Object.values(states[queue.shift()!]?.on ?? {})) {
      if (!reached.has(target)) {
        reached.add(target);
        queue.push(target);
      }
    }
  }
  for (const state of Object.keys(states)) {
    if (!reached.has(state)) out.push(`State "${state}" of ${machine} is unreachable from "${initial}"; add a transition to it or remove it.`);
  }
  return out;
}
