import type { FsmGraph } from '../../fsm/fsmGraph.js';

/** Options of {@link toMermaid} and `toDot`. */
export interface DrawOptions {
  /** List the always-visible tools in every state instead of once in a note. */
  allTools?: boolean;
}

/**
 * Pure: the machine as a Mermaid `stateDiagram-v2`. Each state lists the tools visible in it; each
 * transition is labelled with the tools that trigger it and their event (`EVENT (no tool)` when none does).
 */
export function toMermaid(graph: FsmGraph, options: DrawOptions = {}): string {
  const ids = mermaidIds(graph.states.map((s) => s.name));
  const id = (name: string): string => ids.get(name) ?? name;
  const out = ['stateDiagram-v2'];
  if (graph.id !== undefined) out.splice(0, 0, '---', `title: ${text(graph.id)}`, '---');
  // Nested states are drawn inside their parent (`state payment { … }`); regions of a parallel state are separated by `--`.
  const draw = (parent: string | undefined, indent: string, parallel: boolean): void => {
    const level = graph.states.filter((s) => s.parent === parent);
    level.forEach((state, i) => {
      if (parallel && i > 0) out.push(`${indent}--`);
      const alias = id(state.name);
      const label = parent === undefined ? state.name : state.name.slice(parent.length + 1);
      if (alias !== state.name || label !== state.name) out.push(`${indent}state "${text(label)}" as ${alias}`);
      const lines =
        options.allTools === true && state.composite !== true ? [...state.tools, ...graph.everywhere] : state.tools;
      if (lines.length === 0 && state.composite !== true) out.push(`${indent}${alias}`);
      for (const tool of lines) out.push(`${indent}${alias} : ${text(tool)}`);
      if (state.composite === true) {
        out.push(`${indent}state ${alias} {`);
        draw(state.name, `${indent}  `, state.parallel === true);
        const first = graph.states.find((s) => s.parent === state.name && s.initial);
        if (first !== undefined) out.push(`${indent}  [*] --> ${id(first.name)}`);
        out.push(`${indent}}`);
      }
    });
  };
  draw(undefined, '  ', false);
  const initial = graph.states.find((s) => s.initial && s.parent === undefined);
  if (initial !== undefined) out.push(`  [*] --> ${id(initial.name)}`);
  for (const t of graph.transitions)
    out.push(`  ${id(t.from)} --> ${id(t.to)} : ${text(transitionLabel(t.tools, t.event))}`);
  for (const state of graph.states) if (state.final) out.push(`  ${id(state.name)} --> [*]`);
  if (options.allTools !== true && graph.everywhere.length > 0 && initial !== undefined) {
    out.push(
      `  note right of ${id(initial.name)}`,
      `    Visible in every state: ${text(graph.everywhere.join(', '))}`,
      '  end note',
    );
  }
  return out.join('\n') + '\n';
}

/** `cart.add_item (ADD_ITEM)`, or `CANCEL (no tool)`. */
export function transitionLabel(tools: readonly string[], event: string): string {
  return tools.length === 0 ? `${event} (no tool)` : `${tools.join(', ')} (${event})`;
}

/** State names Mermaid accepts as ids are kept; others get `s<n>` aliases. */
function mermaidIds(names: readonly string[]): Map<string, string> {
  const taken = new Set(names);
  const ids = new Map<string, string>();
  let n = 0;
  for (const name of names) {
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && name !== 'state' && name !== 'note') {
      ids.set(name, name);
      continue;
    }
    let alias: string;
    do alias = `s${n++}`;
    while (taken.has(alias));
    taken.add(alias);
    ids.set(name, alias);
  }
  return ids;
}

/** Mermaid entity codes for the characters that end or restructure a statement. */
function text(value: string): string {
  return value.replace(/[#;:"<>{}\n]/g, (c) => (c === '\n' ? ' ' : `#${c.charCodeAt(0)};`));
}
