import type { FusionTool, ToolExtra, ToolResponse } from '../builder/types.js';
import { errorResult, isInputRequired } from '../builder/normalizeResult.js';
import { hasSuggestions } from '../presenter/filterSuggestions.js';
import { WireError, JsonRpcCode } from '../errors/WireError.js';
import { fsmWarnings } from '../fsm/analyzeFsm.js';
import type { AttachOptions, DebugEvent } from '../registry/types.js';
import { StateSyncLayer } from '../state-sync/StateSyncLayer.js';
import { stateSyncWarnings } from '../state-sync/checkStateSync.js';
import type { InlineSyncDeclaration } from '../state-sync/types.js';
import { decorateDescription } from '../state-sync/DescriptionDecorator.js';
import { META } from '../state-sync/metaKeys.js';
import { compileSurface, type Route, type Surface, type WireTool } from './compileSurface.js';
import { groupingFor } from './groupedExposition.js';
import { modernSurface } from './modernSurface.js';
import { WorkflowRuntime } from './WorkflowRuntime.js';
import { ToolSwitch } from '../registry/ToolSwitch.js';
import { ScopeGate } from '../auth/ScopeGate.js';
import { RateLimiter } from '../limits/RateLimiter.js';
import { ListView } from './ListView.js';
import { messages } from './messages.js';
import { narrowSurface } from '../auth/narrowSurface.js';
import { insufficientScope } from '../auth/insufficientScope.js';
import { runWithTimeout } from './runWithTimeout.js';
import { principalOf } from '../principal/principalOf.js';
import { memorySessionData, sessionDataFor, type SessionData, type SessionDataBackend } from '../session/sessionData.js';
import { SessionDataError } from '../errors/SessionDataError.js';
import { requestPrincipal } from '../principal/requestPrincipal.js';
import { protoKeyPath } from './protoKeys.js';
import type { RequestScope, ToolListResult } from './types.js';
import { traceRefusal } from '../tracing/traceRefusal.js';

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
  readonly #listCache: { ttlMs: number; cacheScope: 'public' | 'private' };
  readonly #switch: ToolSwitch;
  /** The lists of the whole surface; with per-tool scopes, {@link ScopeGate} holds one per scope set. */
  readonly #base: ListView;
  readonly #scopes: ScopeGate<ListView>;
  readonly #limits: RateLimiter | undefined;
  readonly #notifiers = new Map<string, () => Promise<void>>();
  readonly #debug: ((event: DebugEvent) => void) | undefined;
  readonly #timeoutMs: number;
  readonly #aborts = new Set<(reason: Error) => void>();
  readonly #register = (abort: (reason: Error) => void): (() => void) => {
    this.#aborts.add(abort);
    return () => this.#aborts.delete(abort);
  };
  readonly #running = new Map<string, number>();
  #inFlight = 0;
  readonly #lastInvalidation = new Map<string, { causedBy: string; at: string }>();
  readonly #invalidationListeners = new Set<(patterns: readonly string[], causedBy: string) => void>();
  #drained: (() => void) | undefined;
  readonly #sessionData: SessionDataBackend;
  readonly #ownsSessionData: boolean;

  constructor(
    tools: readonly FusionTool<Ctx>[],
    options: AttachOptions<Ctx>,
    surface: Surface = compileSurface(tools, { filter: options.filter, nameStyle: options.nameStyle, group: groupingFor(options.toolExposition) }),
    toolSwitch: ToolSwitch = new ToolSwitch(),
  ) {
    this.#options = options;
    this.#switch = toolSwitch;
    this.surface = surface;
    this.#debug = debugSink(options.debug);
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#ownsSessionData = options.sessionData === undefined;
    this.#sessionData = options.sessionData ?? memorySessionData();
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
      });
    }
    for (const message of warnings) this.#warn(message);
    this.#scopes = new ScopeGate(surface.tools);
    // Lists that depend on who asks must not be shared by caches between principals.
    this.#listCache = options.listCache ?? { ttlMs: 60_000, cacheScope: this.#scopes.active ? 'private' : 'public' };
    this.#base = this.#view(surface);
    this.#limits = RateLimiter.for(surface.tools, options);
    // One listener per pipeline (pipelines are cached per options object), only when someone listens.
    if (this.#debug !== undefined) toolSwitch.onChange(() => this.#emit({ type: 'list_changed', reason: 'tools-changed' }));
  }

  #view(surface: Surface): ListView {
    const listed = this.#sync === undefined ? surface.wire : decorateSurface(surface, this.#sync);
    const modern = this.#workflow === undefined ? listed : modernSurface(listed, surface, this.#workflow.gate, this.#workflow.handles.settings);
    return new ListView(surface, { listed, modern }, this.#switch, (tools, isModern) => this.#freezeList(tools, isModern));
  }

  /** The lists the caller of `scope` may see: the whole surface, or the part its scopes allow. */
  #viewOf(scope: RequestScope): ListView {
    if (!this.#scopes.active) return this.#base;
    return this.#scopes.view(ScopeGate.scopesOf(scope.extra.authInfo), (allowed) => this.#view(narrowSurface(this.surface, allowed)));
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

  #freezeList(tools: readonly WireTool[], modern = false): ToolListResult {
    const base = { tools: tools as unknown as Array<Record<string, unknown>> };
    return Object.freeze(modern ? { ...base, ttlMs: this.#listCache.ttlMs, cacheScope: this.#listCache.cacheScope } : base);
  }

  /** True when State Sync runs for this surface. */
  get stateSyncEnabled(): boolean {
    return this.#sync !== undefined;
  }

  /** The last invalidation of a pattern (read by `fusion://stale/{pattern}`). */
  lastInvalidation(pattern: string): { causedBy: string; at: string } | undefined {
    return this.#lastInvalidation.get(pattern);
  }

  /** Hears every invalidation (the HTTP app turns them into `resources/updated`); returns unsubscribe. */
  onInvalidation(listener: (patterns: readonly string[], causedBy: string) => void): () => void {
    this.#invalidationListeners.add(listener);
    return () => this.#invalidationListeners.delete(listener);
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
    const list = await this.#visibleList(scope);
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
    const view = this.#viewOf(scope);
    if (scope.extra.era === 'modern') return view.modern;
    if (this.#workflow === undefined) return view.legacy;
    if (this.#workflow.usesHandles(scope)) return view.modern;
    const { state } = await this.#workflow.sessions.snapshot(scope.stateKey!);
    const list = view.inState(state, this.#workflow.gate);
    return list;
  }

  /** `tools/call`: resolves to exactly one result; protocol problems throw a {@link WireError}. */
  async callTool(name: string, args: Record<string, unknown> | undefined, scope: RequestScope): Promise<ToolResponse> {
    const route = this.surface.routes.get(name);
    if (route === undefined) {
      throw new WireError(JsonRpcCode.InvalidParams, messages.unknownTool(name, await this.#visibleNamesOrNone(scope)));
    }
    const picked = pickAction(route, args, () => this.#viewOf(scope).surface.routes.get(name));
    if ('error' in picked) return traceRefusal(scope.trace, picked.error, 'unknown_action');
    const { tool, rest } = picked;
    if (this.#switch.isDisabled(tool.name)) {
      throw new WireError(JsonRpcCode.InvalidParams, messages.unknownTool(name, await this.#visibleNamesOrNone(scope)));
    }
    const missing = this.#scopes.active ? this.#scopes.missing(tool, ScopeGate.scopesOf(scope.extra.authInfo)) : [];
    if (missing.length > 0) return traceRefusal(scope.trace, insufficientScope(route.kind === 'flat' ? route.exposed : `${route.exposed} (${route.discriminator} "${actionKey(route, tool)}")`, tool.requiredScopes!, missing), 'insufficient_scope');
    const limited = this.#limits === undefined ? undefined : await this.#limits.hit(tool, scope);
    if (limited !== undefined) return traceRefusal(scope.trace, limited, 'rate_limited');
    const limit = this.#options.maxConcurrentCalls;
    const owner = limit === undefined ? undefined : ownerOf(scope);
    if (owner !== undefined) {
      const running = this.#running.get(owner) ?? 0;
      if (running >= limit!) {
        this.#emit({ type: 'refusal', tool: tool.name, reason: 'budget', sessionId: scope.stateKey });
        return traceRefusal(scope.trace, errorResult(messages.tooManyCalls(route.exposed, limit!, owner.startsWith('a:') && scope.stateKey !== undefined)), 'too_many_calls');
      }
      this.#running.set(owner, running + 1);
    }
    const started = this.#debug === undefined ? 0 : performance.now();
    this.#inFlight++;
    try {
      const result = await this.#gatedRun(tool, rest, scope, route);
      this.#emit({ type: 'call', tool: tool.name, ok: result.isError !== true, durationMs: performance.now() - started, sessionId: scope.stateKey });
      return result;
    } finally {
      if (--this.#inFlight === 0) this.#drained?.();
      if (owner !== undefined) {
        const left = this.#running.get(owner)! - 1;
        if (left === 0) this.#running.delete(owner);
        else this.#running.set(owner, left);
      }
    }
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
    return this.#inFlight;
  }

  /**
   * Graceful shutdown: waits up to `deadlineMs` for running calls to finish, then aborts the rest
   * (their handlers see an aborted signal).
   */
  async drain(deadlineMs: number): Promise<void> {
    if (this.#inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadlineMs);
        timer.unref?.();
        this.#drained = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.#drained = undefined;
    if (this.#inFlight > 0) for (const abort of [...this.#aborts]) abort(new Error('server shutting down'));
  }

  async #gatedRun(tool: FusionTool<Ctx>, args: Record<string, unknown>, scope: RequestScope, route: Route): Promise<ToolResponse> {
    const workflow = this.#workflow;
    if (workflow === undefined) return this.#execute(tool, args, scope.extra, route, scope.stateKey);
    if (tool.fsm !== undefined) return workflow.run(tool, args, scope, route, (rest, instance) => this.#execute(tool, rest, { ...scope.extra, workflow: instance }, route, scope.stateKey));
    const result = await this.#execute(tool, args, scope.extra, route, scope.stateKey);
    return hasSuggestions(result) ? workflow.suggest(result, await workflow.stateFor(scope)) : result;
  }

  async #execute(tool: FusionTool<Ctx>, args: Record<string, unknown>, extra: ToolExtra, route: Route, stateKey: string | undefined): Promise<ToolResponse> {
    const proto = protoKeyPath(args);
    const parsed = proto === undefined ? tool.validate(args) : { ok: false as const, issues: [{ path: proto, message: 'unknown field' }] };
    if (!parsed.ok) {
      const accepted = Object.keys(tool.inputSchema.properties ?? {});
      return errorResult(
        route.kind === 'flat'
          ? messages.invalidArguments(route.exposed, parsed.issues, accepted)
          : messages.invalidActionArguments(route.exposed, route.discriminator, actionKey(route, tool), parsed.issues, accepted),
      );
    }
    const result = await runWithTimeout(tool.name, tool.timeoutMs ?? this.#timeoutMs, extra.signal, async (lazy) => {
      const session = this.#sessionFor(extra, stateKey);
      const scoped: ToolExtra = {
        ...extra,
        session,
        get signal() {
          return lazy.signal;
        },
      };
      let ctx: Ctx;
      try {
        ctx = this.#options.contextFactory === undefined ? (undefined as Ctx) : await this.#options.contextFactory(scoped);
      } catch (error) {
        return errorResult(messages.contextFailed(tool.name, error instanceof Error ? error.message : String(error)));
      }
      return tool.run(parsed.value, ctx, scoped);
    }, this.#register);
    if (this.#sync === undefined || isInputRequired(result)) return result;
    const decorated = this.#sync.decorateResult(tool.name, result) as ToolResponse;
    if (decorated !== result) this.#recordInvalidation(decorated, tool.name);
    // Results of cached/stale tools carry their directive too, for clients that act on _meta.
    const directive = result.isError === true ? undefined : this.#sync.resolve(tool.name)?.cacheControl;
    return directive === undefined ? decorated : { ...decorated, _meta: { ...decorated._meta, [META.cacheControl]: directive } };
  }

  /** Whose data `extra.session` is: the legacy session, else the modern workflow instance, else the authenticated principal. */
  #sessionFor(extra: ToolExtra, stateKey: string | undefined): SessionData {
    const max = this.#options.sessionDataMaxBytes;
    if (stateKey !== undefined) return sessionDataFor(this.#sessionData, `s:${stateKey}`, max);
    if (extra.workflow !== undefined) return sessionDataFor(this.#sessionData, `w:${JSON.stringify([extra.workflow.machine, extra.workflow.key])}`, max);
    const principal = principalOf(extra.authInfo);
    if (principal.kind !== 'anonymous') return sessionDataFor(this.#sessionData, principal.key, max);
    return unkeyedSessionData();
  }

  #recordInvalidation(result: ToolResponse, causedBy: string): void {
    const meta = result._meta?.[META.invalidation] as { patterns: string[]; at: string } | undefined;
    if (meta === undefined) return;
    if (this.#lastInvalidation.size > 4096) this.#lastInvalidation.clear();
    for (const pattern of meta.patterns) this.#lastInvalidation.set(pattern, { causedBy, at: meta.at });
    this.#emit({ type: 'invalidation', patterns: meta.patterns, causedBy });
    for (const listener of this.#invalidationListeners) {
      try {
        listener(meta.patterns, causedBy);
      } catch (error) {
        this.#emit({ type: 'error', message: 'invalidation listener failed', error });
      }
    }
  }

  /** Stops timers; the pipeline can no longer send notifications. */
  dispose(): void {
    this.#workflow?.sessions.dispose();
    this.#workflow?.handles.sessions.dispose();
    this.#notifiers.clear();
  }

  #warn(message: string): void {
    this.#emit({ type: 'warning', message });
    if (this.#options.onWarning !== undefined) this.#options.onWarning(message);
    else if (this.#debug === undefined) console.warn(`[mcp-fusion] ${message}`);
  }

  #emit(event: DebugEvent): void {
    this.#debug?.(event);
  }
}

/** The tool a call addresses; an unknown action's message lists the actions of `visible` (the caller's view of the route). */
function pickAction(route: Route, args: Record<string, unknown> | undefined, visibleRoute: () => Route | undefined = () => route): { tool: FusionTool; rest: Record<string, unknown> } | { error: ToolResponse } {
  const given = args ?? {};
  if (route.kind === 'flat') return { tool: route.tool, rest: given };
  const { [route.discriminator]: key, ...rest } = given;
  const tool = typeof key === 'string' ? route.actions.get(key) : undefined;
  if (tool === undefined) {
    const visible = visibleRoute();
    return { error: errorResult(messages.unknownAction(route.exposed, route.discriminator, key, visible?.kind === 'grouped' ? [...visible.actions.keys()] : [])) };
  }
  return { tool, rest };
}

/** Appends each exposed tool's directive (a grouped tool: no-store if any action is, immutable if all are). */
function decorateSurface(surface: Surface, sync: StateSyncLayer): WireTool[] {
  return surface.wire.map((wire) => {
    const route = surface.routes.get(wire.name);
    const tools = route === undefined ? [] : route.kind === 'flat' ? [route.tool] : [...route.actions.values()];
    const directives = tools.map((t) => sync.resolve(t.name)?.cacheControl);
    const directive = directives.includes('no-store') ? 'no-store' : directives.length > 0 && directives.every((d) => d === 'immutable') ? 'immutable' : undefined;
    if (directive === undefined) return wire;
    return { ...wire, description: decorateDescription(wire.description, directive), _meta: { ...wire._meta, [META.cacheControl]: directive } };
  });
}

/** Who a concurrency limit counts against: the request's principal (an anonymous legacy caller is its session). */
function ownerOf(scope: RequestScope): string {
  return requestPrincipal(scope).key;
}

function actionKey(route: Route, tool: FusionTool): string {
  if (route.kind === 'grouped') for (const [key, t] of route.actions) if (t === tool) return key;
  return tool.name;
}

function debugSink(debug: AttachOptions<unknown>['debug']): ((event: DebugEvent) => void) | undefined {
  if (debug === undefined || debug === false) return undefined;
  if (debug === true) return (event) => console.error(`[mcp-fusion] ${JSON.stringify(event, (_k, v: unknown) => (v instanceof Error ? v.message : v))}`);
  return debug;
}

/** `extra.session` of a request with nothing to key data by (an anonymous modern call outside a workflow). */
function unkeyedSessionData(): SessionData {
  const refuse = async (): Promise<never> => {
    throw new SessionDataError('SESSION_DATA_NO_KEY', 'This call has no session, workflow instance or authenticated principal to keep data for: authenticate the client (its data is then kept per principal) or call a workflow-bound tool with its handle.');
  };
  return Object.freeze({ key: '', get: refuse, set: refuse, delete: refuse });
}
