import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ProtocolEra, ToolExtra } from '../builder/types.js';
import { AttachError } from '../errors/FusionError.js';
import { capabilitiesFor } from './capabilitiesFor.js';
import { contentHandlers, type MethodHandler } from './contentHandlers.js';
import { contentOf } from './contentLink.js';
import { yieldsResourcesTo } from './systemResources.js';
import { featuresOf } from './features.js';
import type { RequestStateSeal } from './RequestStateSeal.js';
import { requestPrincipal } from '../principal/requestPrincipal.js';
import type { RequestPipeline } from './RequestPipeline.js';
import type { RequestScope } from './types.js';

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
export function resolveServer(server: unknown): { low: ServerLike; sdk: 'v1' | 'v2' } {
  const candidate = (server as { server?: unknown } | null)?.server;
  const low = isServerLike(candidate) ? candidate : isServerLike(server) ? server : undefined;
  if (low === undefined) {
    throw new AttachError(
      'ATTACH_SERVER',
      'attachToServer() needs an MCP SDK server: a `McpServer` or low-level `Server` from @modelcontextprotocol/server (v2) or @modelcontextprotocol/sdk (v1). The value given has no setRequestHandler().',
    );
  }
  return { low, sdk: typeof low.projectCallToolResult === 'function' ? 'v2' : 'v1' };
}

/**
 * Installs `tools/list` and `tools/call` on a server over a prebuilt pipeline, plus the prompt and
 * resource methods when its registry has any, and declares exactly those capabilities. Cheap by
 * design: the modern era builds one server per request.
 */
