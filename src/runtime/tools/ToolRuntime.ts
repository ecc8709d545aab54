import type { ToolResponse } from '../../protocol/types.js';
import { WireError, JsonRpcCode } from '../../errors/WireError.js';
import { traceRefusal } from '../../tracing/traceRefusal.js';
import type { NextStage, ToolCall } from '../stages/callStages.js';
import type { Route, Surface } from '../../surface/compileSurface.js';
import { messages } from '../../protocol/messages.js';
import type { RequestContext, ToolListResult } from '../../surface/types.js';
import { composeCall, observeCall, type StageMarks } from '../stages/observeCall.js';
import { callLogFields, listLogFields, rethrowLogged } from '../stages/callLogFields.js';
import type { RuntimeCore } from '../core/RuntimeCore.js';
import type { Ticket } from '../core/CallTracker.js';
import type { ToolParts } from './buildToolParts.js';
import { runTool } from './runTool.js';
import { CallExtra } from '../core/CallExtra.js';
import { stageList, type StageName } from '../stages/stageList.js';
import type { StageDefinition, StageParts } from '../stages/StageDefinition.js';
import { toolPath } from '../stages/pathOf.js';
import { resolveCall, unknownAction, type ResolvedCall } from '../stages/pickAction.js';

/** A request context whose extra is in its one shape. */
type CallContext = RequestContext & { readonly extra: CallExtra };
/**
 * The tool runtime of an attachment, SDK-independent and built once per registry and options: it answers
 * `tools/list` from frozen data and runs each `tools/call` through its tool's stages (`stages/stageList.ts`,
 * compiled on the tool's first call) and then its handler.
 * @see docs/contributing.md
 */
export class ToolRuntime<Ctx = any> {
  readonly surface: Surface;
  readonly #parts: StageParts;
  readonly #stages: readonly StageDefinition[];
  readonly #plans = new Map<object, NextStage>();

  /** The tool path over `parts`; `stages` is {@link stageList} unless a test brings its own. */
  constructor(core: RuntimeCore<Ctx>, parts: ToolParts, stages: readonly StageDefinition[] = stageList) {
    this.surface = parts.surface;
    this.#parts = { ...parts, core, hidden: (call) => this.#unknownTool(call.route.exposed, call.rctx) };
    this.#stages = stages;
  }

  /** Hears run-time enable/disable changes of the registry's tools; returns unsubscribe. */
  onToolsChanged(listener: () => void): () => void {
    return this.#parts.toolSwitch.onChange(listener);
  }

  /** True when State Sync runs for this surface. */
  get stateSyncEnabled(): boolean {
    return this.#parts.sync !== undefined;
  }

  /** Hears every invalidation (the HTTP app turns them into `resources/updated`); returns unsubscribe. */
  onInvalidation(listener: (patterns: readonly string[], causedBy: string) => void): () => void {
    return this.#parts.invalidations.listen(listener);
  }

  /** True when a workflow gate filters this surface per session. */
  get gated(): boolean {
    return this.#parts.workflow !== undefined;
  }

  /** `tools/list`: the frozen list, filtered by the session's workflow state when a gate is set. */
  async listTools(rctx: RequestContext): Promise<ToolListResult> {
    const { core, workflow } = this.#parts;
    const failed = (error: unknown): never => rethrowLogged(core.log, 'tools/list failed', listLogFields(rctx), error);
    const list = await this.#visibleList(rctx).catch(failed);
    if (rctx.extra.era !== 'modern' && workflow !== undefined && !workflow.usesHandles(rctx)) {
      core.emit({ type: 'list', count: list.tools.length, sessionId: rctx.sessionKey });
    }
    return list;
  }

