import { copyOf } from '../_internal/copyOf.js';
import type { FusionTool, ToolResponse } from '../protocol/types.js';
import { errorResult } from '../protocol/normalizeResult.js';
import { markThrown } from '../protocol/thrownBy.js';
import { WorkflowStateError } from '../fsm/WorkflowStateError.js';
import type { StateMachineGate } from '../fsm/StateMachineGate.js';
import { describeState, stateKey } from '../fsm/stateValue.js';
import type { FsmStateValue } from '../fsm/types.js';
import type { Surface } from '../surface/compileSurface.js';

/**
 * Shortest sequence of bound tools that leads from `from` to a state where `target` is visible,
 * following each tool's event through the machine definition. Empty when none exists.
 */
export function pathTo(gate: StateMachineGate, from: FsmStateValue, target: string): string[] | undefined {
  // Nested and parallel machines: XState resolves targets through the hierarchy, so no path is guessed here.
  if (gate.statechart || typeof from !== 'string') return undefined;
  const goal = gate.bindings.get(target)?.states ?? [];
  const queue: Array<{ state: string; path: string[] }> = [{ state: from, path: [] }];
  const seen = new Set([from]);
  while (queue.length > 0) {
    const { state, path } = queue.shift()!;
    if (goal.includes(state)) return path;
    for (const [tool, binding] of gate.bindings) {
      if (binding.event === undefined || !binding.states.includes(state)) continue;
      const on = gate.config.states[state]?.on;
      const found = on !== undefined && Object.hasOwn(on, binding.event) ? on[binding.event] : undefined;
      const next = typeof found === 'string' ? found : undefined;
      if (next === undefined || seen.has(next) || gate.isFinal(state)) continue;
      seen.add(next);
      queue.push({ state: next, path: [...path, tool] });
    }
  }
  return [];
}

/** Names (exposed) of the tools visible in `state`, in surface order. */
export function availableIn(gate: StateMachineGate, state: FsmStateValue, surface: Surface): string[] {
  const out: string[] = [];
  for (const t of surface.tools) {
    if (t.fsm !== undefined && !gate.isAllowedIn(state, t.name)) continue;
    const exposed = surface.exposedName.get(t.name) ?? t.name;
    if (!out.includes(exposed)) out.push(exposed);
  }
  return out;
}

/** The `isError` result of a call refused by the gate: what the tool needs and what to do now. */
export function gateRefusal(
  gate: StateMachineGate,
  tool: FusionTool,
  state: FsmStateValue,
  surface: Surface,
): ToolResponse {
  const states = tool.fsm?.states ?? [];
  const available = availableIn(gate, state, surface);
  const visible = new Set(surface.tools.map((t) => t.name));
  // A path through a tool the caller may not see (its scopes) is no path for this caller, and is never named.
  const route = pathTo(gate, state, tool.name);
  const found = route?.every((n) => visible.has(n)) === false ? [] : route;
  const path = (found ?? []).map((n) => surface.exposedName.get(n) ?? n);
  const first =
    found === undefined
      ? ''
      : path.length > 0
        ? ` Call first: ${path.join(' → ')}.`
        : ' No sequence of calls from this state makes it available.';
  const text =
    `Tool "${tool.name}" is not available in the current workflow state "${describeState(state)}"${gate.id !== undefined ? ` (workflow "${gate.id}")` : ''}. ` +
    `It works in: ${states.join(', ')}.${first} Available now: ${available.join(', ')}.`;
  return errorResult(text, {
    'fusion/refusal': { tool: tool.name, state, requiredStates: [...states], callFirst: path, available },
  });
}

/** The result when the handler ran but the new workflow state could not be saved. */
export function persistFailure(
  tool: FusionTool,
  result: ToolResponse,
  error: Error,
  gate: StateMachineGate,
): ToolResponse {
  const workflow = `the workflow${gate.id !== undefined ? ` "${gate.id}"` : ''}`;
  const outcome =
    error instanceof WorkflowStateError && error.code === 'FSM_STORE_CONFLICT'
      ? `${workflow} did not take this call's transition. Call tools/list to see what is available now`
      : `${workflow} stays in its previous state. Re-check the data before continuing`;
  const note = `Warning: "${tool.name}" ran, but the workflow state could not be saved (${error.message}); ${outcome}.`;
  return { ...result, isError: true, content: [...result.content, { type: 'text', text: note }] };
}

