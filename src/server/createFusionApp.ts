import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import type { ToolRegistry } from '../registry/ToolRegistry.js';
import { JsonRpcCode } from '../errors/WireError.js';
import { MemoryFsmStore } from '../fsm/MemoryFsmStore.js';
import { SessionManager } from '../session/SessionManager.js';
import { sessionFsmStore } from '../session/sessionFsmStore.js';
import { storeSessionData } from '../session/sessionData.js';
import { staleResourceUris } from '../runtime/systemResources.js';
import { AuthGate } from '../auth/AuthGate.js';
import { scopeChallengeFor } from '../auth/scopeChallengeFor.js';
import { ScopeGate } from '../auth/ScopeGate.js';
import { buildServer } from './buildServer.js';
import { devConsoleTap } from './devConsole.js';
import { isListen, ListenStreams } from './ListenStreams.js';
import { jsonRpcErrorResponse } from './httpErrors.js';
import { LegacySessions } from './LegacySessions.js';
import { readJsonBody } from './readJsonBody.js';
import { preflightResponse, withCors } from './cors.js';
import { badHostMessage, isValidHostHeader } from './hostHeader.js';
import { resolveHttpLimits } from './limits.js';
import { pathnameOf } from './urlPath.js';
import { rememberPeer } from '../principal/peers.js';
import { protoKeyOfBody } from '../protocol/protoKeys.js';
import { CallBudget } from './CallBudget.js';
import { missingScopes } from '../auth/checkScopes.js';
import { tokenExpiryMs } from './tokenExpiry.js';
import type { HttpOptions } from './types.js';
import { OperatorLog } from '../logging/OperatorLog.js';
import { warnOf } from '../logging/warnOf.js';
import type { RequestTracing } from '../tracing/RequestTracing.js';

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

/** A fetch-shaped MCP endpoint serving both protocol eras. */
export interface FusionApp {
  /**
   * Serves one request. `authInfo`: the verified token of the caller, if any (pass-through, as the SDK's
   * handlers take it). `peer`: the remote address of the connection (`startServer` passes the socket's);
   * anonymous modern callers are keyed by it, and anonymous legacy openers are budgeted by it. Without a
   * peer, anonymous modern callers share one key.
   */
  fetch(request: Request, options?: { authInfo?: unknown; peer?: string }): Promise<Response>;
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
  /** Where the dev console is served and its token, when the `devConsole` option is on. */
  readonly devConsole?: { readonly path: string; readonly token: string };
  /** Stops accepting requests (503), drains running calls up to `drainMs` (the option, or this call's), then closes every session. */
  close(options?: { drainMs?: number }): Promise<void>;
}

