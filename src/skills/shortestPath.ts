import type { FsmGraph, GraphTransition } from '../cli/fsm/fsmGraph.js';

/** One step of a worked path: in `from`, call one of `transition.tools`, and the workflow moves to `to`. */
export type PathStep = GraphTransition;

/**
 * Shortest path (fewest calls) through `graph` from its initial state to a final state, taking only
 * transitions some tool sends; with no final state, to the reachable state farthest from the initial one
 * (the first of them in definition order), so a workflow that never ends still gets one full worked path.
 * Empty when the initial state is the goal or nothing can be called. Pure.
 */
export function shortestPath(graph: FsmGraph): PathStep[] {
  const initial = graph.states.find((s) => s.initial && s.parent === undefined)?.name;
  if (initial === undefined) return [];
  const finals = new Set(graph.states.filter((s) => s.final).map((s) => s.name));
  const via = new Map<string, PathStep | null>([[initial, null]]);
  const order: string[] = [initial];
  for (let i = 0; i < order.length; i++) {
    const state = order[i]!;
    if (finals.has(state)) return stepsTo(state, via);
    for (const t of graph.transitions) {
      if (t.from !== state || t.tools.length === 0 || via.has(t.to)) continue;
      via.set(t.to, t);
      order.push(t.to);
    }
  }
  // No final state reached: the last state found breadth-first is among the farthest.
  let farthest = initial;
  let depth = 0;
  for (const state of order) {
    const d = stepsTo(state, via).length;
    if (d > depth) [farthest, depth] = [state, d];
  }
  return stepsTo(farthest, via);
}

function stepsTo(state: string, via: ReadonlyMap<string, PathStep | null>): PathStep[] {
  const steps: PathStep[] = [];
  for (let step = via.get(state); step !== undefined && step !== null; step = via.get(step.from)) steps.unshift(step);
  return steps;
}
