import type { FusionTool } from '../protocol/types.js';
import type { StateMachineGate } from '../fsm/StateMachineGate.js';
import type { Surface, WireTool } from './compileSurface.js';
import type { WorkflowSettings } from '../fsm/workflowSettings.js';
import { joinSentences } from '../protocol/messages.js';

/** `_meta` key of a bound tool on the modern surface: `{ machine, states, handleArg }`. */
export const WORKFLOW_META = 'fusion/workflow';

/**
 * The modern (2026-07-28) tool list: every tool, whatever the workflow state. Bound tools say where they
 * work and which handle to pass, take the handle argument, and carry the same facts in `_meta`.
 */
export function modernSurface(
  listed: readonly WireTool[],
  surface: Surface,
  gate: StateMachineGate,
  settings: WorkflowSettings,
): WireTool[] {
  const entries = surface.tools
    .filter((t) => t.fsm !== undefined && !t.fsm.states.includes('*') && gate.isAllowedIn(gate.initialState, t.name))
    .map((t) => surface.exposedName.get(t.name) ?? t.name);
  return listed.map((wire) => {
    const route = surface.routes.get(wire.name);
    const tools = route === undefined ? [] : route.kind === 'flat' ? [route.tool] : [...route.actions.values()];
    const bound = tools.filter((t): t is FusionTool & { fsm: NonNullable<FusionTool['fsm']> } => t.fsm !== undefined);
    if (bound.length === 0) return wire;
    // `.bindState('*')` readers work in every state (as bound on the gate) but never start an instance.
    const states = [...new Set(bound.flatMap((t) => gate.bindings.get(t.name)?.states ?? t.fsm.states))];
    const entry = bound.some((t) => (t.fsm.states.includes('*') ? false : gate.isAllowedIn(gate.initialState, t.name)));
    const sentence = describeBinding(settings, states, entry, entries);
    const inputSchema =
      settings.mode === 'handle'
        ? withHandle(
            wire.inputSchema,
            settings.handleArg,
            route?.kind === 'flat' && !entry,
            handleDescription(settings, entry, entries),
          )
        : wire.inputSchema;
    return {
      ...wire,
      description: joinSentences(wire.description, sentence),
      inputSchema,
      _meta: {
        ...wire._meta,
        [WORKFLOW_META]: {
          machine: settings.machine,
          states,
          handleArg: settings.mode === 'handle' ? settings.handleArg : null,
          entry,
        },
      },
    };
  });
}

function describeBinding(s: WorkflowSettings, states: string[], entry: boolean, entries: string[]): string {
  const where = `works in state${states.length > 1 ? 's' : ''} ${states.join(', ')}`;
  if (s.mode === 'subject') return ` Workflow "${s.machine}" (one per user): ${where}.`;
  if (entry)
    return ` Workflow "${s.machine}": ${where}. Omit ${s.handleArg} to start a new ${s.machine} workflow (the result returns it); pass it to continue one. Unused ${s.machine} workflows expire after ${hours(s.idleTtlMs)}.`;
  return ` Workflow "${s.machine}": ${where}; pass the ${s.handleArg} returned by ${entries.join(' or ')}.`;
}

function handleDescription(s: WorkflowSettings, entry: boolean, entries: string[]): string {
  return entry
    ? `The ${s.machine} workflow to continue, as returned by an earlier call. Omit it to start a new one.`
    : `The ${s.machine} workflow this call belongs to: the ${s.handleArg} returned by ${entries.join(' or ')}.`;
}

function withHandle(
  schema: Record<string, unknown>,
  arg: string,
  required: boolean,
  description: string,
): Record<string, unknown> {
  const properties = {
    ...(schema.properties as Record<string, unknown> | undefined),
    [arg]: { type: 'string', description },
  };
  const req = [...((schema.required as string[] | undefined) ?? [])];
  if (required && !req.includes(arg)) req.push(arg);
  return { ...schema, properties, ...(req.length > 0 ? { required: req } : {}) };
}

function hours(ms: number): string {
  return ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : `${Math.round(ms / 60_000)} min`;
}
