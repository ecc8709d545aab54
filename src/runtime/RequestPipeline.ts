import type { FusionTool, ToolResponse } from '../protocol/types.js';
import { WireError, JsonRpcCode } from '../errors/WireError.js';
import { fsmWarnings } from '../fsm/analyzeFsm.js';
import type { AttachOptions, DebugEvent } from './options.js';
import { ToolSwitch } from '../surface/ToolSwitch.js';
import { StateSyncLayer } from '../state-sync/StateSyncLayer.js';
import { stateSyncWarnings } from '../state-sync/checkStateSync.js';
import type { InlineSyncDeclaration } from '../state-sync/types.js';
import { InvalidationLog } from '../state-sync/InvalidationLog.js';
import { RateLimiter } from './RateLimiter.js';
import { memorySessionData, type SessionDataBackend } from '../session/sessionData.js';
import { sessionDataOf } from './sessionDataOf.js';
import { traceRefusal } from '../tracing/traceRefusal.js';
import type { CallStage, NextStage, StageName, ToolCall } from './callStages.js';
import { CallTracker } from './CallTracker.js';
import { compileSurface, type Surface } from '../surface/compileSurface.js';
import { groupingFor } from '../surface/groupedExposition.js';
import { messages } from '../protocol/messages.js';
import { concurrencyStage, rateStage, runStage, type RunParts, scopeStage, switchStage, syncStage, trackStage, validateStage, workflowStage } from './toolStages.js';
import type { RequestScope, ToolListResult } from '../surface/types.js';
import { Visibility } from '../surface/Visibility.js';
import { pickAction } from './pickAction.js';
import { debugSink } from './debugSink.js';
import { composeCall, observeCall, type StageMarks } from './observeCall.js';
import { WorkflowRuntime } from '../workflow/WorkflowRuntime.js';
import { OperatorLog } from '../logging/OperatorLog.js';
import { callLogFields, listLogFields, logRefusal, rethrowLogged } from './callLogFields.js';

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The SDK-independent heart of an attachment: built once per registry and options, it answers
 * `tools/list` from frozen data and runs `tools/call` through routing, the FSM gate, validation,
 * the compiled handler chain and State Sync.
 */
export class RequestPipeline<Ctx> {
  readonly surface: Surface;
  readonly #options: AttachOptions<Ctx>;
  readonly #sync: StateSyncLayer | undefined;
  readonly #workflow: WorkflowRuntime | undefined;
  readonly #switch: ToolSwitch;
  /** What each caller may list and call: one frozen list per (scopes, workflow state, switch version). */
  readonly #visibility: Visibility;
  readonly #limits: RateLimiter | undefined;
  readonly #notifiers = new Map<string, () => Promise<void>>();
  readonly #debug: ((event: DebugEvent) => void) | undefined;
  readonly #timeoutMs: number;
  readonly #tracker: CallTracker;
  readonly #plans = new Map<object, NextStage>();
  readonly #log: OperatorLog;
  readonly #invalidations = new InvalidationLog({ recorded: (patterns, causedBy) => this.#debug?.({ type: 'invalidation', patterns, causedBy }), listenerFailed: (error) => this.#emit({ type: 'error', message: 'invalidation listener failed', error }) });
  readonly #sessionData: SessionDataBackend;
  readonly #ownsSessionData: boolean;
  readonly #runParts: RunParts<Ctx>;

