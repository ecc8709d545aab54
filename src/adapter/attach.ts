import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ProtocolEra } from '../protocol/types.js';
import { AttachError } from '../errors/FusionError.js';
import { capabilitiesFor } from './capabilitiesFor.js';
import { contentHandlers, type MethodHandler } from './contentHandlers.js';
import { compose, type Member, type ServedNames } from './composeServer.js';
import { LOG_LEVELS, scopeV1, scopeV2, v1Bridge, v2Bridge } from './sdkScope.js';
import { installedHandler, installMcpServerHandlers, isMcpServer, mcpServerNames } from './sdkHandlers.js';
import type { FusionRuntime } from '../runtime/FusionRuntime.js';
import type { RequestScope } from '../surface/types.js';
import { requestPrincipal } from '../principal/requestPrincipal.js';
import { budgetOwner } from '../principal/budgetOwner.js';
import { sealTargetOf } from '../runtime/pickAction.js';
import { installTasks, taskCapabilities } from './installTasks.js';

/** The part of an SDK server mcp-fusion needs (v2 `Server`, or v1 `Server`). Duck-typed on purpose. */
interface ServerLike {
  setRequestHandler(method: unknown, handler: (request: any, ctx: any) => unknown): void;
  registerCapabilities?(capabilities: Record<string, unknown>): void;
  sendToolListChanged?(): Promise<void>;
  sendPromptListChanged?(): Promise<void>;
  sendResourceListChanged?(): Promise<void>;
  notification?(notification: unknown): Promise<void>;
  onclose?: (() => void) | undefined;
  projectCallToolResult?: unknown;
  assertCanSetRequestHandler?(method: string): void;
  removeRequestHandler?(method: string): void;
}

/** What `attachToServer` returns. */
export interface Attachment {
  /** `v2` (the current SDK line) or `v1` (`@modelcontextprotocol/sdk`). */
  readonly sdk: 'v1' | 'v2';
  /** Sends `notifications/tools/list_changed` to this server's client(s). */
  notifyToolListChanged(): Promise<void>;
  /** Sends `notifications/prompts/list_changed` (declared when the registry has prompts). */
  notifyPromptListChanged(): Promise<void>;
  /** Sends `notifications/resources/list_changed`, e.g. when what a template's `.list()` reports changed. */
  notifyResourceListChanged(): Promise<void>;
  /**
   * Sends `notifications/resources/updated` for `uri` to the sessions of this server that subscribed to it
   * (`resources/subscribe`, with the `resourceSubscriptions` option), and to nobody else.
   */
  notifyResourceUpdated(uri: string): Promise<void>;
  /**
   * The resource at `uri` was deleted: its subscribers on this server get a last
   * `notifications/resources/updated` (a read now answers "Resource not found"), their subscriptions end,
   * and the client gets `notifications/resources/list_changed`.
   */
  notifyResourceDeleted(uri: string): Promise<void>;
  /** Releases the per-session state this attachment created. */
  detach(): void;
}

/** Finds the low-level server behind an SDK `McpServer` or `Server`, v1 or v2; throws a clear error otherwise. */
export function resolveServer(server: unknown): { low: ServerLike; sdk: 'v1' | 'v2'; mcp: object | undefined } {
  const candidate = (server as { server?: unknown } | null)?.server;
  const low = isServerLike(candidate) ? candidate : isServerLike(server) ? server : undefined;
  if (low === undefined) {
    throw new AttachError(
      'ATTACH_SERVER',
      'attachToServer() needs an MCP SDK server: a `McpServer` or low-level `Server` from @modelcontextprotocol/server (v2) or @modelcontextprotocol/sdk (v1). The value given has no setRequestHandler().',
    );
  }
  return { low, sdk: typeof low.projectCallToolResult === 'function' ? 'v2' : 'v1', mcp: low === candidate && isMcpServer(server) ? server : undefined };
}

const NO_NAMES: ServedNames = Object.freeze({ tools: [], prompts: [], resources: [], templates: [] });

/**
 * Installs `tools/list` and `tools/call` on a server over a prebuilt pipeline, plus the prompt and
 * resource methods when its registry has any, and declares exactly those capabilities. What the server
 * serves itself (an `McpServer`'s `registerTool()` entries, a low-level server's own handlers) and what
 * other registries attached to it serve stays listed and callable beside the registry's; a name both
 * serve is refused. Cheap by design: the modern era builds one server per request.
 */
