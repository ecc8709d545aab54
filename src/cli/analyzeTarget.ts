import { allPaths } from '../fsm/stateValue.js';
import { parseStateArg } from './fsm/parseStateArg.js';
import type { ToolAnnotations, HandlerExtra } from '../protocol/types.js';
import { FusionError } from '../errors/FusionError.js';
import type { FsmStateStore } from '../fsm/FsmStateStore.js';
import type { Surface } from '../surface/compileSurface.js';
import type { ToolListResult } from '../surface/types.js';
import type { AttachOptions } from '../registry/types.js';
import { StateSyncLayer } from '../state-sync/StateSyncLayer.js';
import type { CacheDirective, InlineSyncDeclaration } from '../state-sync/types.js';
import { CliError } from './CliError.js';
import type { Target } from './loadTarget.js';

/** One registered tool as `inspect` shows it. */
export interface ToolRow {
  /** Canonical name (policies, bindings and tags use it). */
  name: string;
  /** Name in `tools/list` (differs under `nameStyle` or grouped exposition). */
  exposedAs: string;
  kind: string;
  annotations: ToolAnnotations;
  cacheControl: CacheDirective | null;
  invalidates: string[];
  /** Workflow states where the tool is visible; `null` = every state (or no FSM). */
  states: string[] | null;
  /** Event a successful call sends to the FSM. */
  event: string | null;
  /** OAuth scopes a principal needs to see and call the tool (empty: everyone). */
  scopes: string[];
}

/** What the startup of a server over this target would compute and report. */
export interface Analysis {
  readonly surface: Surface;
  /** The startup warnings, exactly as a server attaching these options would report them. */
  readonly warnings: readonly string[];
  readonly rows: readonly ToolRow[];
}

/**
 * Builds the runtime a server would build for the target's options, collecting the startup
 * warnings instead of printing them. Configuration errors (invalid policies, unknown states) throw.
 */
export function analyzeTarget(target: Target): Analysis {
  const warnings: string[] = [];
  const runtime = buildRuntime(target, { onWarning: (message) => warnings.push(message) });
  try {
    const { surface } = runtime;
    const inline = new Map<string, InlineSyncDeclaration>();
    for (const t of surface.tools) if (t.sync !== undefined) inline.set(t.name, t.sync);
    const sync = new StateSyncLayer(target.options.stateSync, inline);
    const rows = surface.tools.map((tool): ToolRow => {
      const policy = sync.resolve(tool.name);
      const binding = target.gate?.bindings.get(tool.name);
      return {
        name: tool.name,
        exposedAs: surface.exposedName.get(tool.name) ?? tool.name,
        kind: tool.kind,
        annotations: { ...tool.annotations },
        cacheControl: policy?.cacheControl ?? null,
        invalidates: [...(policy?.invalidates ?? [])],
        states: binding === undefined ? null : [...binding.states],
        event: binding?.event ?? null,
        scopes: [...(tool.requiredScopes ?? [])],
      };
    });
    return { surface, warnings, rows };
  } finally {
    runtime.dispose();
  }
}

/** Exactly what `tools/list` returns to a session in workflow state `state`. */
export async function listInState(target: Target, state: string): Promise<ToolListResult> {
  return listFor(target, { state });
}

/**
 * Exactly what `tools/list` returns to a principal holding `scopes` (none: an unauthenticated caller), in
 * workflow state `state` (default: the initial state a new session starts in, when there is a gate).
 */
export async function listFor(
  target: Target,
  view: { state?: string | undefined; scopes?: readonly string[] | undefined },
): Promise<ToolListResult> {
  const gate = target.gate;
  if (gate === undefined && view.state !== undefined) {
    throw new CliError(
      'CLI_NO_FSM',
      `"${target.path}" has no workflow gate, so --state has nothing to select. Export the gate as \`fsm\` (or put it in the options), or name it with --fsm <export>.`,
      { path: target.path },
    );
  }
  const state = view.state;
  // Default: the initial state a new session starts in (entered down to its initial children).
  const value =
    gate === undefined ? undefined : state === undefined ? gate.initialState : parseStateArg(gate.config, state);
  if (gate !== undefined && state !== undefined && value === undefined) {
    const states = allPaths(gate.config);
    throw new CliError(
      'CLI_UNKNOWN_STATE',
      `${gate.id === undefined ? 'The FSM' : `FSM "${gate.id}"`} has no state "${state}"; use one of: ${states.join(', ')}${gate.statechart ? ' (dotted paths for nested states; several paths separated by commas, or a JSON state value, for parallel ones)' : ''}.`,
      { state },
    );
  }
  const fixed: FsmStateStore = {
    load: async () => (value === undefined ? undefined : { state: value, updatedAt: 0 }),
    save: async () => {},
  };
  const runtime = buildRuntime(target, { fsmStore: fixed, onWarning: () => {} });
  const extra =
    view.scopes === undefined
      ? INSPECT_EXTRA
      : {
          ...INSPECT_EXTRA,
          authInfo: { token: 'mcp-fusion-inspect', clientId: 'mcp-fusion-inspect', scopes: [...view.scopes] },
        };
  try {
    return await runtime.tools.listTools({ sessionKey: 'mcp-fusion-inspect', extra });
  } finally {
    runtime.dispose();
  }
}

function buildRuntime(target: Target, extra: Partial<AttachOptions<any>>) {
  // A fresh options object gets a fresh runtime; `debug` is dropped so nothing is logged behind our back.
  const options: AttachOptions<any> = { ...target.options, ...extra, debug: false };
  try {
    return target.registry.runtime(options);
  } catch (error) {
    if (error instanceof FusionError)
      throw new CliError('CLI_CONFIG', `${target.path}: ${error.message}`, { path: target.path, cause: error.code });
    throw error;
  }
}

// tools/list reads only the state key; the request details are never looked at.
const INSPECT_EXTRA = Object.freeze({
  signal: new AbortController().signal,
  sessionId: 'mcp-fusion-inspect',
  era: 'legacy',
  requestId: 0,
}) as Partial<HandlerExtra> as HandlerExtra;
