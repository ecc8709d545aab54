import type { ContentBlock, FusionTool, ToolResponse } from '../protocol/types.js';
import { hasTransitionListeners, reportTransition, type StateMachineGate } from '../fsm/StateMachineGate.js';
import type { FsmStateValue, TransitionEvent, TransitionResult } from '../fsm/types.js';
import { describeState, stateKey } from '../fsm/stateValue.js';
import type { DebugEvent } from '../tracing/types.js';
import type { Surface } from '../surface/compileSurface.js';
import type { RequestContext } from '../surface/types.js';
import { traceRefusal } from '../tracing/traceRefusal.js';
import { filterSuggestions, hasSuggestions } from '../presenter/filterSuggestions.js';
import { gateRefusal, nextLine } from './gateTexts.js';

/** Whose workflow a call acted on, for the events of {@link WorkflowAnswers}. */
export interface WorkflowCallee {
  sessionId: string | undefined;
  /** Handle- or subject-keyed instances: the instance's key. */
  workflowKey?: string | undefined;
  handle?: string | undefined;
}

/**
 * What both workflow lanes (per-session state, handle-keyed instances) add to a call's answer: suggestions
 * filtered by the state, the gate's refusal, the "Next: …" block and `_meta` `allowed` (once per state),
 * and the transition reported to `onTransition` listeners, the debug observer and the request's trace.
 */
export class WorkflowAnswers {
  readonly #gate: StateMachineGate;
  readonly #machine: string;
  readonly #surface: Surface;
  readonly #surfaceOf: (rctx: RequestContext) => Surface;
  readonly #onEvent: ((event: DebugEvent) => void) | undefined;
  readonly #known: Set<string>;
  /** The "Next: …" block a transition into a state appends, by state key (states are finite; shared, frozen). */
  readonly #nextBlocks = new WeakMap<Surface, Map<string, ContentBlock>>();
  /** `_meta` `allowed` of handle-keyed results, by the caller's surface and state key. */
  readonly #allowed = new WeakMap<Surface, Map<string, readonly string[]>>();

  constructor(
    gate: StateMachineGate,
    machine: string,
    surface: Surface,
    options: {
      surfaceOf?: ((rctx: RequestContext) => Surface) | undefined;
      onEvent?: ((e: DebugEvent) => void) | undefined;
    },
  ) {
    this.#gate = gate;
    this.#machine = machine;
    this.#surface = surface;
    this.#surfaceOf = options.surfaceOf ?? (() => surface);
    this.#onEvent = options.onEvent;
    this.#known = new Set(surface.tools.map((t) => t.name));
  }

  /** The part of the surface a request's caller may see. */
  surfaceOf(rctx: RequestContext): Surface {
    return this.#surfaceOf(rctx);
  }

  /** Keeps only the suggested next actions the gate shows in `state` (unbound tools when it is unknown). */
  suggest(result: ToolResponse, state: FsmStateValue | undefined): ToolResponse {
    if (!hasSuggestions(result)) return result;
    const gate = this.#gate;
    return filterSuggestions(
      result,
      (t) => this.#known.has(t) && (state === undefined ? !gate.bindings.has(t) : gate.isAllowedIn(state, t)),
      { displayName: (t) => this.#surface.exposedName.get(t) ?? t },
    );
  }

  /** The gate's refusal of `tool` in `state`, told to the debug observer and traced. */
  refusal(tool: FusionTool, state: FsmStateValue, rctx: RequestContext, callee: WorkflowCallee): ToolResponse {
    this.#onEvent?.({
      type: 'refusal',
      tool: tool.name,
      reason: 'gate',
      state: describeState(state),
      sessionId: callee.sessionId,
      ...(callee.workflowKey !== undefined ? { workflowKey: callee.workflowKey } : {}),
    });
    return traceRefusal(rctx.trace, gateRefusal(this.#gate, tool, state, this.#surfaceOf(rctx)), 'workflow_state');
  }

  /**
   * The bound tools allowed in `state` that `surface` (the caller's part, after its scopes) holds: a tool the
   * caller's scopes hide is never named. Once per state and surface (both fixed once built; shared, frozen).
   */
  allowedIn(state: FsmStateValue, surface: Surface = this.#surface): readonly string[] {
    const key = stateKey(state);
    let byState = this.#allowed.get(surface);
    if (byState === undefined) this.#allowed.set(surface, (byState = new Map()));
    let allowed = byState.get(key);
    if (allowed === undefined) {
      const held = new Set(surface.tools.map((t) => t.name));
      const bound = [...this.#gate.bindings.keys()].filter((name) => held.has(name));
      byState.set(key, (allowed = Object.freeze(this.#gate.visibleIn(state, bound))));
    }
    return allowed;
  }

  /** The "Next: …" block of `state` for the tools of `surface` (built once per state and surface). */
  nextBlock(state: FsmStateValue, surface: Surface): ContentBlock {
    const key = stateKey(state);
    let blocks = this.#nextBlocks.get(surface);
    if (blocks === undefined) this.#nextBlocks.set(surface, (blocks = new Map()));
    let block = blocks.get(key);
    if (block === undefined)
      blocks.set(key, (block = Object.freeze({ type: 'text' as const, text: nextLine(this.#gate, state, surface) })));
    return block;
  }

  /** Tells the gate's `onTransition` listeners and the debug observer about a served transition (built only when one listens). */
  reported(tool: FusionTool, transition: TransitionResult, callee: WorkflowCallee): void {
    const listened = this.#gate[hasTransitionListeners];
    if (!listened && this.#onEvent === undefined) return;
    const { sessionId, workflowKey, handle } = callee;
    const event = tool.fsm?.event ?? this.#gate.bindings.get(tool.name)?.event ?? '';
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
      this.#gate[reportTransition](heard);
    }
    this.#onEvent?.({
      type: 'transition',
      tool: tool.name,
      event,
      from: describeState(transition.previousState),
      to: describeState(transition.currentState),
      machine: this.#machine,
      sessionId,
      ...(workflowKey !== undefined ? { workflowKey } : {}),
    });
  }

  /** Adds a changing transition to the request's trace. */
  traceTransition(rctx: RequestContext, tool: FusionTool, transition: TransitionResult | undefined): void {
    if (rctx.trace === undefined || transition?.changed !== true) return;
    rctx.trace.transition(
      this.#machine,
      describeState(transition.previousState),
      describeState(transition.currentState),
      this.#gate.bindings.get(tool.name)?.event,
    );
  }
}
