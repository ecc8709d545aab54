import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createMcpHandler,
  InMemoryServerEventBus,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  type Server,
} from '@modelcontextprotocol/server';
import type { ToolRegistry } from '../registry/ToolRegistry.js';
import { MemoryFsmStore } from '../fsm/MemoryFsmStore.js';
import { SessionManager } from '../session/SessionManager.js';
import { sessionFsmStore } from '../session/sessionFsmStore.js';
import { storeSessionData } from '../session/sessionData.js';
import { staleResourceUris } from '../runtime/systemResources.js';
import { AuthGate } from '../auth/AuthGate.js';
import { ScopeGate } from '../auth/ScopeGate.js';
import { buildServer } from './buildServer.js';
import { ModernDispatcher } from './ModernDispatcher.js';
import { devConsoleTap } from './devConsole.js';
import { isListen, ListenStreams } from './ListenStreams.js';
import { LegacySessions } from './LegacySessions.js';
import { isOrdinaryLegacy } from './isOrdinaryLegacy.js';
import { resolveHttpLimits } from './limits.js';
import { rememberPeer } from '../principal/peers.js';
import { CallBudget } from './CallBudget.js';
import { compose } from './middleware/compose.js';
import { frontMiddleware } from './middleware/front.js';
import { serveNodeRequest } from './nodeHandler.js';
import { realResponse } from './jsonAnswer.js';
import { missingScopes } from '../auth/checkScopes.js';
import { tokenExpiryMs } from './tokenExpiry.js';
import { MemoryEventStore } from '../session/MemoryEventStore.js';
import { keyedSessionBus } from './keyedSessionBus.js';
import { keyedEventBus } from './keyedEventBus.js';
import type { HttpOptions } from './types.js';
import { OperatorLog } from '../logging/OperatorLog.js';
import { warnOf } from '../logging/warnOf.js';
import { carriedClock, monotonicClock } from '../_internal/clock.js';

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;
/** How long close() waits for the answers of calls the drain deadline cut. */
const ANSWER_MS = 1_000;

