import { describeState } from '../fsm/stateValue.js';
import type { FsmStateValue } from '../fsm/types.js';
import type { FusionTool, ToolResponse } from '../protocol/types.js';
import { errorResult } from '../protocol/normalizeResult.js';
import type { WorkflowSettings } from '../fsm/workflowSettings.js';

/** Refusals of modern (handle-keyed) workflow calls, written for the agent. */
export const handleTexts = {
  missing(tool: FusionTool, s: WorkflowSettings, entries: readonly string[]): ToolResponse {
    return errorResult(
      `Tool "${tool.name}" needs ${s.handleArg}: it continues a ${s.machine} workflow. Start one with ${entries.join(' or ')} (called without ${s.handleArg}) and pass the ${s.handleArg} it returns.`,
      {
        'fusion/refusal': {
          tool: tool.name,
          reason: 'missing-handle',
          handleArg: s.handleArg,
          callFirst: [...entries],
        },
      },
    );
  },
  unknown(tool: FusionTool, s: WorkflowSettings, handle: string, entries: readonly string[]): ToolResponse {
    return errorResult(
      `Unknown or expired ${s.handleArg} "${handle}". Start a new ${s.machine} workflow with ${entries.join(' or ')} (called without ${s.handleArg}) and use the ${s.handleArg} it returns.`,
      {
        'fusion/refusal': {
          tool: tool.name,
          reason: 'unknown-handle',
          handleArg: s.handleArg,
          callFirst: [...entries],
        },
      },
    );
  },
  invalid(tool: FusionTool, s: WorkflowSettings, given: string, entries: readonly string[]): ToolResponse {
    return errorResult(
      `Invalid arguments for tool "${tool.name}": ${s.handleArg} must be a string (the ${s.handleArg} a ${s.machine} workflow returned), got ${given}. Pass the ${s.handleArg} exactly as returned, or start a new workflow with ${entries.join(' or ')} (called without ${s.handleArg}).`,
      {
        'fusion/refusal': {
          tool: tool.name,
          reason: 'invalid-handle',
          handleArg: s.handleArg,
          callFirst: [...entries],
        },
      },
    );
  },
  anonymous(tool: FusionTool, s: WorkflowSettings): ToolResponse {
    return errorResult(
      `Tool "${tool.name}" belongs to the per-user workflow "${s.machine}", and this request carries no authentication, so there is no user to keep it for. Call it again with credentials (an Authorization header).`,
      { 'fusion/refusal': { tool: tool.name, reason: 'anonymous' } },
    );
  },
  finished(
    tool: FusionTool,
    s: WorkflowSettings,
    handle: string | undefined,
    state: FsmStateValue,
    entries: readonly string[],
  ): ToolResponse {
    const which = handle === undefined ? `Your ${s.machine}` : `The ${s.machine} "${handle}"`;
    return errorResult(
      `${which} is finished (final state "${describeState(state)}"); "${tool.name}" cannot change it. Start a new ${s.machine} workflow with ${entries.join(' or ')}${s.mode === 'handle' ? ` (called without ${s.handleArg})` : ''}.`,
      { 'fusion/refusal': { tool: tool.name, reason: 'finished', state, callFirst: [...entries] } },
    );
  },
  minted(s: WorkflowSettings, handle: string): string {
    return `${s.handleArg}: ${handle} — pass it as "${s.handleArg}" to every later tool of the ${s.machine} workflow.`;
  },
};
