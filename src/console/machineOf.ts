import type { StateMachineGate } from '../fsm/StateMachineGate.js';
import type { FsmStateConfig } from '../fsm/types.js';

/** The workflow machine as the console's page draws it: states (dotted paths), transitions and tools per state. */
export interface ConsoleMachine {
  id: string | undefined;
  initial: string;
  states: Array<{ path: string; depth: number; final: boolean; tools: string[] }>;
  transitions: Array<{ from: string; event: string; to: string }>;
}

/** Describes `gate` for the page (once per console). */
export function machineOf(gate: StateMachineGate): ConsoleMachine {
  const states: ConsoleMachine['states'] = [];
  const transitions: ConsoleMachine['transitions'] = [];
  const walk = (defs: Record<string, FsmStateConfig>, prefix: string, depth: number): void => {
    for (const [name, def] of Object.entries(defs)) {
      const path = prefix + name;
      const tools = [...gate.bindings].filter(([, b]) => b.states.includes(path)).map(([tool]) => tool);
      states.push({ path, depth, final: def.type === 'final', tools });
      for (const [event, target] of Object.entries(def.on ?? {})) {
        for (const t of Array.isArray(target) ? target : [target]) {
          const to = typeof t === 'string' ? t : t.target;
          if (to !== undefined) transitions.push({ from: path, event, to: to.replace(/^\./, `${path}.`) });
        }
      }
      if (def.states !== undefined) walk(def.states, `${path}.`, depth + 1);
    }
  };
  walk(gate.config.states, '', 0);
  return { id: gate.config.id, initial: gate.config.initial, states, transitions };
}
