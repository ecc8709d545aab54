import type { ByteLedger } from '../ledger/ByteLedger.js';
import { copyOf } from '../_internal/copyOf.js';
import type { FusionTool, ToolResponse } from '../protocol/types.js';
import type { FsmStateStore } from '../fsm/FsmStateStore.js';
import { WorkflowSessions, type WorkflowOutcome } from './WorkflowSessions.js';
import { MemoryFsmStore } from '../fsm/MemoryFsmStore.js';
import type { StateMachineGate } from '../fsm/StateMachineGate.js';
import type { FsmStateValue } from '../fsm/types.js';
import type { DebugEvent } from '../tracing/types.js';
import type { Route, Surface } from '../surface/compileSurface.js';
import { loadFailure, persistFailure } from './gateTexts.js';
import type { RequestContext } from '../surface/types.js';
import { WorkflowHandles } from './WorkflowHandles.js';
import type { WorkflowHandleLimits } from './HandleBudget.js';
import { markThrown } from '../protocol/thrownBy.js';
import { HandleCalls, type Execute, type WorkflowChange } from './HandleCalls.js';
import { WorkflowAnswers } from './WorkflowAnswers.js';

export type { WorkflowChange } from './HandleCalls.js';
export { ownerOf } from './ownerOf.js';

/** A task's call (its extra claims its result): it holds the workflow's lock only at its start and its end. */
function isTask(rctx: RequestContext): boolean {
  return (rctx.extra as { claimResult?: unknown }).claimResult !== undefined;
}

/** Options of {@link WorkflowRuntime}. */
export interface WorkflowRuntimeOptions {
  store?: FsmStateStore | undefined;
  handleStore?: FsmStateStore | undefined;
  now?: (() => number) | undefined;
  debounceMs: number;
  onListChanged: (key: string) => unknown;
  onChange?: ((change: WorkflowChange) => void) | undefined;
  onError: (error: unknown) => void;
  /** Hears refusals and transitions (the debug observer). */
  onEvent?: ((event: DebugEvent) => void) | undefined;
  /** Budgets of live handle-keyed instances (attach option `workflowHandles`). */
  handleLimits?: WorkflowHandleLimits | undefined;
  /** The runtime's held-bytes ledger: each live handle instance is held there (kind `handle`). */
  ledger?: ByteLedger | undefined;
  /** The part of the surface a request's caller may see (its scopes): gate texts name only those tools. */
  surfaceOf?: ((rctx: RequestContext) => Surface) | undefined;
}

/**
 * The FSM gate in both eras. Legacy requests keep per-session state (the seeds); modern requests — and
 * legacy ones of a machine with `legacy: 'handle'` — name their instance with a handle the client passes
 * ({@link HandleCalls}).
 */
export class WorkflowRuntime {
  readonly gate: StateMachineGate;
  readonly sessions: WorkflowSessions;
  readonly handles: WorkflowHandles;
  readonly #answers: WorkflowAnswers;
  readonly #handleCalls: HandleCalls;

  constructor(gate: StateMachineGate, surface: Surface, options: WorkflowRuntimeOptions) {
    this.gate = gate;
    const now = options.now ?? Date.now;
    this.sessions = new WorkflowSessions(gate, {
      now,
      ...(options.store !== undefined ? { store: options.store } : {}),
      debounceMs: options.debounceMs,
      onListChanged: (key) => void options.onListChanged(key),
      onError: options.onError,
    });
    this.handles = new WorkflowHandles(gate, options.handleStore ?? new MemoryFsmStore({ now }), {
      onError: options.onError,
      now,
      limits: options.handleLimits,
    });
    if (options.ledger !== undefined) this.handles.budget.useLedger(options.ledger);
    this.#answers = new WorkflowAnswers(gate, this.handles.settings.machine, surface, options);
    const entries = surface.tools
      .filter((t) => this.handles.isEntry(t))
      .map((t) => surface.exposedName.get(t.name) ?? t.name);
    this.#handleCalls = new HandleCalls(gate, this.handles, this.#answers, {
      entries,
      onChange: options.onChange,
      now,
    });
  }

  /** Keeps only the suggested next actions the gate shows in `state` (unbound tools when it is unknown). */
  suggest(result: ToolResponse, state: FsmStateValue | undefined): ToolResponse {
    return this.#answers.suggest(result, state);
  }

  /**
   * The bound tools allowed in `state` that the request's caller may see (its scopes): what a workflow result's
   * `_meta` and the workflow-instance resource name as `allowed`.
   */
  allowedIn(state: FsmStateValue, rctx: Pick<RequestContext, 'extra'>): readonly string[] {
    return this.#answers.allowedIn(state, this.#answers.surfaceOf(rctx as RequestContext));
  }

  /** The state a request's suggestions are filtered against (a session's current state, when it has one). */
  async stateFor(rctx: RequestContext): Promise<FsmStateValue | undefined> {
    if (rctx.sessionKey === undefined || this.usesHandles(rctx)) return undefined;
    return this.sessions.snapshot(rctx.sessionKey).then(
      (s) => s.state,
      () => undefined,
    );
  }

  /** True when this request is served with handles rather than session state. */
  usesHandles(rctx: RequestContext): boolean {
    return rctx.sessionKey === undefined || this.handles.settings.legacy === 'handle';
  }

  /** Runs a call of a bound tool; `execute` validates and runs the handler. */
  run(
    tool: FusionTool,
    args: Record<string, unknown>,
    rctx: RequestContext,
    route: Route,
    execute: Execute,
  ): Promise<ToolResponse> {
    if (this.usesHandles(rctx)) return this.#handleCalls.run(tool, args, rctx, route, execute);
    const key = rctx.sessionKey!;
    const instance = { machine: this.handles.settings.machine, key, handle: undefined };
    return this.sessions
      .run(key, tool.name, () => execute(args, instance), { detached: isTask(rctx) })
      .then(
        (outcome) => this.#sessionAnswer(tool, key, rctx, outcome),
        (error: unknown) => loadFailure(tool, error),
      );
  }

  /** The answer to a call of a session's workflow, from the gate's outcome. */
  #sessionAnswer(
    tool: FusionTool,
    key: string,
    rctx: RequestContext,
    outcome: WorkflowOutcome<ToolResponse>,
  ): ToolResponse {
    if (outcome.outcome === 'refused') return this.#answers.refusal(tool, outcome.state, rctx, { sessionId: key });
    if (outcome.persistError !== undefined)
      return markThrown(
        this.suggest(persistFailure(tool, outcome.result, outcome.persistError, this.gate), outcome.state),
        outcome.persistError,
        'store',
      );
    this.#answers.traceTransition(rctx, tool, outcome.transition);
    const result = this.suggest(outcome.result, outcome.state);
    if (outcome.transition?.changed !== true) return result;
    this.#answers.reported(tool, outcome.transition, { sessionId: key });
    const out = copyOf(result);
    out.content = [
      ...result.content,
      this.#answers.nextBlock(outcome.transition.currentState, this.#answers.surfaceOf(rctx)),
    ];
    return out;
  }
}