/** Transition lines by surface, gate and state: a pipeline's surface and the gate's bindings are fixed once it is built. */
const nextLines = new WeakMap<Surface, WeakMap<StateMachineGate, Map<string, string>>>();

/**
 * The line a successful transition ends with: the new state and the workflow's tools available now
 * (bound tools allowed in it and unbound tools of the same domains), so the model never needs to re-list; past
 * {@link NEXT_LINE_NAMES} names it names the first ones and how many more (a result is read by a model: a
 * workflow of hundreds of tools would otherwise append kilobytes to every transition).
 * Computed once per state (the machine's states are finite), then looked up.
 */
export function nextLine(gate: StateMachineGate, state: FsmStateValue, surface: Surface): string {
  let byGate = nextLines.get(surface);
  if (byGate === undefined) nextLines.set(surface, (byGate = new WeakMap()));
  let byState = byGate.get(gate);
  if (byState === undefined) byGate.set(gate, (byState = new Map()));
  let line = byState.get(stateKey(state));
  if (line === undefined) byState.set(stateKey(state), (line = composeNextLine(gate, state, surface)));
  return line;
}

/** Most tool names a "Next:" line spells out; past it, the line says how many more there are and where they are. */
export const NEXT_LINE_NAMES = 24;

/** The names of a "Next:" line, at most {@link NEXT_LINE_NAMES} of them, else `none`. */
function nextNames(names: ReadonlySet<string>, none: string): string {
  if (names.size === 0) return none;
  const all = [...names];
  if (all.length <= NEXT_LINE_NAMES) return all.join(', ');
  const more = all.length - NEXT_LINE_NAMES;
  return `${all.slice(0, NEXT_LINE_NAMES).join(', ')} and ${more} more (tools/list lists every tool you may call now)`;
}

function composeNextLine(gate: StateMachineGate, state: FsmStateValue, surface: Surface): string {
  const domains = new Set([...gate.bindings.keys()].map((n) => n.split('.')[0]));
  const names = new Set<string>();
  for (const t of surface.tools) {
    const relevant = t.fsm !== undefined ? gate.isAllowedIn(state, t.name) : domains.has(t.name.split('.')[0]);
    if (relevant) names.add(surface.exposedName.get(t.name) ?? t.name);
  }
  const machine = gate.id === undefined ? 'The workflow' : `Workflow "${gate.id}"`;
  if (gate.isFinal(state))
    return `${machine} is now in its final state "${describeState(state)}". Next: ${nextNames(names, 'nothing more to do')}.`;
  return `${machine} is now in state "${describeState(state)}". Next: ${nextNames(names, 'no tool of this workflow')}.`;
}

/** Appends a text block and merges `_meta` into a result without mutating it. */
export function appendToResult(result: ToolResponse, text: string, meta?: Record<string, unknown>): ToolResponse {
  const out = copyOf(result);
  out.content = [...result.content, { type: 'text', text }];
  if (meta !== undefined) out._meta = withMeta(result._meta, meta);
  return out;
}

/** `{ ...own, ...meta }` without the slow path of keys added to a spread copy. */
export function withMeta(
  own: Record<string, unknown> | undefined,
  meta: Record<string, unknown>,
): Record<string, unknown> {
  return own === undefined ? Object.assign({}, meta) : Object.assign(copyOf(own), meta);
}

/** The answer to a call whose workflow state could not be loaded (the tool did not run). */
export function loadFailure(tool: FusionTool, error: unknown): ToolResponse {
  return markThrown(
    errorResult(
      `Tool "${tool.name}" could not run: the workflow state could not be loaded (${error instanceof Error ? error.message : String(error)}). Nothing was changed; try again shortly.`,
    ),
    error,
    'store',
  );
}