export function attachPipeline<Ctx>(server: unknown, runtime: FusionRuntime<Ctx>, era?: ProtocolEra): Attachment {
  const { low, sdk, mcp } = resolveServer(server);
  const pipeline = runtime.tools;
  const { content, features } = runtime;
  const capabilities = capabilitiesFor(runtime);
  const tasks = sdk === 'v2' ? runtime.tasks : undefined;
  let own = NO_NAMES;
  try {
    if (mcp !== undefined) {
      // The McpServer installs its own handlers first, so that its registerTool() keeps working after attach.
      for (const kind of ['tools', 'prompts', 'resources', 'completions'] as const) if (kind in capabilities) installMcpServerHandlers(mcp, kind);
      own = mcpServerNames(mcp);
    }
    low.registerCapabilities?.({ ...capabilities, ...(tasks === undefined ? {} : taskCapabilities(era)) });
  } catch (error) {
    const connected = /connect/i.test((error as Error).message);
    throw new AttachError(
      connected ? 'ATTACH_CONNECTED' : 'ATTACH_HANDLERS',
      connected
        ? `attachToServer() must run before server.connect(): the server refused to add its capabilities (${(error as Error).message}).`
        : `attachToServer() could not prepare this server: ${(error as Error).message}.`,
    );
  }
  const connectionId = randomUUID();
  const keys = new Set<string>();
  const notifier = (send: 'sendToolListChanged' | 'sendPromptListChanged' | 'sendResourceListChanged', method: string) => async (): Promise<void> => {
    try {
      if (low[send] !== undefined) await low[send]!();
      else await low.notification?.({ method });
    } catch {
      // The connection is gone; nothing to notify.
    }
  };
  const notify = notifier('sendToolListChanged', 'notifications/tools/list_changed');
  const seal = features.requestState;
  // A v1 Server installs logging/setLevel only when constructed with the capability: mcp-fusion keeps the levels then.
  const v1Levels = sdk === 'v1' && features.logging && installedHandler(low, 'logging/setLevel') === undefined ? new Map<string, string>() : undefined;
  const bridge = sdk === 'v2' ? v2Bridge(low, seal) : v1Bridge(low, seal, connectionId, v1Levels);
  const untraced = sdk === 'v2'
    ? (ctx: any, target?: string, state?: unknown) => scopeV2(ctx, bridge, connectionId, era, target, state)
    : (extra: any, target?: string) => scopeV1(extra, bridge, connectionId, target);
  // Tracing is decided once here: without it the handlers and scopes are the untraced ones.
  const tracing = features.tracing;
  const scopeOf = tracing === undefined ? untraced : (ctx: any, target?: string, state?: unknown): RequestScope => ({ ...untraced(ctx, target, state), trace: tracing.traceOf(ctx) });
  const negotiated = (): string | undefined => (low as { getNegotiatedProtocolVersion?: () => string | undefined }).getNegotiatedProtocolVersion?.();
  // Multi-round-trip requests (tools/call, prompts/get, resources/read): an echoed requestState is opened
  // (verified for this target and caller) before anything runs; a first round stays synchronous.
  const scopeFor = (ctx: any, target: string): RequestScope | Promise<RequestScope> => {
    const raw = typeof ctx?.mcpReq?.requestState === 'function' ? ctx.mcpReq.requestState() : undefined;
    if (typeof raw !== 'string') return scopeOf(ctx, target, raw);
    return seal.open(raw, target, requestPrincipal(scopeOf(ctx)).key).then((state) => scopeOf(ctx, target, state));
  };
  const taskSetup = tasks === undefined ? undefined : installTasks(low, tasks, era, (ctx) => scopeOf(ctx));
  const taskDispatch = taskSetup?.dispatch;
  const subscriptions = era === 'modern' || content === undefined ? undefined : features.subscriptions;
  const subscribed = new Set<string>();
  const sendToClient = async (notification: unknown): Promise<void> => {
    await low.notification?.(notification);
  };
  const track = (scope: RequestScope): RequestScope => {
    if (scope.sessionKey !== undefined && pipeline.gated && !keys.has(scope.sessionKey)) {
      keys.add(scope.sessionKey);
      runtime.registerSession(scope.sessionKey, notify);
    }
    return scope;
  };
  const handlers: Array<readonly [string, MethodHandler]> = [
    ...(v1Levels === undefined
      ? []
      : ([
          [
            'logging/setLevel',
            (request: { params?: { level?: unknown } }, extra: any) => {
              if (typeof request?.params?.level === 'string' && LOG_LEVELS.includes(request.params.level)) v1Levels.set(extra?.sessionId ?? connectionId, request.params.level);
              return {};
            },
          ],
        ] as const)),
    ['tools/list', (_request, ctx) => pipeline.listTools(track(scopeOf(ctx)))],
    [
      'tools/call',
      (request: { params: { name: string; arguments?: Record<string, unknown> } }, ctx) => {
        const scope = scopeFor(ctx, sealTargetOf(pipeline.surface.routes.get(request.params.name), request.params.name, request.params.arguments));
        const call = (s: RequestScope) => {
          const plain = () => pipeline.callTool(request.params.name, request.params.arguments, track(s));
          return taskDispatch === undefined ? plain() : taskDispatch(request.params, track(s), plain);
        };
        return scope instanceof Promise ? scope.then(call) : call(scope);
      },
    ],
    ...(content === undefined
      ? []
      : contentHandlers(content, (ctx, target) => (target === undefined ? scopeOf(ctx) : scopeFor(ctx, target)))),
    ...(subscriptions === undefined
      ? []
      : ([
          [
            'resources/subscribe',
            (request: { params?: { uri?: unknown } }, ctx: unknown) => {
              const scope = scopeOf(ctx);
              // A scope-hidden resource is refused as resources/read refuses it.
              content!.authorizeUri(request?.params?.uri, scope.extra);
              const key = scope.sessionKey ?? connectionId;
              subscriptions.subscribe(key, request?.params?.uri, sendToClient, budgetOwner(scope));
              subscribed.add(key);
              return {};
            },
          ],
          [
            'resources/unsubscribe',
            (request: { params?: { uri?: unknown } }, ctx: unknown) => {
              subscriptions.unsubscribe(scopeOf(ctx).sessionKey ?? connectionId, request?.params?.uri);
              return {};
            },
          ],
        ] as const)),
  ];
  const prompts = new Set(content?.hasPrompts === true ? content.listPrompts().prompts.map((p) => p.name) : []);
  const templates = new Set(content?.hasResources === true ? content.listResourceTemplates().resourceTemplates.map((t) => t.uriTemplate) : []);
  const fixed = content?.hasResources === true ? content.resourceUris : [];
  const ownsUri = (uri: unknown): boolean => typeof uri === 'string' && content?.hasResource(uri) === true;
  const member: Member = {
    handlers: new Map(handlers.map(([method, handler]) => [method, tracing === undefined ? handler : tracing.wrap(method, handler, negotiated)] as const)),
    names: { tools: [...pipeline.surface.routes.keys()], prompts: [...prompts], resources: fixed, templates: [...templates] },
    owns(method, request) {
      const params = request?.params;
      if (method === 'tools/call') return pipeline.surface.routes.has(params?.name);
      if (method === 'prompts/get') return prompts.has(params?.name);
      if (method === 'completion/complete') return params?.ref?.type === 'ref/prompt' ? prompts.has(params.ref.name) : templates.has(params?.ref?.uri) || ownsUri(params?.ref?.uri);
      return ownsUri(params?.uri);
    },
    visibleTools: (ctx) => pipeline.visibleToolNames(scopeOf(ctx)),
  };
  try {
    compose(
      low,
      member,
      own,
      (method, handler) => low.setRequestHandler(sdk === 'v2' ? method : v1Schema(method), handler),
      (method) => low.removeRequestHandler?.(method),
    );
  } catch (error) {
    if (error instanceof AttachError) throw error;
    throw new AttachError('ATTACH_HANDLERS', `attachToServer() could not install ${listMethods(handlers.map(([m]) => m))}: ${(error as Error).message}.`);
  }
  // The SDK answers initialize itself; wrapping its handler gives the handshake its span.
  const initialize = tracing !== undefined && era !== 'modern' && sdk === 'v2' ? installedHandler(low, 'initialize') : undefined;
  if (initialize !== undefined) low.setRequestHandler('initialize', tracing!.wrap('initialize', (request, ctx) => initialize(request, ctx), negotiated));
  // Run-time enable/disable of tools reaches this server's client (legacy sessions, stdio, in-memory);
  // per-request modern servers cannot notify, the HTTP app tells their listen streams instead.
  const stopWatching = era === 'modern' ? undefined : pipeline.onToolsChanged(() => void notify());
  const endSession = tracing === undefined || era === 'modern' ? undefined : tracing.startSession(negotiated);
  const detach = (): void => {
    endSession?.();
    taskSetup?.stop();
    stopWatching?.();
    for (const key of keys) runtime.releaseSession(key);
    keys.clear();
    for (const key of subscribed) subscriptions?.release(key);
    subscribed.clear();
  };
  const previous = low.onclose;
  low.onclose = () => {
    previous?.();
    detach();
  };
  return {
    sdk,
    notifyToolListChanged: notify,
    notifyPromptListChanged: notifier('sendPromptListChanged', 'notifications/prompts/list_changed'),
    notifyResourceListChanged: notifier('sendResourceListChanged', 'notifications/resources/list_changed'),
    notifyResourceUpdated: async (uri: string) => {
      await subscriptions?.publish(uri, (session) => subscribed.has(session));
    },
    notifyResourceDeleted: async (uri: string) => {
      await subscriptions?.retire(uri, (session) => subscribed.has(session));
      await notifier('sendResourceListChanged', 'notifications/resources/list_changed')();
    },
    detach,
  };
}

function listMethods(methods: readonly string[]): string {
  return methods.length <= 2 ? methods.join(' and ') : `${methods.slice(0, -1).join(', ')} and ${methods.at(-1)}`;
}

function v1Schema(method: string): z.ZodType {
  return z.looseObject({ method: z.literal(method), params: z.any().optional() });
}

function isServerLike(value: unknown): value is ServerLike {
  return typeof value === 'object' && value !== null && typeof (value as ServerLike).setRequestHandler === 'function';
}