  constructor(
    tools: readonly FusionTool<Ctx>[],
    options: AttachOptions<Ctx>,
    surface: Surface = compileSurface(tools, { filter: options.filter, nameStyle: options.nameStyle, group: groupingFor(options.toolExposition) }),
    toolSwitch: ToolSwitch = new ToolSwitch(),
  ) {
    this.#options = options;
    this.#switch = toolSwitch;
    this.surface = surface;
    this.#log = OperatorLog.of(options);
    this.#debug = debugSink(options.debug, this.#log);
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#tracker = new CallTracker(options.now);
    this.#ownsSessionData = options.sessionData === undefined;
    this.#sessionData = options.sessionData ?? memorySessionData(10_000, { ...(options.now !== undefined ? { now: options.now } : {}), ...(options.sessionDataLimits !== undefined ? { limits: options.sessionDataLimits } : {}) });
    const data = this.#sessionData;
    this.#runParts = {
      contextFactory: options.contextFactory,
      sessionOf: (extra, stateKey) => sessionDataOf(data, extra, stateKey, { maxBytes: options.sessionDataMaxBytes, workflowTtlMs: this.#workflow?.handles.settings.idleTtlMs }),
      log: this.#log,
    };
    const names = surface.tools.map((t) => t.name);
    const inline = new Map<string, InlineSyncDeclaration>();
    for (const t of surface.tools) if (t.sync !== undefined) inline.set(t.name, t.sync);
    const sync = new StateSyncLayer(options.stateSync, inline, options.now === undefined ? {} : { now: options.now });
    this.#sync = sync.hasAnything ? sync : undefined;
    const warnings = this.#sync === undefined ? [] : stateSyncWarnings(options.stateSync, inline, names);
    if (options.fsm !== undefined) {
      const gate = options.fsm;
      for (const t of surface.tools) {
        if (t.fsm !== undefined && !gate.bindings.has(t.name)) gate.bindTool(t.name, [...t.fsm.states], t.fsm.event);
      }
      warnings.push(...fsmWarnings(gate));
      this.#workflow = new WorkflowRuntime(gate, surface, {
        now: options.now,
        store: options.fsmStore,
        handleStore: options.workflowStore ?? options.fsmStore,
        debounceMs: options.listChangedDebounceMs ?? 50,
        // With a session bus, the instance that holds the session's GET stream sends it (any instance may run the call).
        onListChanged: (key: string) => {
          this.#emit({ type: 'list_changed', reason: 'transition', sessionId: key });
          return options.sessionBus === undefined ? this.#notifiers.get(key)?.() : options.sessionBus.publish(key, { method: 'notifications/tools/list_changed' });
        },
        onEvent: this.#debug,
        onChange: options.onWorkflowChange,
        onError: (error: unknown) => this.#emit({ type: 'error', message: 'FSM gate error', error }),
        handleLimits: options.workflowHandles,
        surfaceOf: (scope) => this.#visibility.viewOf(scope).surface,
      });
    }
    for (const message of warnings) this.#warn(message);
    this.#visibility = new Visibility(surface, { switch: toolSwitch, sync: this.#sync, workflow: this.#workflow === undefined ? undefined : { gate: this.#workflow.gate, settings: this.#workflow.handles.settings }, listCache: options.listCache });
    this.#limits = RateLimiter.for(surface.tools, options);
    // One listener per pipeline (pipelines are cached per options object), only when someone listens.
    if (this.#debug !== undefined) toolSwitch.onChange(() => this.#emit({ type: 'list_changed', reason: 'tools-changed' }));
  }

  /** The scopes a `tools/call` of `name` with `args` requires (the HTTP entry answers a token lacking one with a scope challenge). */
  requiredScopesOf(name: string, args: Record<string, unknown> | undefined): readonly string[] {
    const route = this.surface.routes.get(name);
    if (route === undefined) return [];
    const picked = pickAction(route, args);
    return 'tool' in picked ? (picked.tool.requiredScopes ?? []) : [];
  }

  /** Tools that require a scope (their listing and calls depend on the caller's token). */
  get scopedTools(): readonly string[] {
    return this.surface.tools.filter((t) => (t.requiredScopes ?? []).length > 0).map((t) => t.name);
  }

  /** Hears run-time enable/disable changes of the registry's tools; returns unsubscribe. */
  onToolsChanged(listener: () => void): () => void {
    return this.#switch.onChange(listener);
  }

  /** True when State Sync runs for this surface. */
  get stateSyncEnabled(): boolean {
    return this.#sync !== undefined;
  }

  /** The last invalidation of a pattern (read by `fusion://stale/{pattern}`). */
  lastInvalidation(pattern: string): { causedBy: string; at: string } | undefined {
    return this.#invalidations.last(pattern);
  }

  /** Hears every invalidation (the HTTP app turns them into `resources/updated`); returns unsubscribe. */
  onInvalidation(listener: (patterns: readonly string[], causedBy: string) => void): () => void {
    return this.#invalidations.listen(listener);
  }

