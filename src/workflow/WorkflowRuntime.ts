import { copyOf } from '../_internal/copyOf.js';
import type { ContentBlock, FusionTool, HandlerExtra, ToolResponse } from '../protocol/types.js';
import { errorResult, isInputRequired } from '../protocol/normalizeResult.js';
import type { FsmStateStore } from '../fsm/FsmStateStore.js';
import { GateSessions, type GateOutcome } from '../fsm/GateSessions.js';
import { MemoryFsmStore } from '../fsm/MemoryFsmStore.js';
import { hasTransitionListeners, reportTransition, type StateMachineGate } from '../fsm/StateMachineGate.js';
import type { FsmStateValue, TransitionEvent, TransitionResult } from '../fsm/types.js';
import { describeState, stateKey } from '../fsm/stateValue.js';
import type { DebugEvent } from '../tracing/types.js';
import type { Route, Surface } from '../surface/compileSurface.js';
import { appendToResult, gateRefusal, nextLine, persistFailure, withMeta } from './gateTexts.js';
import { handleTexts } from './handleTexts.js';
import { WORKFLOW_META } from '../surface/modernSurface.js';
import type { RequestContext } from '../surface/types.js';
import { traceRefusal } from '../tracing/traceRefusal.js';
import { WorkflowHandles, type HandleRejection } from './WorkflowHandles.js';
import type { WorkflowHandleLimits } from './HandleBudget.js';
import { filterSuggestions, hasSuggestions } from '../presenter/filterSuggestions.js';
import { requestPrincipal } from '../principal/requestPrincipal.js';
import { markThrown } from '../protocol/thrownBy.js';

/** Runs the handler part of a call with the instance it acts on. */
type Execute = (
  args: Record<string, unknown>,
  workflow: NonNullable<HandlerExtra['workflow']>,
) => Promise<ToolResponse>;

/** A change of a handle-keyed instance, for `resources/updated` on its URI. */
export interface WorkflowChange {
  machine: string;
  handle: string;
  uri: string;
  state: FsmStateValue;
  /**
   * The call that made this change also minted the handle: nobody can have subscribed to `uri` yet (the
   * handle is unguessable and first leaves the server in this call's result), so the HTTP app publishes
   * no `resources/updated` for it; a listen stream opened right after the result would otherwise receive
   * this notification late, from the bus, as if the instance had changed again.
   */
  minted: boolean;
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
  /** The part of the surface a request's caller may see (its scopes): gate texts name only those tools. */
  surfaceOf?: ((scope: RequestContext) => Surface) | undefined;
}

/**
 * The FSM gate in both eras. Legacy requests keep per-session state (the seeds); modern requests — and
 * legacy ones of a machine with `legacy: 'handle'` — name their instance with a handle the client passes.
 */
export class WorkflowRuntime {
  readonly gate: StateMachineGate;
  readonly sessions: GateSessions;
  readonly handles: WorkflowHandles;
  readonly #surface: Surface;
  readonly #entries: string[];
  readonly #known: Set<string>;
  readonly #onChange: WorkflowRuntimeOptions['onChange'];
  readonly #onEvent: WorkflowRuntimeOptions['onEvent'];
  readonly #now: () => number;
  /** The "Next: …" block a transition into a state appends, by state key (states are finite; shared, frozen). */
  readonly #nextBlocks = new WeakMap<Surface, Map<string, ContentBlock>>();
  readonly #surfaceOf: (scope: RequestContext) => Surface;
  /** `_meta` `allowed` of handle-keyed results, by state key. */
  readonly #allowed = new Map<string, readonly string[]>();