/**
 * One HTTP endpoint for both eras: legacy requests go to a sessionful leg (one server per
 * `Mcp-Session-Id`, with a lifecycle), modern (2026-07-28) requests to the SDK's per-request handler.
 * Host, Origin, content type, body size and JSON syntax are checked first, on every path.
 * Mount it with `toNodeHandler(app)` or use {@link startServer}.
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
      if (phase === 'destroyed') void options.fsmStore?.delete?.(id).catch(storeFailed('workflow state store failed: an ended session’s state could not be deleted', id));
      if (phase === 'destroyed') void sessionData.delete(`s:${id}`).catch(storeFailed('session store failed: an ended session’s data could not be deleted', id));
    },
  });
  // Handler data (extra.session) lives in the session store beside the session records, for as long as a session may.
  const sessionData = options.sessionData ?? storeSessionData(manager.store, manager.timeouts.ttlMs, { ...(options.now !== undefined ? { now: options.now } : {}), ...(options.sessionDataLimits !== undefined ? { limits: options.sessionDataLimits } : {}) });
  const sessionBus = options.sessionBus ?? options.bus?.sessions;
  if (sessionBus !== undefined && options.fsm !== undefined && options.fsmStore === undefined) {
    warnOf(options)(
      '[mcp-fusion] several instances share sessions (a session bus is set) but legacy workflow state lives in each session record, which is not atomic across processes; pass fsmStore (e.g. new RedisFsmStore({ client })) as well.',
    );
  }
  // Without an explicit store, workflow state lives in the session record: it follows the session
  // through idle and resume, and goes away with it.
  const stores = options.fsm !== undefined && options.fsmStore === undefined ? { ...options, fsmStore: sessionFsmStore(manager), workflowStore: options.workflowStore ?? new MemoryFsmStore() } : options;
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
  const pipeline = runtime.tools;
  const tracing = runtime.features.tracing;
  // mcp.server.session.duration follows the session's lifecycle, not its server (released when idle).
  const timeSession = tracing?.timeSessions((id) => manager.get(id));
  const legacy = new LegacySessions(() => buildServer(runtime, attach, 'legacy').server, manager, { sessionBus, limits, now: options.now, log });
  const unsubscribe = sessionBus?.subscribe((id, notification) => legacy.deliver(id, notification));
  const modern = createMcpHandler(
    (ctx) => {
      const { server, instance } = buildServer(runtime, attach, ctx.era);
      // Listen streams honour resource subscriptions (a workflow instance's URI) only when the server offers them.
      if (pipeline.gated || pipeline.stateSyncEnabled) server.registerCapabilities({ resources: { subscribe: true } });
      return instance;
    },
    { legacy: 'reject', maxRequestBodySize: limit, ...(options.bus !== undefined ? { bus: options.bus } : {}) },
  );
  devConsole?.attach(registry, pipeline);
  // State Sync meets resources: an invalidation updates fusion://stale/<pattern> and every resource that
  // reflects the invalidated domain, for modern listen streams that named them.
  const stopInvalidations = pipeline.onInvalidation((patterns) => {
    for (const uri of staleResourceUris(patterns, registry.resources)) {
      modern.notify.resourceUpdated(uri);
      void runtime.features.subscriptions?.publish(uri)?.catch(() => {});
    }
  });
  const stopToolsChanged = pipeline.onToolsChanged(() => modern.notify.toolsChanged());
  const listens = new ListenStreams(
    { perPrincipal: options.maxListenStreamsPerPrincipal ?? 16, total: limits.maxListenStreams, maxLifetimeMs: limits.listenMaxLifetimeMs, maxFilterUris: limits.maxListenFilterUris, maxFilterBytes: limits.maxListenFilterBytes, maxFilterBytesTotal: limits.maxListenFilterBytesTotal },
    options.now,
  );
  const auth = options.auth === undefined ? undefined : new AuthGate(options.auth, path);
  const scoped = pipeline.scopedTools;
  if (auth === undefined && scoped.length > 0) {
    warnOf(options)(
      `[mcp-fusion] ${scoped.join(', ')} require${scoped.length === 1 ? 's' : ''} OAuth scopes but the app has no auth option: unless your host passes a verified authInfo to app.fetch, no caller holds a scope and they stay hidden. Set auth: { verifier } (see docs/auth.md).`,
    );
  }
  const requiredOf = (method: string, params: Record<string, unknown>): readonly string[] =>
    method === 'tools/call' && typeof params.name === 'string' ? pipeline.requiredScopesOf(params.name, params.arguments as Record<string, unknown> | undefined) : (runtime.content?.requiredScopesOf(method, params) ?? []);
  const calls = new CallBudget(limits.maxInFlightCalls, () => pipeline.inFlight);
  let closing = false;

  const serve = async (request: Request, extra: { authInfo?: unknown; peer?: string }): Promise<Response> => {
    if (closing) return jsonRpcErrorResponse(503, JsonRpcCode.InternalError, 'Service Unavailable: the server is shutting down; retry on another instance or later.', { 'Retry-After': '1' });
    const host = request.headers.get('host');
    if (!isValidHostHeader(host)) return jsonRpcErrorResponse(400, JsonRpcCode.InvalidRequest, badHostMessage(host!));
    const rejected = hostHeaderValidationResponse(request, hosts) ?? originValidationResponse(request, origins);
    if (rejected !== undefined) return rejected;
    const metadata = auth?.metadata(request);
    if (metadata !== undefined) return metadata;
    if (pathnameOf(request.url) !== path) {
      return jsonRpcErrorResponse(404, JsonRpcCode.InvalidRequest, `Not Found: the MCP endpoint is ${path}.`);
    }
    if (request.method === 'OPTIONS') return preflightResponse(request);
    // A CORS preflight carries no credentials; everything after it needs a verified token when auth is on.
    let authInfo = extra.authInfo;
    if (auth !== undefined) {
      const verified = await auth.authenticate(request);
      if (verified instanceof Response) return traced(tracing, request, undefined, verified);
      authInfo = verified;
    }
    let parsedBody: unknown;
    if (request.method === 'POST') {
      const read = await readJsonBody(request, limit);
      if ('response' in read) return read.response;
      parsedBody = read.body;
    } else if (request.method !== 'GET' && request.method !== 'DELETE') {
      return jsonRpcErrorResponse(405, JsonRpcCode.InvalidRequest, 'Method Not Allowed: use POST, GET or DELETE.', { Allow: 'POST, GET, DELETE, OPTIONS' });
    }
    const { peer } = extra;
    rememberPeer(request, peer);
    if (request.method !== 'POST' && isModernWithoutSession(request)) {
      // The 2026-07-28 era has no GET stream and no session to DELETE: say so, so that hosts do not retry.
      return jsonRpcErrorResponse(405, JsonRpcCode.InvalidRequest, `Method Not Allowed: protocol version ${request.headers.get('mcp-protocol-version') ?? '2026-07-28'} has no ${request.method} stream or session; send requests with POST (use subscriptions/listen for notifications).`, { Allow: 'POST' });
    }
    const proto = protoKeyOfBody(parsedBody);
    if (proto !== undefined) {
      // JSON.parse keeps a "__proto__" key as data, but the SDK's message schema drops it silently: refuse it here.
      return jsonRpcErrorResponse(400, JsonRpcCode.InvalidParams, `Invalid arguments for tool "${String(proto.name)}": ${proto.path} is not an accepted field (unknown field). Remove it and call the tool again.`, {}, proto.id);
    }
    if (authInfo !== undefined && parsedBody !== undefined) {
      const challenge = scopeChallengeFor(parsedBody, ScopeGate.scopesOf(authInfo), requiredOf);
      if (challenge !== undefined) return traced(tracing, request, parsedBody, AuthGate.scopeChallenge(challenge, authInfo as never));
    }
    return calls.run(parsedBody, () => dispatch(request, parsedBody, authInfo, peer));
  };
  const dispatch = async (request: Request, parsedBody: unknown, authInfo: unknown, peer: string | undefined): Promise<Response> => {
    if (await isLegacyRequest(request, parsedBody)) return legacy.handle(request, parsedBody, authInfo, peer);
    const auth = authInfo !== undefined ? { authInfo: authInfo as never } : {};
    if (!isListen(parsedBody)) return modern.fetch(request, { parsedBody, ...auth });
    // A listen filter obeys scopes as resources/read does: a URI the caller may not read is left out, unnamed.
    const granted = ScopeGate.scopesOf(authInfo);
    const slot = listens.open(parsedBody, { authInfo, peer }, (uri) => missingScopes(requiredOf('resources/read', { uri }), granted).length === 0);
    if (slot instanceof Response) return slot;
    let response: Response;
    try {
      response = await modern.fetch(request, { parsedBody: slot.body, ...auth });
    } catch (error) {
      listens.release(slot);
      throw error;
    }
    return listens.track(response, slot, tokenExpiryMs(authInfo));
  };
  const fetch = async (request: Request, extra: { authInfo?: unknown; peer?: string } = {}): Promise<Response> => {
    if (devConsole?.owns(pathnameOf(request.url)) === true) return devConsole.serve(request, extra.peer);
    const response = await serve(request, extra);
    // CORS headers only for a browser origin on the allow-list: a refused origin learns nothing more.
    return request.headers.get('origin') !== null && originValidationResponse(request, origins) === undefined ? withCors(request, response) : response;
  };

  return {
    fetch,
    sessions: legacy,
    ...(devConsole !== undefined ? { devConsole: { path: devConsole.path, token: devConsole.token } } : {}),
    async notifyResourceUpdated(uri: string) {
      modern.notify.resourceUpdated(uri);
      await runtime.features.subscriptions?.publish(uri);
    },
    async notifyResourceDeleted(uri: string) {
      modern.notify.resourceUpdated(uri);
      modern.notify.resourcesChanged();
      await runtime.features.subscriptions?.retire(uri);
      legacy.broadcast({ method: 'notifications/resources/list_changed' });
    },
    async close(how = {}) {
      closing = true;
      await runtime.drain(how.drainMs ?? options.drainMs ?? 10_000);
      // Let the transports write the responses of the calls that just finished.
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
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
}

/** `response`, a refusal of the HTTP front, with its span when tracing is on. */
function traced(tracing: RequestTracing | undefined, request: Request, body: unknown, response: Response): Response {
  return tracing === undefined ? response : tracing.refused(request, body, response);
}

/** A GET or DELETE that names a 2026-07-28 (or later) protocol version and no legacy session. */
function isModernWithoutSession(request: Request): boolean {
  const version = request.headers.get('mcp-protocol-version');
  return request.headers.get('mcp-session-id') === null && version !== null && /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= '2026-07-28';
}