  /** The workflow runtime (FSM gate in both eras), when a gate is attached. */
  get workflow(): WorkflowRuntime | undefined {
    return this.#workflow;
  }

  /** True when a workflow gate filters this surface per session. */
  get gated(): boolean {
    return this.#workflow !== undefined;
  }

  /** Routes list_changed notifications of one session (legacy) or connection to its server. */
  registerSession(key: string, notifyToolsChanged: () => Promise<void>): void {
    this.#notifiers.set(key, notifyToolsChanged);
  }

  /** Drops the per-session state of a closed session or connection. */
  releaseSession(key: string): void {
    this.#notifiers.delete(key);
    // In-memory data cannot outlive its session; a configured store keeps it until the session is destroyed.
    if (this.#ownsSessionData) void this.#sessionData.delete(`s:${key}`).catch(() => {});
    this.#workflow?.sessions.release(key);
  }

  /** Number of sessions holding in-memory state (for leak checks). */
  get sessionCount(): number {
    return Math.max(this.#notifiers.size, this.#workflow?.sessions.size ?? 0);
  }

  /** `tools/list`: the frozen list, filtered by the session's workflow state when a gate is set. */
  async listTools(scope: RequestScope): Promise<ToolListResult> {
    const list = await this.#visibleList(scope).catch((error: unknown) => rethrowLogged(this.#log, 'tools/list failed', listLogFields(scope), error));
    if (scope.extra.era !== 'modern' && this.#workflow !== undefined && !this.#workflow.usesHandles(scope)) {
      this.#emit({ type: 'list', count: list.tools.length, sessionId: scope.stateKey });
    }
    return list;
  }

  /** The exposed names of the tools this caller may see now (workflow state, run-time switch, filter, scopes). */
  async visibleToolNames(scope: RequestScope): Promise<string[]> {
    return (await this.#visibleList(scope)).tools.map((t) => t.name as string);
  }

  async #visibleList(scope: RequestScope): Promise<ToolListResult> {
    const view = this.#visibility.viewOf(scope);
    if (scope.extra.era === 'modern') return view.modern;
    if (this.#workflow === undefined) return view.legacy;
    if (this.#workflow.usesHandles(scope)) return view.modern;
    const { state } = await this.#workflow.sessions.snapshot(scope.stateKey!);
    return view.inState(state, this.#workflow.gate);
  }

  /** `tools/call`: resolves to exactly one result; protocol problems reject with a {@link WireError}. */
  callTool(name: string, args: Record<string, unknown> | undefined, scope: RequestScope): Promise<ToolResponse> {
    // With an observer, each call also reports what the agent read (nothing of it is computed otherwise).
    return this.#debug === undefined ? this.#call(name, args, scope, undefined) : observeCall(name, args, scope, this.#debug, (marks) => this.#call(name, args, scope, marks));
  }

  #call(name: string, args: Record<string, unknown> | undefined, scope: RequestScope, marks: StageMarks | undefined): Promise<ToolResponse> {
    const route = this.surface.routes.get(name);
    if (route === undefined) return this.#unknownTool(name, scope);
    let tool: FusionTool;
    let rest: Record<string, unknown>;
    if (route.kind === 'flat') {
      tool = route.tool;
      rest = args ?? {};
    } else {
      const picked = pickAction(route, args, () => this.#visibility.viewOf(scope).surface.routes.get(name));
      if ('error' in picked) return Promise.resolve(traceRefusal(scope.trace, picked.error, 'unknown_action'));
      ({ tool, rest } = picked);
    }
    let run = this.#plans.get(tool);
    if (run === undefined) {
      run = this.#compile(tool);
      this.#plans.set(tool, run);
    }
    const call: ToolCall = { route, tool, args: rest, scope, extra: scope.extra, marks };
    return run(call).catch((error: unknown) => rethrowLogged(this.#log, 'tools/call failed', callLogFields(call, undefined, this.#log), error));
  }

  async #unknownTool(name: string, scope: RequestScope): Promise<never> {
    throw new WireError(JsonRpcCode.InvalidParams, messages.unknownTool(name, await this.#visibleNamesOrNone(scope)));
  }

  /**
   * The call path of one tool, compiled on its first call: only the stages it needs (scopes when it
   * requires some, rate limits when one applies to it, State Sync when a policy names it, ...).
   */
  #compile(tool: FusionTool): NextStage {
    return composeCall(this.#stagesFor(tool), runStage(this.#tracker.deadlines, this.#timeoutMs, this.#runParts), this.#debug !== undefined);
  }

  /** The named stages of `tool`'s call path, in order (the handler runs after the last). */
  #stagesFor(tool: FusionTool): Array<readonly [StageName, CallStage]> {
    const stages: Array<readonly [StageName, CallStage]> = [['switch', switchStage((n) => this.#switch.isDisabled(n), (call) => this.#hidden(call))]];
    if ((tool.requiredScopes ?? []).length > 0) stages.push(['scopes', scopeStage(this.#visibility.scopes)]);
    if (this.#limits?.applies(tool) === true) stages.push(['rateLimit', rateStage(this.#limits, (call) => logRefusal(this.#log, call, 'rate_limited'))]);
    if (this.#options.maxConcurrentCalls !== undefined) stages.push(['concurrency', concurrencyStage(this.#tracker, this.#options.maxConcurrentCalls, (call) => { this.#emit({ type: 'refusal', tool: call.tool.name, reason: 'budget', sessionId: call.scope.stateKey }); logRefusal(this.#log, call, 'too_many_calls'); })]);
    const debug = this.#debug;
    stages.push(['track', trackStage(this.#tracker, debug === undefined ? undefined : (call, ok, durationMs) => debug({ type: 'call', tool: call.tool.name, ok, durationMs, sessionId: call.scope.stateKey }))]);
    if (this.#workflow !== undefined) stages.push(['workflow', workflowStage(this.#workflow, tool.fsm !== undefined, this.#log)]);
    stages.push(['validate', validateStage]);
    const decorate = this.#sync?.decoratorFor(tool.name, (meta) => this.#invalidations.record(meta));
    if (decorate !== undefined) stages.push(['stateSync', syncStage(decorate)]);
    return stages;
  }

  /**
   * The stages a call of the registered tool `name` goes through, in order, before its handler runs
   * (`switch`, `scopes`, `rateLimit`, `concurrency`, `track`, `workflow`, `validate`, `stateSync`);
   * undefined for a tool outside this surface.
   */
  stagesOf(name: string): readonly StageName[] | undefined {
    const tool = this.surface.tools.find((t) => t.name === name);
    return tool === undefined ? undefined : this.#stagesFor(tool).map(([stage]) => stage);
  }

  async #hidden(call: ToolCall): Promise<never> {
    throw new WireError(JsonRpcCode.InvalidParams, messages.unknownTool(call.route.exposed, await this.#visibleNamesOrNone(call.scope)));
  }

  /** The caller's visible tools for an unknown-tool error; a store failure must not hide the real error. */
  async #visibleNamesOrNone(scope: RequestScope): Promise<string[]> {
    try {
      return await this.visibleToolNames(scope);
    } catch {
      return [];
    }
  }

  /** Tool calls running now. */
  get inFlight(): number {
    return this.#tracker.inFlight;
  }

  /**
   * Graceful shutdown: waits up to `deadlineMs` for running calls to finish, then aborts the rest
   * (their handlers see an aborted signal).
   */
  drain(deadlineMs: number): Promise<void> {
    return this.#tracker.drain(deadlineMs);
  }

  /** Stops timers; the pipeline can no longer send notifications. */
  dispose(): void {
    this.#workflow?.sessions.dispose();
    this.#workflow?.handles.sessions.dispose();
    this.#workflow?.handles.dispose();
    this.#sessionData.dispose?.();
    this.#limits?.dispose();
    this.#tracker.deadlines.dispose();
    this.#notifiers.clear();
  }

  #warn(message: string): void {
    this.#emit({ type: 'warning', message });
    if (this.#options.onWarning !== undefined) this.#options.onWarning(message);
    else this.#log.warn(message);
  }

  /** A debug event; a failure caught and survived (a listener, the gate's store) is logged as an error too. */
  #emit(event: DebugEvent): void {
    this.#debug?.(event);
    if (event.type === 'error') this.#log.error(event.message, {}, event.error);
  }
}
