import type { FsmGraph, GraphTransition } from '../fsm/fsmGraph.js';

/** One step of a worked path: in `from`, call one of `transition.tools`, and the workflow moves to `to`. */
export type PathStep = GraphTransition;

/**
 * Shortest path (fewest calls) through `graph` from its initial state to a final state, taking only
 * transitions some tool sends; with no final state, to the reachable state farthest from the initial one
 * (the first of them in definition order), so a workflow that never ends still gets one full worked path.
 * Entering a compound state enters its initial child, and a parent's transitions apply inside it. Empty when
 * the initial state is the goal or nothing can be called. Pure.
 */
export function shortestPath(graph: FsmGraph): PathStep[] {
  const top = graph.states.find((s) => s.initial && s.parent === undefined)?.name;
  if (top === undefined) return [];
  const enter = (state: string): string => {
    const child = graph.states.find((s) => s.parent === state && s.initial)?.name;
    return child === undefined ? state : enter(child);
  };
  const within = (state: string, from: string): boolean => state === from || state.startsWith(`${from}.`);
  const initial = enter(top);
  const finals = new Set(graph.states.filter((s) => s.final).map((s) => s.name));
  const via = new Map<string, { prev: string; step: PathStep } | null>([[initial, null]]);
  const order: string[] = [initial];
  const stepsTo = (state: string): PathStep[] => {
    const steps: PathStep[] = [];
    for (let link = via.get(state); link; link = via.get(link.prev)) steps.unshift(link.step);
    return steps;
  };
  for (let i = 0; i < order.length; i++) {
    const state = order[i]!;
    if (finals.has(state)) return stepsTo(state);
    for (const t of graph.transitions) {
      const to = enter(t.to);
      if (!within(state, t.from) || t.tools.length === 0 || via.has(to)) continue;
      via.set(to, { prev: state, step: t });
      order.push(to);
    }
  }
  // No final state reached: breadth-first order puts the farthest states last.
  let farthest: PathStep[] = [];
  for (const state of order) {
    const steps = stepsTo(state);
    if (steps.length > farthest.length) farthest = steps;
  }
  return farthest;
}
