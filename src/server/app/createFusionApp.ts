import { nowOption } from '../../_internal/clock.js';
import {
  createMcpHandler,
  InMemoryServerEventBus,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  type Server,
} from '@modelcontextprotocol/server';
import type { ToolRegistry } from '../../registry/ToolRegistry.js';
import { requiredScopesOf } from '../../runtime/content/requiredScopesOf.js';
import { noteOf } from '../../runtime/frontNotes.js';
import { unwatchableUris } from '../../workflow/mayWatchUri.js';
import { BearerAuth } from '../../auth/BearerAuth.js';
import { classifyRequest } from '../http/classify.js';
import { rememberPeer } from '../../principal/peers.js';
import { peerKey } from '../../principal/peerKey.js';
import { peerPolicy } from '../../principal/peerPolicy.js';
import { OperatorLog } from '../../logging/OperatorLog.js';
import { warnOf } from '../../logging/warnOf.js';
import { appClose } from './appClose.js';
import { appLedger, jsonBytes } from './appLedger.js';
import { handOverBody } from '../http/bodyHold.js';
import { appListens } from './appListens.js';
import { appNotifications } from './appNotifications.js';
import { appSessions } from './appSessions.js';
import { buildServer } from '../buildServer.js';
import { CallBudget } from '../http/CallBudget.js';
import { devConsoleTap } from '../console/devConsole.js';
import type { FusionApp, FusionFetchOptions } from './FusionApp.js';
import { realResponse } from '../http/jsonAnswer.js';
import { heardSubscriptionMove } from '../../session/subscriptionMoves.js';
import { keyedEventBus } from '../legacy/keyedEventBus.js';
import { LegacySessions } from '../legacy/LegacySessions.js';
import { resolveHttpLimits } from '../limits.js';
import { isListen } from '../listen/ListenStreams.js';
import { compose } from '../middleware/compose.js';
import { frontMiddleware } from '../middleware/front.js';
import type { RequiredScopes } from '../middleware/scopeChallenge.js';
import { ModernDispatcher } from '../modern/ModernDispatcher.js';
import { serveNodeRequest } from './nodeHandler.js';
import { tokenExpiryMs } from '../http/tokenExpiry.js';
import type { HttpOptions } from '../types.js';

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

