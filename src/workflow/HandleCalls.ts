import { copyOf } from '../_internal/copyOf.js';
import type { FusionTool, HandlerExtra, ToolResponse } from '../protocol/types.js';
import { errorResult, isInputRequired } from '../protocol/normalizeResult.js';
import type { WorkflowOutcome } from './WorkflowSessions.js';
import type { StateMachineGate } from '../fsm/StateMachineGate.js';
import type { FsmStateValue } from '../fsm/types.js';
import type { Route } from '../surface/compileSurface.js';
import { WORKFLOW_META } from '../surface/modernSurface.js';
import type { RequestContext } from '../surface/types.js';
import { traceRefusal } from '../tracing/traceRefusal.js';
import { markThrown } from '../protocol/thrownBy.js';
import { appendToResult, loadFailure, nextLine, persistFailure, withMeta } from './gateTexts.js';
import { handleTexts } from './handleTexts.js';
import { ownerOf } from './ownerOf.js';
import { ledgerHolder } from '../principal/ledgerHolder.js';
import type { WorkflowAnswers } from './WorkflowAnswers.js';
import type { HandleRejection, HandleResolution, WorkflowHandles } from './WorkflowHandles.js';

/** Runs the handler part of a call with the instance it acts on. */
export type Execute = (
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

/**
 * The handle-keyed lane of {@link WorkflowRuntime}: modern requests, and legacy ones of a machine with
 * `legacy: 'handle'`, name their instance with a handle the client passes (or the caller's subject).
 */
export class HandleCalls {
  readonly #gate: StateMachineGate;
  readonly #handles: WorkflowHandles;
  readonly #answers: WorkflowAnswers;
  /** Exposed names of the tools that start an instance (named in the refusals). */
  readonly #entries: string[];
  readonly #onChange: ((change: WorkflowChange) => void) | undefined;
  readonly #now: () => number;

  constructor(
    gate: StateMachineGate,
    handles: WorkflowHandles,
    answers: WorkflowAnswers,
    options: { entries: string[]; onChange: ((change: WorkflowChange) => void) | undefined; now: () => number },
  ) {
    this.#gate = gate;
    this.#handles = handles;
    this.#answers = answers;
    this.#entries = options.entries;
    this.#onChange = options.onChange;
    this.#now = options.now;
  }

  /** Runs a call of a bound tool on the instance its arguments (or its caller) name. */
  async run(
    tool: FusionTool,
    args: Record<string, unknown>,
    rctx: RequestContext,
    route: Route,
    execute: Execute,
  ): Promise<ToolResponse> {
    const s = this.#handles.settings;
    const { [s.handleArg]: handleValue, ...rest } = args;
    const owner = ownerOf(rctx);
    const holder = ledgerHolder(rctx);
    const resolved = this.#handles.resolve(tool, s.mode === 'handle' ? handleValue : undefined, owner, holder);
    if (resolved.kind !== 'run') return traceRefusal(rctx.trace, this.#unresolved(tool, resolved), 'workflow_handle');
    const { key, handle, minted } = resolved;
    let outcome: WorkflowOutcome<ToolResponse, HandleRejection>;
    try {
      outcome = await this.#handles.sessions.run(
        key,
        tool.name,
        () => execute(s.mode === 'handle' ? rest : args, { machine: s.machine, key, handle }),
        {
          admit: (stored) => this.#handles.admit(resolved, stored),
          // A successful call that does not transition slides the instance's expiry (and stores a minted one).
          keepAlive: (result) => result.isError !== true && !isInputRequired(result),
          // A task holds the instance's lock only to check the state at its start and to transition at its end.
          detached: (rctx.extra as { claimResult?: unknown }).claimResult !== undefined,
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
      return traceRefusal(rctx.trace, text, 'workflow_handle');
    }
    if (outcome.outcome === 'refused') {
      const refusal = this.#answers.refusal(tool, outcome.state, rctx, {
        sessionId: rctx.sessionKey,
        workflowKey: key,
      });
      return handle === undefined
        ? refusal
        : appendToResult(refusal, `(${s.handleArg} "${handle}")`, {
            [WORKFLOW_META]: { machine: s.machine, handle, state: outcome.state },
          });
    }
    if (outcome.persistError !== undefined)
      return markThrown(
        this.#answers.suggest(persistFailure(tool, outcome.result, outcome.persistError, this.#gate), outcome.state),
        outcome.persistError,
        'store',
      );
    let result = outcome.result;
    if (result.isError === true || isInputRequired(result)) return result;
    this.#answers.traceTransition(rctx, tool, outcome.transition);
    const changed = outcome.transition?.changed === true;
    const state = changed ? outcome.transition!.currentState : (outcome.state ?? this.#gate.initialState);
    if (handle !== undefined) {
      if (this.#gate.isFinal(state)) this.#handles.budget.drop(owner, handle);
      else this.#handles.budget.hold(owner, handle, this.#now() + s.idleTtlMs, holder);
    }
    result = this.#answers.suggest(result, state);
    const meta = {
      [WORKFLOW_META]: {
        machine: s.machine,
        ...(handle !== undefined ? { handle, handleArg: s.handleArg } : {}),
        state,
        allowed: this.#answers.allowedIn(state, this.#answers.surfaceOf(rctx)),
      },
    };
    if (minted && handle !== undefined) {
      result = appendToResult(result, handleTexts.minted(s, handle), meta);
      if (route.kind === 'flat' && route.tool.outputSchema !== undefined && result.structuredContent !== undefined) {
        result = { ...result, structuredContent: { ...result.structuredContent, [s.handleArg]: handle } };
      }
    }
    if (changed) {
      this.#answers.reported(tool, outcome.transition!, { sessionId: rctx.sessionKey, workflowKey: key, handle });
      result = appendToResult(result, nextLine(this.#gate, state, this.#answers.surfaceOf(rctx)), meta);
      if (handle !== undefined)
        this.#onChange?.({ machine: s.machine, handle, uri: this.#handles.uri(handle), state, minted });
    } else if (!minted) {
      const out = copyOf(result);
      out._meta = withMeta(result._meta, meta);
      result = out;
    }
    return result;
  }

  /** Why a call names no instance it may use, as the agent reads it. */
  #unresolved(tool: FusionTool, resolved: Exclude<HandleResolution, { kind: 'run' }>): ToolResponse {
    const s = this.#handles.settings;
    switch (resolved.kind) {
      case 'missing':
        return handleTexts.missing(tool, s, this.#entries);
      case 'unknown':
        return handleTexts.unknown(tool, s, resolved.handle, this.#entries);
      case 'invalid':
        return handleTexts.invalid(tool, s, resolved.given, this.#entries);
      case 'anonymous':
        return handleTexts.anonymous(tool, s);
      case 'full':
        return errorResult(
          resolved.message !== undefined
            ? `Tool "${tool.name}" could not start a new ${s.machine} workflow: ${resolved.message}`
            : `Tool "${tool.name}" could not start a new ${s.machine} workflow: ${resolved.budget === 'owner' ? `you already hold ${resolved.max} open ones` : `the server holds its maximum of ${resolved.max} open ones`}. Finish or abandon an open one (it expires after ${Math.round(s.idleTtlMs / 60_000)} min idle) and try again later.`,
          {
            'fusion/budget': {
              kind: 'workflowHandles',
              scope: resolved.budget === 'owner' ? 'principal' : 'global',
              max: resolved.max,
            },
          },
        );
    }
  }
}
