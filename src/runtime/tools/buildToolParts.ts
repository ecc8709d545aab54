import { nowOf, nowOption } from '../../_internal/clock.js';
import { fsmWarnings } from '../../fsm/analyzeFsm.js';
import type { StateMachineGate } from '../../fsm/StateMachineGate.js';
import { StateSyncLayer } from '../../state-sync/StateSyncLayer.js';
import { stateSyncWarnings } from '../../state-sync/checkStateSync.js';
import type { InlineSyncDeclaration } from '../../state-sync/types.js';
import { InvalidationLog } from '../../state-sync/InvalidationLog.js';
import type { Surface } from '../../surface/compileSurface.js';
import type { ToolSwitch } from '../../surface/ToolSwitch.js';
import { Visibility } from '../../surface/Visibility.js';
import { WorkflowRuntime } from '../../workflow/WorkflowRuntime.js';
import { RateLimiter } from '../core/RateLimiter.js';
import { requireWorkflowGate } from './requireWorkflowGate.js';
import type { RuntimeCore } from '../core/RuntimeCore.js';
import type { SessionHooks } from '../core/SessionHooks.js';
import type { ToolParts } from '../core/ToolParts.js';

export type { ToolParts } from '../core/ToolParts.js';

/**
 * Binds the tools of `surface` that declare their workflow states (`.bindState()`) onto `gate`: this changes
 * the caller's gate, once per tool (a tool the gate already binds keeps its binding).
 */
export function bindSurfaceTools(gate: StateMachineGate, surface: Surface): void {
  for (const t of surface.tools) {
    if (t.fsm !== undefined && !gate.bindings.has(t.name)) gate.bindTool(t.name, [...t.fsm.states], t.fsm.event);
  }
}

/** Builds the tool parts of `surface` under `core.options`, warning once about what the options get wrong. */
export function buildToolParts(
  core: RuntimeCore,
  surface: Surface,
  toolSwitch: ToolSwitch,
  sessions: SessionHooks,
): ToolParts {
  const { options } = core;
  const invalidations = new InvalidationLog({
    recorded: (patterns, causedBy) => core.debug?.({ type: 'invalidation', patterns, causedBy }),
    listenerFailed: (error) => core.emit({ type: 'error', message: 'invalidation listener failed', error }),
  });
  const inline = new Map<string, InlineSyncDeclaration>();
  for (const t of surface.tools) if (t.sync !== undefined) inline.set(t.name, t.sync);
  const layer = new StateSyncLayer(
    options.stateSync,
    inline,
    options.clock === undefined ? {} : { now: nowOf(options.clock) },
  );
  const sync = layer.hasAnything ? layer : undefined;
  const warnings =
    sync === undefined
      ? []
      : stateSyncWarnings(
          options.stateSync,
          inline,
          surface.tools.map((t) => t.name),
        );
  // The workflow asks the visibility (built after it, from its gate) what a caller's scopes leave of the surface.
  const late: { visibility?: Visibility } = {};
  let workflow: WorkflowRuntime | undefined;
  if (options.fsm === undefined) requireWorkflowGate(surface);
  else {
    bindSurfaceTools(options.fsm, surface);
    warnings.push(...fsmWarnings(options.fsm));
    workflow = new WorkflowRuntime(options.fsm, surface, {
      now: nowOption(options.clock),
      store: options.fsmStore,
      handleStore: options.workflowStore ?? options.fsmStore,
      ledger: core.ledger,
      debounceMs: options.listChangedDebounceMs ?? 50,
      // With a session bus, the instance that holds the session's GET stream sends it (any instance may run the call).
      onListChanged: (key: string) => {
        core.emit({ type: 'list_changed', reason: 'transition', sessionId: key });
        const bus = options.sessionBus;
        return bus === undefined
          ? sessions.notifierOf(key)?.()
          : bus.publish(key, { method: 'notifications/tools/list_changed' });
      },
      onEvent: core.debug,
      onChange: options.onWorkflowChange,
      onError: (error: unknown) => core.emit({ type: 'error', message: 'FSM gate error', error }),
      handleLimits: options.workflowHandles,
      surfaceOf: (rctx) => late.visibility!.viewOf(rctx).surface,
    });
    sessions.workflow = workflow;
    core.workflowTtlMs = workflow.handles.settings.idleTtlMs;
  }
  for (const message of warnings) core.warn(message);
  const gated = workflow === undefined ? undefined : { gate: workflow.gate, settings: workflow.handles.settings };
  const visibility = (late.visibility = new Visibility(surface, {
    switch: toolSwitch,
    sync,
    workflow: gated,
    listCache: options.listCache,
  }));
  // One listener per runtime (runtimes are cached per options object), only when someone listens.
  if (core.debug !== undefined) toolSwitch.onChange(() => core.emit({ type: 'list_changed', reason: 'tools-changed' }));
  return {
    surface,
    toolSwitch,
    sync,
    invalidations,
    workflow,
    visibility,
    limits: RateLimiter.for(surface.tools, options),
  };
}