export type { FusionApp, FusionFetchOptions } from './FusionApp.js';

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
  const peers = peerPolicy(options.peers);
  const log = OperatorLog.of(options);
  const sessions = appSessions(options, log, {
    event: (event) => timeSession?.(event),
    released: (id, phase) => legacy.release(id, phase),
  });
  const { manager, events, sessionBus } = sessions;
  const taskBus = options.tasks?.bus ?? options.bus?.tasks;
  // The one ledger of held bytes: the runtime's (given to it), charged here for bodies, listens and sessions.
  const ledger = appLedger(options);
  const attach: HttpOptions<Ctx> = {
    ...sessions.options,
    heldBytes: ledger,
    ...(taskBus !== undefined ? { tasks: { ...options.tasks, bus: taskBus } } : {}),
    onWorkflowChange: (change) => {
      notifications.workflowChanged(change);
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
    now: nowOption(options.clock),
    log,
    events,
    ledger,
  });
  const unsubscribe = sessionBus?.subscribe((id, notification) => {
    if (!heardSubscriptionMove(runtime.features.subscriptions, id, notification)) legacy.deliver(id, notification);
  });
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
  devConsole?.attach(registry, toolRuntime, () =>
    (runtime.skills?.all() ?? []).map((s) => ({
      name: s.name,
      description: s.description,
      markdown: s.files['SKILL.md']!,
    })),
  );
  const shared = options.bus === undefined ? undefined : modernBus;
  const notifications = appNotifications(runtime, registry, { modern, legacy, ...(shared ? { shared } : {}) });
  const { listens, resume } = appListens(options, limits, events, modern, ledger);
  const auth = options.auth === undefined ? undefined : new BearerAuth(options.auth, path);
  const scoped = runtime.surface.tools.filter((t) => (t.requiredScopes ?? []).length > 0).map((t) => t.name);
  if (auth === undefined && scoped.length > 0) {
    warnOf(options)(
      `[mcp-fusion] ${scoped.join(', ')} require${scoped.length === 1 ? 's' : ''} OAuth scopes but the app has no auth option: unless your host passes a verified authInfo to app.fetch, no caller holds a scope and they stay hidden. Set auth: { verifier } (see docs/auth.md).`,
    );
  }
  // A tools/call's route, resolved for the scope challenge, is noted for its handler: resolved once per call.
  const requiredOf: RequiredScopes = (request, id, method, params) =>
    requiredScopesOf(runtime, method, params, (call) => (noteOf(request, id).call = call));
  const calls = new CallBudget(limits.maxInFlightCalls, runtime.tracker);
  const shutdown = appClose(options, {
    runtime,
    modern,
    listens,
    notifications,
    devConsole,
    legacy,
    unsubscribe,
  });

  const front = compose(
    frontMiddleware({
      path,
      hosts,
      origins,
      maxBodyBytes: limit,
      ledger,
      auth,
      tracing,
      devConsole,
      closing: shutdown.closing,
      requiredScopes: requiredOf,
      calls,
      resume,
      use: options.use,
      log,
    }),
    (c) => {
      rememberPeer(c.request, c.peerKey);
      return dispatch(c.request, c.body, c.authInfo, c.peerKey);
    },
  );
  const dispatch = async (
    request: Request,
    parsedBody: unknown,
    authInfo: unknown,
    peer: string | undefined,
  ): Promise<Response> => {
    // Classified once, here (era, session id, body shape), and handed on; when unsure, as the SDK's entry routes it.
    const classified = classifyRequest(request, parsedBody, { sessions: legacy, envelopes: modern.envelopes });
    if (classified.admitted !== undefined) return modern.serve(classified.admitted, request, authInfo as never);
    if (classified.era === 'legacy' || (await isLegacyRequest(request, parsedBody)))
      return legacy.handle(request, parsedBody, { authInfo, peer, classified });
    const auth = authInfo !== undefined ? { authInfo: authInfo as never } : {};
    if (!isListen(parsedBody)) return modern.refer(request, { parsedBody, ...auth });
    // A listen filter obeys scopes as resources/read does: a URI the caller may not read is left out, unnamed.
    // So does a URI of a workflow instance the caller does not own.
    const unwatchable = await unwatchableUris(runtime.workflow, parsedBody, {
      authInfo,
      era: 'modern',
      raw: request,
    });
    handOverBody(request); // the listen holds the whole request from here on
    calls.letGo(request, parsedBody); // and no drain waits for it
    const slot = listens.open(
      parsedBody,
      { authInfo, peer },
      (uri) => !unwatchable.has(uri) && (runtime.content?.allowsUri(uri, authInfo) ?? true),
      jsonBytes(parsedBody),
    );
    if (slot instanceof Response) return slot;
    let response: Response;
    const detached = listens.detached(request);
    rememberPeer(detached, peer);
    try {
      response = await modern.refer(detached, { parsedBody: slot.body, ...auth });
    } catch (error) {
      listens.release(slot);
      throw error;
    }
    return listens.track(await listens.record(response, slot, request.signal), slot, tokenExpiryMs(authInfo));
  };
  // The node adapter writes a JSON answer's text itself; hosts of `fetch` get a genuine Response.
  const serve = async (request: Request, extra: FusionFetchOptions = {}): Promise<Response> =>
    front({
      request,
      peer: extra.peer,
      peerKey: peerKey(extra.peer, request.headers.get(peers.forwardedHeader), peers),
      authInfo: extra.authInfo,
      body: extra.parsedBody,
    });
  const fetch = async (request: Request, extra?: FusionFetchOptions): Promise<Response> =>
    realResponse(await serve(request, extra));

  const app: FusionApp = {
    fetch,
    node: (req, res, parsedBody) =>
      void serveNodeRequest({ fetch: serve }, req, res, typeof parsedBody === 'function' ? undefined : parsedBody),
    sessions: legacy,
    ...(devConsole !== undefined ? { devConsole: { path: devConsole.path, token: devConsole.token } } : {}),
    notifyResourceUpdated: notifications.notifyResourceUpdated,
    notifyResourceDeleted: notifications.notifyResourceDeleted,
    notifyPromptsChanged: notifications.notifyPromptsChanged,
    close: shutdown.close,
  };
  return app;
}