export function attachPipeline<Ctx>(server: unknown, pipeline: RequestPipeline<Ctx>, era?: ProtocolEra): Attachment {
  const { low, sdk } = resolveServer(server);
  const content = yieldsResourcesTo(pipeline, low) ? undefined : contentOf(pipeline);
  const features = featuresOf(pipeline);
  try {
    low.registerCapabilities?.({ ...capabilitiesFor(pipeline) });
  } catch (error) {
    throw new AttachError('ATTACH_CONNECTED', `attachToServer() must run before server.connect(): the server refused to add its capabilities (${(error as Error).message}).`);
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
  const untraced = sdk === 'v2'
    ? (ctx: any, target?: string, state?: unknown) => scopeV2(ctx, low, connectionId, era, seal, target, state)
    : (extra: any, target?: string) => scopeV1(extra, low, connectionId, seal, target);
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
  const subscriptions = era === 'modern' || content === undefined ? undefined : features.subscriptions;
  const subscribed = new Set<string>();
  const sendToClient = async (notification: unknown): Promise<void> => {
    await low.notification?.(notification);
  };
  const track = (scope: RequestScope): RequestScope => {
    if (scope.stateKey !== undefined && pipeline.gated && !keys.has(scope.stateKey)) {
      keys.add(scope.stateKey);
      pipeline.registerSession(scope.stateKey, notify);
    }
    return scope;
  };
  const handlers: Array<readonly [string, MethodHandler]> = [
    ['tools/list', (_request, ctx) => pipeline.listTools(track(scopeOf(ctx)))],
    [
      'tools/call',
      (request: { params: { name: string; arguments?: Record<string, unknown> } }, ctx) => {
        const scope = scopeFor(ctx, `tools/call:${request.params.name}`);
        const call = (s: RequestScope) => pipeline.callTool(request.params.name, request.params.arguments, track(s));
        return scope instanceof Promise ? scope.then(call) : call(scope);
      },
    ],
    ...(content === undefined
      ? []
      : contentHandlers(content, (ctx, target) => {
          if (target === undefined) return scopeOf(ctx).extra;
          const scope = scopeFor(ctx, target);
          return scope instanceof Promise ? scope.then((s) => s.extra) : scope.extra;
        })),
    ...(subscriptions === undefined
      ? []
      : ([
          [
            'resources/subscribe',
            (request: { params?: { uri?: unknown } }, ctx: unknown) => {
              const key = scopeOf(ctx).stateKey ?? connectionId;
              subscriptions.subscribe(key, request?.params?.uri, sendToClient);
              subscribed.add(key);
              return {};
            },
          ],
          [
            'resources/unsubscribe',
            (request: { params?: { uri?: unknown } }, ctx: unknown) => {
              subscriptions.unsubscribe(scopeOf(ctx).stateKey ?? connectionId, request?.params?.uri);
              return {};
            },
          ],
        ] as const)),
  ];
  try {
    for (const [method] of handlers) low.assertCanSetRequestHandler?.(method);
    for (const [method, handler] of handlers) low.setRequestHandler(sdk === 'v2' ? method : v1Schema(method), tracing === undefined ? handler : tracing.wrap(method, handler, negotiated));
  } catch (error) {
    const extra = content === undefined ? '' : ', prompt and resource';
    throw new AttachError(
      'ATTACH_HANDLERS',
      `attachToServer() could not install ${listMethods(handlers.map(([m]) => m))} (${(error as Error).message}). mcp-fusion must own the tools of a server${content === undefined ? '' : ' and the prompts and resources it declares'}: register every tool${extra} with the registry instead of McpServer.registerTool()${content === undefined ? '' : ', registerPrompt() or registerResource()'}.`,
    );
  }
  // Run-time enable/disable of tools reaches this server's client (legacy sessions, stdio, in-memory);
  // per-request modern servers cannot notify, the HTTP app tells their listen streams instead.
  const stopWatching = era === 'modern' ? undefined : pipeline.onToolsChanged(() => void notify());
  const endSession = tracing === undefined || era === 'modern' ? undefined : tracing.startSession(negotiated);
  const detach = (): void => {
    endSession?.();
    stopWatching?.();
    for (const key of keys) pipeline.releaseSession(key);
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

/** The envelope key of the client's capabilities on a modern request. */
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

function scopeV2(ctx: any, low: ServerLike, connectionId: string, era: ProtocolEra | undefined, seal: RequestStateSeal, target: string | undefined, state: unknown): RequestScope {
  const req = ctx?.mcpReq ?? {};
  const modern = era === 'modern' || (era === undefined && req.envelope !== undefined);
  const meta = req._meta as Record<string, unknown> | undefined;
  const token = meta?.progressToken;
  const extra: ToolExtra = {
    signal: req.signal ?? new AbortController().signal,
    sessionId: ctx?.sessionId,
    era: modern ? 'modern' : 'legacy',
    requestId: req.id,
    authInfo: ctx?.http?.authInfo,
    meta,
    clientCapabilities: modern ? req.envelope?.[CLIENT_CAPABILITIES] : (low as { getClientCapabilities?: () => Record<string, unknown> | undefined }).getClientCapabilities?.(),
    progress: progressSender(token, (n) => req.notify(n)),
    log: async (level, data, logger) => {
      try {
        await req.log?.(level, data, logger);
      } catch {
        // Logging is best effort.
      }
    },
    elicit: (params) => clientRequest(low, modern, 'elicitation', () => req.elicitInput(params)),
    sample: (params) => clientRequest(low, modern, 'sampling', () => req.requestSampling(params)),
    inputResponses: req.inputResponses,
    requestState: state,
    sealState: (payload) => seal.seal(payload, target ?? String(req.method), requestPrincipal(scope).key),
    raw: ctx,
  };
  const scope: RequestScope = { stateKey: modern ? undefined : (ctx?.sessionId ?? connectionId), extra };
  return scope;
}

function scopeV1(extra1: any, low: ServerLike, connectionId: string, seal: RequestStateSeal, target: string | undefined): RequestScope {
  const meta = extra1?._meta as Record<string, unknown> | undefined;
  const server = low as any;
  const extra: ToolExtra = {
    signal: extra1?.signal ?? new AbortController().signal,
    sessionId: extra1?.sessionId,
    era: 'legacy',
    requestId: extra1?.requestId,
    authInfo: extra1?.authInfo,
    meta,
    clientCapabilities: server.getClientCapabilities?.(),
    progress: progressSender(meta?.progressToken, (n) => extra1.sendNotification(n)),
    log: async (level, data, logger) => {
      try {
        await server.sendLoggingMessage?.({ level, data, ...(logger !== undefined ? { logger } : {}) }, extra1?.sessionId);
      } catch {
        // Logging is best effort.
      }
    },
    elicit: (params) => clientRequest(low, false, 'elicitation', () => server.elicitInput(params, { relatedRequestId: extra1?.requestId })),
    sample: (params) => clientRequest(low, false, 'sampling', () => server.createMessage(params, { relatedRequestId: extra1?.requestId })),
    inputResponses: undefined,
    requestState: undefined,
    sealState: (payload) => seal.seal(payload, target ?? '', requestPrincipal(scope).key),
    raw: extra1,
  };
  const scope: RequestScope = { stateKey: extra1?.sessionId ?? connectionId, extra };
  return scope;
}

/**
 * A server→client request from a handler: refused with a clear error when the era has no such channel
 * or the client did not declare the capability, instead of a protocol failure on the wire.
 */
async function clientRequest(low: ServerLike, modern: boolean, capability: 'elicitation' | 'sampling', send: () => Promise<any>): Promise<Record<string, unknown>> {
  if (modern) {
    throw new Error(`${capability} requests cannot be pushed on a 2026-07-28 request; return inputRequired({ inputRequests: { … } }) from the handler instead (the client answers and calls again).`);
  }
  const declared = (low as { getClientCapabilities?: () => Record<string, unknown> | undefined }).getClientCapabilities?.();
  if (declared?.[capability] === undefined) {
    throw new Error(`The client did not declare the "${capability}" capability, so the server cannot ask it for ${capability === 'sampling' ? 'a model completion' : 'input'}; continue without it or ask the user to use a client that supports it.`);
  }
  return (await send()) as Record<string, unknown>;
}

const noProgress = async (): Promise<void> => {};

function progressSender(token: unknown, send: (n: unknown) => Promise<void>): ToolExtra['progress'] {
  if (typeof token !== 'string' && typeof token !== 'number') return noProgress;
  return async (progress, total, message) => {
    const params: Record<string, unknown> = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    try {
      await send({ method: 'notifications/progress', params });
    } catch {
      // Progress is best effort: a closed stream must not fail the tool.
    }
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
