import type { FsmGraph } from '../../fsm/fsmGraph.js';
import { transitionLabel, type DrawOptions } from './toMermaid.js';

/**
 * Pure: the machine as Graphviz DOT, left to right. States are rounded boxes listing the tools visible in
 * them (final states drawn double); transitions carry the triggering tools, dashed when no tool sends the event.
 */
export function toDot(graph: FsmGraph, options: DrawOptions = {}): string {
  const out = [
    `digraph ${quote(graph.id ?? 'fsm')} {`,
    '  rankdir=LR;',
    '  node [shape=box, style=rounded, fontname="Helvetica", fontsize=11];',
    '  edge [fontname="Helvetica", fontsize=10];',
    '  "__start" [shape=point, width=0.15, label=""];',
  ];
  for (const state of graph.states) {
    const tools = options.allTools === true ? [...state.tools, ...graph.everywhere] : state.tools;
    const label = tools.length === 0 ? state.name : `${state.name}\n\n${tools.join('\n')}`;
    out.push(`  ${quote(state.name)} [label=${quote(label)}${state.final ? ', peripheries=2' : ''}];`);
  }
  const initial = graph.states.find((s) => s.initial);
  if (initial !== undefined) out.push(`  "__start" -> ${quote(initial.name)};`);
  for (const t of graph.transitions) {
    out.push(
      `  ${quote(t.from)} -> ${quote(t.to)} [label=${quote(transitionLabel(t.tools, t.event))}${t.tools.length === 0 ? ', style=dashed' : ''}];`,
    );
  }
  if (options.allTools !== true && graph.everywhere.length > 0) {
    out.push(
      `  "__everywhere" [shape=note, label=${quote(`Visible in every state:\n${graph.everywhere.join('\n')}`)}];`,
    );
  }
  out.push('}');
  return out.join('\n') + '\n';
}

function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}
