import type { StateMachineGate } from '../../fsm/StateMachineGate.js';

/** One state of the drawn machine. */
export interface GraphState {
  readonly name: string;
  readonly initial: boolean;
  readonly final: boolean;
  /** Tools bound to this state (visible here, not everywhere), in registration order. */
  readonly tools: readonly string[];
}

/** One edge: `event` leads from `from` to `to`; `tools` are the tools visible in `from` that send it. */
export interface GraphTransition {
  readonly from: string;
  readonly to: string;
  readonly event: string;
  readonly tools: readonly string[];
}

/** The workflow as a picture sees it. */
export interface FsmGraph {
  readonly id: string | undefined;
  readonly states: readonly GraphState[];
  readonly transitions: readonly GraphTransition[];
  /** Tools with no binding: visible in every state. */
  readonly everywhere: readonly string[];
}

/**
 * Pure: the machine of `gate` with the tools visible in each state and the tools triggering each
 * transition. `tools` are the canonical names on the surface, in order; `display` renders a name.
 */
export function fsmGraph(gate: StateMachineGate, tools: readonly string[], display: (name: string) => string = (n) => n): FsmGraph {
  const { config, bindings } = gate;
  const bound = tools.filter((t) => bindings.has(t));
  const states = Object.entries(config.states).map(([name, state]): GraphState => ({
    name,
    initial: name === config.initial,
    final: state.type === 'final',
    tools: bound.filter((t) => bindings.get(t)!.states.includes(name)).map(display),
  }));
  const transitions = Object.entries(config.states).flatMap(([from, state]) =>
    Object.entries(state.on ?? {}).map(([event, to]): GraphTransition => ({
      from,
      to,
      event,
      tools: bound.filter((t) => bindings.get(t)!.event === event && bindings.get(t)!.states.includes(from)).map(display),
    })),
  );
  return { id: config.id, states, transitions, everywhere: tools.filter((t) => !bindings.has(t)).map(display) };
}