  constructor(gate: StateMachineGate, surface: Surface, options: WorkflowRuntimeOptions) {
    this.gate = gate;
    this.#surface = surface;
    this.#surfaceOf = options.surfaceOf ?? (() => surface);
    this.#onChange = options.onChange;
    this.#onEvent = options.onEvent;
    const now = options.now ?? Date.now;
    this.#now = now;
    this.sessions = new GateSessions(gate, {
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
    this.#entries = surface.tools
      .filter((t) => this.handles.isEntry(t))
      .map((t) => surface.exposedName.get(t.name) ?? t.name);
    this.#known = new Set(surface.tools.map((t) => t.name));
  }

  /** Keeps only the suggested next actions the gate shows in `state` (unbound tools when it is unknown). */
  suggest(result: ToolResponse, state: FsmStateValue | undefined): ToolResponse {
    if (!hasSuggestions(result)) return result;
    return filterSuggestions(
      result,
      (t) => this.#known.has(t) && (state === undefined ? !this.gate.bindings.has(t) : this.gate.isAllowedIn(state, t)),
      {
        displayName: (t) => this.#surface.exposedName.get(t) ?? t,
      },
    );
  }

  /** The state a request's suggestions are filtered against (a session's current state, when it has one). */
  async stateFor(scope: RequestContext): Promise<FsmStateValue | undefined> {
    if (scope.sessionKey === undefined || this.usesHandles(scope)) return undefined;
    return this.sessions.snapshot(scope.sessionKey).then(
      (s) => s.state,
      () => undefined,
    );
  }

  /** True when this request is served with handles rather than session state. */
  usesHandles(scope: RequestContext): boolean {
    return scope.sessionKey === undefined || this.handles.settings.legacy === 'handle';
  }

  /** Runs a call of a bound tool; `execute` validates and runs the handler. */
  run(
    tool: FusionTool,
    args: Record<string, unknown>,
    scope: RequestContext,
    route: Route,
    execute: Execute,
  ): Promise<ToolResponse> {
    if (!this.usesHandles(scope)) {
      const key = scope.sessionKey!;
      return this.#runSession(tool, key, scope, () =>
        execute(args, { machine: this.handles.settings.machine, key, handle: undefined }),
      );
    }
    return this.#runHandle(tool, args, scope, route, execute);
  }

  async #runSession(
    tool: FusionTool,
    key: string,
    scope: RequestContext,
    fn: () => Promise<ToolResponse>,
  ): Promise<ToolResponse> {
    let outcome: GateOutcome<ToolResponse>;
    try {
      outcome = await this.sessions.run(key, tool.name, fn);
    } catch (error) {
      return loadFailure(tool, error);
    }
    if (outcome.outcome === 'refused') {
      this.#onEvent?.({
        type: 'refusal',
        tool: tool.name,
        reason: 'gate',
        state: describeState(outcome.state),
        sessionId: key,
      });
      return traceRefusal(
        scope.trace,
        gateRefusal(this.gate, tool, outcome.state, this.#surfaceOf(scope)),
        'workflow_state',
      );
    }
    if (outcome.persistError !== undefined)
      return markThrown(
        this.suggest(persistFailure(tool, outcome.result, outcome.persistError, this.gate), outcome.state),
        outcome.persistError,
        'store',
      );
    this.#traceTransition(scope, tool, outcome.transition);
    const result = this.suggest(outcome.result, outcome.state);
    if (outcome.transition?.changed === true) {
      this.#reported(tool, outcome.transition, key, undefined, undefined);
      const out = copyOf(result);
      out.content = [...result.content, this.#nextBlock(outcome.transition.currentState, this.#surfaceOf(scope))];
      return out;
    }
    return result;
  }

