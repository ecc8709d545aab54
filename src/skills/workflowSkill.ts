import { fsmGraph } from '../fsm/fsmGraph.js';
import type { StateMachineGate } from '../fsm/StateMachineGate.js';
import { workflowSettings } from '../fsm/workflowSettings.js';
import type { Surface } from '../surface/compileSurface.js';
import { shortestPath } from './shortestPath.js';
import { skillMarkdown } from './skillMarkdown.js';
import { skillName } from './skillName.js';
import { toolLabels } from './toolLabels.js';

/** A generated skill: its name, its description and its whole `SKILL.md`. */
export interface GeneratedSkill {
  readonly name: string;
  readonly description: string;
  readonly markdown: string;
}

/**
 * The skill of a workflow, generated from its machine and the tools of `surface` bound to it: what the
 * workflow is, every state with the tools it allows, every transition with the calls that make it, what a
 * refusal means and how to recover, and the shortest worked path from the initial state to a final one.
 * Written for a model, short. Pure: the same gate and surface give the same text.
 * @see docs/skills.md
 */
export function workflowSkill(gate: StateMachineGate, surface: Surface): GeneratedSkill {
  const settings = workflowSettings(gate);
  const id = gate.id ?? 'workflow';
  const name = skillName(`${id}-workflow`);
  const label = toolLabels(surface);
  const graph = fsmGraph(
    gate,
    surface.tools.map((t) => t.name),
  );
  const calls = (tools: readonly string[]): string => tools.map(label).join(' or ');
  const path = shortestPath(graph);
  const goal = path.at(-1)?.to ?? gate.config.initial;
  const stateNames = graph.states.map((s) => s.name);
  const description =
    `How to drive the "${id}" workflow of this server: which tools work in each of its states ` +
    `(${stateNames.join(', ')}), which call moves it where, and the calls from ${gate.config.initial} to ${goal}.`;
  const states = graph.states.map((s) => {
    const marks = [s.initial ? 'initial' : '', s.final ? 'final' : ''].filter((m) => m !== '');
    const head = `- \`${s.name}\`${marks.length > 0 ? ` (${marks.join(', ')})` : ''}`;
    return `${head}: ${s.tools.length > 0 ? s.tools.map(label).join(', ') : 'no workflow tool'}`;
  });
  const transitions = graph.transitions.map(
    (t) =>
      `- \`${t.from}\` → \`${t.to}\` on \`${t.event}\`: ${t.tools.length > 0 ? `call ${calls(t.tools)}` : 'no tool sends it'}`,
  );
  const worked =
    path.length === 0
      ? ['No call moves the workflow from its initial state.']
      : path.map((t, i) => `${i + 1}. In \`${t.from}\`, call ${calls(t.tools)}: now \`${t.to}\`.`);
  const handle =
    settings.mode === 'handle'
      ? ` On protocol 2026-07-28 the call that starts the workflow returns a \`${settings.handleArg}\`; pass it as ` +
        `\`${settings.handleArg}\` on every later call of this workflow.`
      : '';
  const body = [
    `# Workflow "${id}"`,
    '',
    `A state machine decides which of its tools may be called: each tool below works only in the states listed ` +
      `with it, and a successful call may move the workflow to another state. It starts in \`${gate.config.initial}\`.${handle}`,
    '',
    '## States and the tools each allows',
    ...states,
    '',
    '## Transitions',
    ...transitions,
    '',
    `## Worked path: ${gate.config.initial} to ${goal}`,
    ...worked,
    '',
    '## Refusals',
    'A call in a state that does not allow it is refused with an error result that names the current state, ' +
      'the states where the tool works, "Call first:" (the calls that lead there) and "Available now:". ' +
      'Nothing ran and nothing changed: make the "Call first" calls in order, then retry the call.',
  ].join('\n');
  return { name, description, markdown: skillMarkdown(name, description, body) };
}