/** A fetch-shaped MCP endpoint serving both protocol eras. */
export interface FusionApp {
  /**
   * Serves one request. `authInfo`: the verified token of the caller, if any (pass-through, as the SDK's
   * handlers take it). `peer`: the remote address of the connection (`startServer` passes the socket's);
   * anonymous modern callers are keyed by it, and anonymous legacy openers are budgeted by it. Without a
   * peer, anonymous modern callers share one key.
   */
  fetch(request: Request, options?: FusionFetchOptions): Promise<Response>;
  /**
   * The app as a `node:http` handler, for `http.createServer`, Express or Fastify: the adapter `startServer`
   * uses (the body read once, straight from the socket; a complete answer written in one piece). A body an
   * earlier middleware already parsed is taken as it is: `parsedBody` (Fastify's `request.body`), else
   * `req.body` once the request stream has been read (`express.json()`); a function in its place (Express'
   * `next`) is ignored, as the SDK's `toNodeHandler` does. `req.auth` is passed on as `authInfo`, the socket's
   * address as `peer`.
   * @see docs/deployment.md
   */
  readonly node: (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => void;
  /** Live legacy sessions (servers in memory). */
  readonly sessions: LegacySessions;
  /**
   * Announces that the resource at `uri` changed: `notifications/resources/updated` to the legacy sessions
   * subscribed to it (`resourceSubscriptions` option) and to the modern `subscriptions/listen` streams that
   * named it — nobody else.
   */
  notifyResourceUpdated(uri: string): Promise<void>;
  /** The resource at `uri` is gone: its subscribers hear it once more, and their subscriptions end. */
  notifyResourceDeleted(uri: string): Promise<void>;
  /**
   * The prompt list changed (prompts of your own `server`, or computed outside the registry):
   * `notifications/prompts/list_changed` to the legacy sessions live here and to modern listen streams that asked.
   */
  notifyPromptsChanged(): void;
  /** Where the dev console is served and its token, when the `devConsole` option is on. */
  readonly devConsole?: { readonly path: string; readonly token: string };
  /**
   * Stops accepting requests (503), drains running calls up to `drainMs` (the option, or this call's), waits
   * until their answers are written (up to the same deadline), then closes every session.
   */
  close(options?: { drainMs?: number }): Promise<void>;
}

/** What a host passes with a request to {@link FusionApp.fetch}. */
export interface FusionFetchOptions {
  /** The verified token of the caller, if the host checked one (as the SDK's handlers take it). */
  authInfo?: unknown;
  /** The remote address of the connection: anonymous modern callers are keyed by it, anonymous legacy openers budgeted. */
  peer?: string;
  /** The JSON body, when the host already parsed it (the request's own body is then not read). */
  parsedBody?: unknown;
}

/**
 * One HTTP endpoint for both eras: legacy requests go to a sessionful leg (one server per
 * `Mcp-Session-Id`, with a lifecycle), modern (2026-07-28) requests to the SDK's per-request handler.
 * The HTTP front's middlewares (`middleware/front.ts`: Host, Origin, auth, content type, body size, JSON
 * syntax, budgets, …) come first, on every path. Mount `app.node` in node:http, or use {@link startServer}.
 */
export function createFusionApp<Ctx>(registry: ToolRegistry<Ctx>, appOptions: HttpOptions<Ctx> = {}): FusionApp {
  // The dev console (when on) hears the app through its observers and serves its page beside the endpoint.
  const devConsole = devConsoleTap(appOptions);
  const options = devConsole?.options ?? appOptions;
  const path = options.path ?? '/mcp';
  const hosts = options.allowedHosts ?? localhostAllowedHostnames();
  const origins = options.allowedOrigins ?? localhostAllowedOrigins();
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const limits = resolveHttpLimits(options.limits);
  const log = OperatorLog.of(options);
  const storeFailed = (message: string, session: string) => (error: unknown) => log.error(message, { session }, error);
  const manager = new SessionManager({
    ...(options.sessionStore !== undefined ? { store: options.sessionStore } : {}),
    ...(options.sessionTimeouts !== undefined ? { timeouts: options.sessionTimeouts } : {}),
    onEvent: (event) => {
      timeSession?.(event);
      options.onSessionEvent?.(event);
    },
    ...(options.now !== undefined ? { now: options.now } : {}),
    onError: (error) => log.error('session store failed', {}, error),
    onRelease: (id, phase) => {
      legacy.release(id, phase);
      if (phase === 'destroyed')
        void options.fsmStore
          ?.delete?.(id)
          .catch(storeFailed('workflow state store failed: an ended session’s state could not be deleted', id));
      if (phase === 'destroyed')
        void sessionData
          .delete(`s:${id}`)
          .catch(storeFailed('session store failed: an ended session’s data could not be deleted', id));
    },
  });
  // Handler data (extra.session) lives in the session store beside the session records, for as long as a session may.
  const sessionData =
    options.sessionData ??
    storeSessionData(manager.store, manager.timeouts.ttlMs, {
      ...(options.now !== undefined ? { now: options.now } : {}),
      ...(options.sessionDataLimits !== undefined ? { limits: options.sessionDataLimits } : {}),
    });
  const events =
    options.eventStore === false
      ? undefined
      : {
          store: options.eventStore ?? new MemoryEventStore(options.now !== undefined ? { now: options.now } : {}),
          retryMs: options.sseRetryMs ?? 1000,
        };
  const rawSessionBus = options.sessionBus ?? options.bus?.sessions;
  // With resumable streams, every session notification carries its identity, so instances store it once.
  const sessionBus =
    rawSessionBus !== undefined && events !== undefined ? keyedSessionBus(rawSessionBus) : rawSessionBus;
  if (rawSessionBus !== undefined && options.eventStore === undefined) {
    warnOf(options)(
      '[mcp-fusion] several instances share sessions (a session bus is set) but the events kept for resuming SSE streams live in this process: a client reconnecting to another instance cannot resume. Pass eventStore (e.g. new RedisEventStore({ client })), or eventStore: false.',
    );
  }
  if (sessionBus !== undefined && options.fsm !== undefined && options.fsmStore === undefined) {
    warnOf(options)(
      '[mcp-fusion] several instances share sessions (a session bus is set) but legacy workflow state lives in each session record, which is not atomic across processes; pass fsmStore (e.g. new RedisFsmStore({ client })) as well.',
    );
  }
  // Without an explicit store, workflow state lives in the session record: it follows the session
  // through idle and resume, and goes away with it.
  const stores =
    options.fsm !== undefined && options.fsmStore === undefined
      ? {
          ...options,
          fsmStore: sessionFsmStore(manager),
          workflowStore:
            options.workflowStore ?? new MemoryFsmStore(options.now === undefined ? {} : { now: options.now }),
        }
      : options;
  const attach: HttpOptions<Ctx> = {
    ...stores,
    sessionData,
    ...(sessionBus !== undefined ? { sessionBus } : {}),
    onWorkflowChange: (change) => {
      // A just-minted handle has no subscriber anywhere yet: publishing would only reach a listen stream
      // opened after this result, late (through the bus), as a change that did not happen after it.
      if (!change.minted) {
        modern.notify.resourceUpdated(change.uri);
        void runtime.features.subscriptions?.publish(change.uri)?.catch(() => {});
      }
      options.onWorkflowChange?.(change);
    },
  };
  const runtime = registry.runtime(attach);
  const toolRuntime = runtime.tools;
  const tracing = runtime.features.tracing;
  // mcp.server.session.duration follows the session's lifecycle, not its server (released when idle).
  const timeSession = tracing?.timeSessions((id) => manager.get(id));
  // With resumable streams, listen-stream events carry their identity too, so two recorders store one once.
  const modernBus = events !== undefined ? keyedEventBus(options.bus ?? new InMemoryServerEventBus()) : options.bus;
  const legacy = new LegacySessions(() => buildServer(runtime, attach, 'legacy').server, manager, {
    sessionBus,
    limits,
    now: options.now,
    log,
    events,
  });
  const unsubscribe = sessionBus?.subscribe((id, notification) => legacy.deliver(id, notification));
  // Listen streams honour resource subscriptions (a workflow instance's URI) only when the server offers them.
  const offerSubscribe = (server: Server) => {
    if (toolRuntime.gated || toolRuntime.stateSyncEnabled)
      server.registerCapabilities({ resources: { subscribe: true } });
  };
  // One long-lived server answers modern requests; the SDK's per-request handler serves listen streams and refusals.
  const perRequest = createMcpHandler(
    (ctx) => {
      const { server, instance } = buildServer(runtime, attach, ctx.era);
      offerSubscribe(server);
      return instance;
    },
    { legacy: 'reject', maxRequestBodySize: limit, ...(modernBus !== undefined ? { bus: modernBus } : {}) },
  );
  const modern = new ModernDispatcher(runtime, attach, perRequest, offerSubscribe);
  devConsole?.attach(registry, toolRuntime);
  // State Sync meets resources: an invalidation updates fusion://stale/<pattern> and every resource that
  // reflects the invalidated domain, for modern listen streams that named them.
  const stopInvalidations = toolRuntime.onInvalidation((patterns) => {
    for (const uri of staleResourceUris(patterns, registry.resources)) {
      modern.notify.resourceUpdated(uri);
      void runtime.features.subscriptions?.publish(uri)?.catch(() => {});
    }
  });
  const stopToolsChanged = toolRuntime.onToolsChanged(() => modern.notify.toolsChanged());
  const listens = new ListenStreams(
    {
      perPrincipal: options.maxListenStreamsPerPrincipal ?? 16,
      total: limits.maxListenStreams,
      maxLifetimeMs: limits.listenMaxLifetimeMs,
      maxFilterUris: limits.maxListenFilterUris,
      maxFilterBytes: limits.maxListenFilterBytes,
      maxFilterBytesTotal: limits.maxListenFilterBytesTotal,
    },
    options.now,
    events === undefined ? undefined : { ...events, lingerMs: options.listenResumeMs ?? 30_000 },
  );
  const auth = options.auth === undefined ? undefined : new AuthGate(options.auth, path);
  const scoped = toolRuntime.scopedTools;
  if (auth === undefined && scoped.length > 0) {
    warnOf(options)(
      `[mcp-fusion] ${scoped.join(', ')} require${scoped.length === 1 ? 's' : ''} OAuth scopes but the app has no auth option: unless your host passes a verified authInfo to app.fetch, no caller holds a scope and they stay hidden. Set auth: { verifier } (see docs/auth.md).`,
    );
  }
  const requiredOf = (method: string, params: Record<string, unknown>): readonly string[] =>
    method === 'tools/call' && typeof params.name === 'string'
      ? toolRuntime.requiredScopesOf(params.name, params.arguments as Record<string, unknown> | undefined)
      : (runtime.content?.requiredScopesOf(method, params) ?? []);
  const calls = new CallBudget(limits.maxInFlightCalls, () => toolRuntime.inFlight);
  // The drain's clock (the runtime's deadlines run on it): a test clock's `now` carries its timers.
  const clock = carriedClock(options.now) ?? monotonicClock;
  let closing = false;
  const relisten = (authInfo: unknown) => (listen: Request, body: unknown) =>
    modern.fetch(listen, { parsedBody: body, ...(authInfo !== undefined ? { authInfo: authInfo as never } : {}) });
  const resume = events === undefined ? undefined : { listens, relisten };

  const front = compose(
    frontMiddleware({
      path,
      hosts,
      origins,
      maxBodyBytes: limit,
      auth,
      tracing,
      devConsole,
      closing: () => closing,
      requiredScopes: requiredOf,
      calls,
      resume,
    }),
    (c) => {
      rememberPeer(c.request, c.peer);
      return dispatch(c.request, c.body, c.authInfo, c.peer);
    },
  );
  const dispatch = async (
    request: Request,
    parsedBody: unknown,
    authInfo: unknown,
    peer: string | undefined,
  ): Promise<Response> => {
    // An ordinary modern request is classified once, here; anything else as the SDK's entry routes it.
    const admitted = modern.admit(request, parsedBody);
    if (admitted !== undefined) return modern.serve(admitted, request, authInfo as never);
    if (isOrdinaryLegacy(request, parsedBody, legacy) || (await isLegacyRequest(request, parsedBody)))
      return legacy.handle(request, parsedBody, authInfo, peer);
    const auth = authInfo !== undefined ? { authInfo: authInfo as never } : {};
    if (!isListen(parsedBody)) return modern.fetch(request, { parsedBody, ...auth });
    // A listen filter obeys scopes as resources/read does: a URI the caller may not read is left out, unnamed.
    const granted = ScopeGate.scopesOf(authInfo);
    const slot = listens.open(
      parsedBody,
      { authInfo, peer },
      (uri) => missingScopes(requiredOf('resources/read', { uri }), granted).length === 0,
    );
    if (slot instanceof Response) return slot;
    let response: Response;
    try {
      response = await modern.fetch(listens.detached(request), { parsedBody: slot.body, ...auth });
    } catch (error) {
      listens.release(slot);
      throw error;
    }
    return listens.track(await listens.record(response, slot, request.signal), slot, tokenExpiryMs(authInfo));
  };
  // The node adapter writes a JSON answer's text itself; hosts of `fetch` get a genuine Response.
  const serve = async (request: Request, extra: FusionFetchOptions = {}): Promise<Response> =>
    front({ request, peer: extra.peer, authInfo: extra.authInfo, body: extra.parsedBody });
  const fetch = async (request: Request, extra?: FusionFetchOptions): Promise<Response> =>
    realResponse(await serve(request, extra));

  const app: FusionApp = {
    fetch,
    node: (req, res, parsedBody) =>
      void serveNodeRequest({ fetch: serve }, req, res, typeof parsedBody === 'function' ? undefined : parsedBody),
    sessions: legacy,
    ...(devConsole !== undefined ? { devConsole: { path: devConsole.path, token: devConsole.token } } : {}),
    async notifyResourceUpdated(uri: string) {
      modern.notify.resourceUpdated(uri);
      await runtime.features.subscriptions?.publish(uri);
    },
    notifyPromptsChanged() {
      modern.notify.promptsChanged();
      legacy.broadcast({ method: 'notifications/prompts/list_changed' });
    },
    async notifyResourceDeleted(uri: string) {
      modern.notify.resourceUpdated(uri);
      modern.notify.resourcesChanged();
      await runtime.features.subscriptions?.retire(uri);
      legacy.broadcast({ method: 'notifications/resources/list_changed' });
    },
    async close(how = {}) {
      closing = true;
      const drainMs = how.drainMs ?? options.drainMs ?? 10_000;
      const started = clock.now();
      await runtime.drain(drainMs);
      // The drained calls' answers are written once their responses end: up to the drain deadline, and at least
      // ANSWER_MS for the calls the deadline cut.
      await calls.answered(Math.max(drainMs - (clock.now() - started), ANSWER_MS), clock);
      unsubscribe?.();
      // The SDK ends its listen streams gracefully (the empty listen result): clients then listen elsewhere.
      await modern.close();
      listens.closeAll();
      stopInvalidations();
      stopToolsChanged();
      await devConsole?.close();
      await legacy.closeAll();
      runtime.dispose();
    },
  };
  return app;
}