  /** The bound tools allowed in `state`, once per state (the bindings are fixed once the pipeline is built; shared, frozen). */
  #allowedIn(state: FsmStateValue): readonly string[] {
    const key = stateKey(state);
    let allowed = this.#allowed.get(key);
    if (allowed === undefined)
      this.#allowed.set(key, (allowed = Object.freeze(this.gate.visibleIn(state, [...this.gate.bindings.keys()]))));
    return allowed;
  }

  #nextBlock(state: FsmStateValue, surface: Surface): ContentBlock {
    const key = stateKey(state);
    let blocks = this.#nextBlocks.get(surface);
    if (blocks === undefined) this.#nextBlocks.set(surface, (blocks = new Map()));
    let block = blocks.get(key);
    if (block === undefined)
      blocks.set(key, (block = Object.freeze({ type: 'text' as const, text: nextLine(this.gate, state, surface) })));
    return block;
  }

  async #runHandle(
    tool: FusionTool,
    args: Record<string, unknown>,
    scope: RequestContext,
    route: Route,
    execute: Execute,
  ): Promise<ToolResponse> {
    const s = this.handles.settings;
    const { [s.handleArg]: handleValue, ...rest } = args;
    const owner = ownerOf(scope);
    const resolved = this.handles.resolve(tool, s.mode === 'handle' ? handleValue : undefined, owner);
    if (resolved.kind === 'missing')
      return traceRefusal(scope.trace, handleTexts.missing(tool, s, this.#entries), 'workflow_handle');
    if (resolved.kind === 'unknown')
      return traceRefusal(scope.trace, handleTexts.unknown(tool, s, resolved.handle, this.#entries), 'workflow_handle');
    if (resolved.kind === 'invalid')
      return traceRefusal(scope.trace, handleTexts.invalid(tool, s, resolved.given, this.#entries), 'workflow_handle');
    if (resolved.kind === 'anonymous')
      return traceRefusal(scope.trace, handleTexts.anonymous(tool, s), 'workflow_handle');
    if (resolved.kind === 'full')
      return traceRefusal(
        scope.trace,
        errorResult(
          `Tool "${tool.name}" could not start a new ${s.machine} workflow: ${resolved.budget === 'owner' ? `you already hold ${resolved.max} open ones` : `the server holds its maximum of ${resolved.max} open ones`}. Finish or abandon an open one (it expires after ${Math.round(s.idleTtlMs / 60_000)} min idle) and try again later.`,
          {
            'fusion/budget': {
              kind: 'workflowHandles',
              scope: resolved.budget === 'owner' ? 'principal' : 'global',
              max: resolved.max,
            },
          },
        ),
        'workflow_handle',
      );
    const { key, handle, minted } = resolved;
    let outcome: GateOutcome<ToolResponse, HandleRejection>;
    try {
      outcome = await this.handles.sessions.run(
        key,
        tool.name,
        () => execute(s.mode === 'handle' ? rest : args, { machine: s.machine, key, handle }),
        {
          admit: (stored) => this.handles.admit(resolved, stored),
          // A successful call that does not transition slides the instance's expiry (and stores a minted one).
          keepAlive: (result) => result.isError !== true && !isInputRequired(result),
        },
      );
    } catch (error) {
      return loadFailure(tool, error);
    }
    if (outcome.outcome === 'rejected') {
      const { reason } = outcome;
      const text =
        reason.kind === 'unknown'
          ? handleTexts.unknown(tool, s, reason.handle, this.#entries)
          : handleTexts.finished(tool, s, reason.handle, reason.state, this.#entries);
      return traceRefusal(scope.trace, text, 'workflow_handle');
    }
    if (outcome.outcome === 'refused') {
      this.#onEvent?.({
        type: 'refusal',
        tool: tool.name,
        reason: 'gate',
        state: describeState(outcome.state),
        sessionId: scope.sessionKey,
        workflowKey: key,
      });
      const refusal = traceRefusal(
        scope.trace,
        gateRefusal(this.gate, tool, outcome.state, this.#surfaceOf(scope)),
        'workflow_state',
      );
      return handle === undefined
        ? refusal
        : appendToResult(refusal, `(${s.handleArg} "${handle}")`, {
            [WORKFLOW_META]: { machine: s.machine, handle, state: outcome.state },
          });
    }
    if (outcome.persistError !== undefined)
      return markThrown(
        this.suggest(persistFailure(tool, outcome.result, outcome.persistError, this.gate), outcome.state),
        outcome.persistError,
        'store',
      );
    let result = outcome.result;
    if (result.isError === true || isInputRequired(result)) return result;
    this.#traceTransition(scope, tool, outcome.transition);
    const changed = outcome.transition?.changed === true;
    const state = changed ? outcome.transition!.currentState : (outcome.state ?? this.gate.initialState);
    if (handle !== undefined) {
      if (this.gate.isFinal(state)) this.handles.budget.drop(owner, handle);
      else this.handles.budget.hold(owner, handle, this.#now() + s.idleTtlMs);
    }
    result = this.suggest(result, state);
    const meta = {
      [WORKFLOW_META]: {
        machine: s.machine,
        ...(handle !== undefined ? { handle, handleArg: s.handleArg } : {}),
        state,
        allowed: this.#allowedIn(state),
      },
    };
    if (minted && handle !== undefined) {
      result = appendToResult(result, handleTexts.minted(s, handle), meta);
      if (route.kind === 'flat' && route.tool.outputSchema !== undefined && result.structuredContent !== undefined) {
        result = { ...result, structuredContent: { ...result.structuredContent, [s.handleArg]: handle } };
      }
    }
    if (changed) {
      this.#reported(tool, outcome.transition!, scope.sessionKey, key, handle);
      result = appendToResult(result, nextLine(this.gate, state, this.#surfaceOf(scope)), meta);
      if (handle !== undefined)
        this.#onChange?.({ machine: s.machine, handle, uri: this.handles.uri(handle), state, minted });
    } else if (!minted) {
      const out = copyOf(result);
      out._meta = withMeta(result._meta, meta);
      result = out;
    }
    return result;
  }

  /** Tells the gate's `onTransition` listeners and the debug observer about a served transition (built only when one listens). */
  #reported(
    tool: FusionTool,
    transition: TransitionResult,
    sessionId: string | undefined,
    workflowKey: string | undefined,
    handle: string | undefined,
  ): void {
    const listened = this.gate[hasTransitionListeners];
    if (!listened && this.#onEvent === undefined) return;
    const event = tool.fsm?.event ?? this.gate.bindings.get(tool.name)?.event ?? '';
    if (listened) {
      const heard: TransitionEvent = {
        changed: transition.changed,
        previousState: transition.previousState,
        currentState: transition.currentState,
        event,
        tool: tool.name,
      };
      if (workflowKey !== undefined) heard.workflowKey = workflowKey;
      else if (sessionId !== undefined) heard.sessionId = sessionId;
      if (handle !== undefined) heard.handle = handle;
      this.gate[reportTransition](heard);
    }
    this.#onEvent?.({
      type: 'transition',
      tool: tool.name,
      event,
      from: describeState(transition.previousState),
      to: describeState(transition.currentState),
      machine: this.handles.settings.machine,
      sessionId,
      ...(workflowKey !== undefined ? { workflowKey } : {}),
    });
  }

  #traceTransition(scope: RequestContext, tool: FusionTool, transition: TransitionResult | undefined): void {
    if (scope.trace === undefined || transition?.changed !== true) return;
    scope.trace.transition(
      this.handles.settings.machine,
      describeState(transition.previousState),
      describeState(transition.currentState),
      this.gate.bindings.get(tool.name)?.event,
    );
  }
}

/** The owner of the instances a request may use: its principal's key (see `requestPrincipal`). */
export function ownerOf(scope: RequestContext): string {
  return requestPrincipal(scope).key;
}

function loadFailure(tool: FusionTool, error: unknown): ToolResponse {
  return markThrown(
    errorResult(
      `Tool "${tool.name}" could not run: the workflow state could not be loaded (${error instanceof Error ? error.message : String(error)}). Nothing was changed; try again shortly.`,
    ),
    error,
    'store',
  );
}