  /** The exposed names of the tools this caller may see now (workflow state, run-time switch, filter, scopes). */
  async visibleToolNames(rctx: RequestContext): Promise<string[]> {
    return (await this.#visibleList(rctx)).tools.map((t) => t.name as string);
  }

  async #visibleList(rctx: RequestContext): Promise<ToolListResult> {
    const { visibility, workflow } = this.#parts;
    const view = visibility.viewOf(rctx);
    if (rctx.extra.era === 'modern') return view.modern;
    if (workflow === undefined) return view.legacy;
    if (workflow.usesHandles(rctx)) return view.modern;
    const { state } = await workflow.sessions.snapshot(rctx.sessionKey!);
    return view.inState(state, workflow.gate);
  }

  /**
   * `tools/call`: resolves to exactly one result; protocol problems reject with a {@link WireError}.
   * `resolved` is the call's resolution when the caller made it already (a call is resolved once). `ticket` is the request's entry in the count of requests in
   * flight (`CallTracker`): the run holds it until it settles (a task's run outlives its request); without one
   * (a task run again, a worker's) the run takes its own.
   */
  callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    rctx: RequestContext,
    resolved: Omit<ResolvedCall, 'name'> = resolveCall(this.surface, name, args),
    ticket?: Ticket,
  ): Promise<ToolResponse> {
    const { debug, tracker } = this.#parts.core;
    // Every extra in its one shape from here on (the adapters' is one already: no copy).
    const extra = CallExtra.of(rctx.extra, rctx.sessionKey);
    const context = extra === rctx.extra ? (rctx as CallContext) : { ...rctx, extra };
    // With an observer, each call also reports what the agent read (nothing of it is computed otherwise).
    const run = (t: Ticket): Promise<ToolResponse> =>
      debug === undefined
        ? this.#call(resolved, name, args, context, undefined, t)
        : observeCall(name, args, context, debug, (marks) => this.#call(resolved, name, args, context, marks, t));
    return tracker.track('tools/call', run, ticket);
  }

  #call(
    { route, action }: Omit<ResolvedCall, 'name'>,
    name: string,
    args: Record<string, unknown> | undefined,
    scope: CallContext,
    marks: StageMarks | undefined,
    ticket: Ticket,
  ): Promise<ToolResponse> {
    if (route === undefined) return this.#unknownTool(name, scope);
    if (action === undefined) {
      // Only a grouped route resolves without an action: its arguments name none of its actions.
      const visible = this.#parts.visibility.viewOf(scope).surface.routes.get(name);
      const refusal = unknownAction(route as Route & { kind: 'grouped' }, args, visible);
      return Promise.resolve(traceRefusal(scope.trace, refusal, 'unknown_action'));
    }
    const { tool, rest } = action;
    let run = this.#plans.get(tool);
    if (run === undefined) {
      // The call path of one tool, compiled on its first call: only the stages it needs.
      const { core } = this.#parts;
      run = composeCall(toolPath(this.#stages, tool, this.#parts), runTool(core), core.debug !== undefined);
      this.#plans.set(tool, run);
    }
    const call: ToolCall = { route, tool, args: rest, rctx: scope, extra: scope.extra, marks, ticket };
    const log = this.#parts.core.log;
    return run(call).catch((error: unknown) =>
      rethrowLogged(log, 'tools/call failed', callLogFields(call, undefined, log), error),
    );
  }

  /**
   * The stages a call of the registered tool `name` goes through, in order, before its handler runs (those
   * of `stages/stageList.ts` that apply to it); undefined for a tool outside this surface.
   */
  stagesOf(name: string): readonly StageName[] | undefined {
    const tool = this.surface.tools.find((t) => t.name === name);
    if (tool === undefined) return undefined;
    return toolPath(this.#stages, tool, this.#parts).map(([stage]) => stage as StageName);
  }

  /** An unknown (or disabled) tool, refused with the caller's visible tools; a store failure must not hide the real error. */
  async #unknownTool(name: string, rctx: RequestContext): Promise<never> {
    let available: string[];
    try {
      available = await this.visibleToolNames(rctx);
    } catch {
      available = [];
    }
    throw new WireError(JsonRpcCode.InvalidParams, messages.unknownTool(name, available));
  }
}
