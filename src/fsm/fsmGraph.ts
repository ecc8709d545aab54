import type { StateMachineGate } from './StateMachineGate.js';
import type { FsmStateConfig } from './types.js';

/** One state of the drawn machine. */
export interface GraphState {
  /** The state's dotted path (`payment.card` for a nested state). */
  readonly name: string;
  /** The enclosing state's path, for nested states. */
  readonly parent?: string | undefined;
  /** A parallel state: its children are regions, all active at once. */
  readonly parallel?: boolean;
  /** A compound or parallel state (it has children). */
  readonly composite?: boolean;
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
export function fsmGraph(
  gate: StateMachineGate,
  tools: readonly string[],
  display: (name: string) => string = (n) => n,
): FsmGraph {
  const { config, bindings } = gate;
  const bound = tools.filter((t) => bindings.has(t));
  const states: GraphState[] = [];
  const transitions: GraphTransition[] = [];
  const walk = (
    level: Record<string, FsmStateConfig>,
    parent: string | undefined,
    initial: string | undefined,
    parallel: boolean,
  ): void => {
    for (const [name, state] of Object.entries(level)) {
      const path = parent === undefined ? name : `${parent}.${name}`;
      states.push({
        name: path,
        ...(parent !== undefined ? { parent } : {}),
        ...(state.type === 'parallel' ? { parallel: true } : {}),
        ...(state.states !== undefined ? { composite: true } : {}),
        initial: !parallel && name === initial,
        final: state.type === 'final',
        tools: bound.filter((t) => bindings.get(t)!.states.includes(path)).map(display),
      });
      for (const [event, target] of Object.entries(state.on ?? {})) {
        for (const t of Array.isArray(target) ? target : [target]) {
          const to = typeof t === 'string' ? t : t.target;
          if (to === undefined) continue;
          const guard = typeof t === 'string' ? undefined : t.guard;
          transitions.push({
            from: path,
            to: resolveTarget(config.id, parent, to),
            event: guard === undefined ? event : `${event} [${guard}]`,
            tools: bound
              .filter(
                (b) =>
                  bindings.get(b)!.event === event &&
                  ancestorsOf(path).some((p) => bindings.get(b)!.states.includes(p)),
              )
              .map(display),
          });
        }
      }
      if (state.states !== undefined) walk(state.states, path, state.initial, state.type === 'parallel');
    }
  };
  walk(config.states, undefined, config.initial, false);
  return { id: config.id, states, transitions, everywhere: tools.filter((t) => !bindings.has(t)).map(display) };
}

/** A target relative to its siblings (`card`, `payment.card`) or absolute (`#checkout.payment.card`), as a path. */
function resolveTarget(id: string | undefined, parent: string | undefined, target: string): string {
  if (target.startsWith('#')) return target.slice(1).split('.').slice(1).join('.') || target;
  return parent === undefined ? target : `${parent}.${target}`;
}

function ancestorsOf(path: string): string[] {
  const parts = path.split('.');
  return parts.map((_, i) => parts.slice(0, i + 1).join('.'));
}
