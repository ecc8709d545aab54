import { randomUUID } from 'node:crypto';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { ProtocolEra } from '../protocol/types.js';
import type { MethodHandler } from './contentHandlers.js';
import type { Member, ServedNames } from './composeServer.js';
import { rctxV1, rctxV2, v1Bridge, v2Bridge } from './sdkRequestContext.js';
import type { FusionRuntime } from '../runtime/FusionRuntime.js';
import type { RequestContext } from '../surface/types.js';
import type { SessionNotification } from '../session/SessionBus.js';
import { announceSubscription } from '../session/subscriptionMoves.js';
import { ledgerHolder } from '../principal/ledgerHolder.js';
import { requestPrincipal } from '../principal/requestPrincipal.js';
import { taskDispatch } from './installTasks.js';
import { methodList } from './methods/methodList.js';
import type { MethodDefinition, MethodWire, ParamsSchema } from './methods/MethodDefinition.js';
import { OperatorLog } from '../logging/OperatorLog.js';
import { reservedTicket } from '../runtime/frontNotes.js';
import { logFailures } from './logFailures.js';
import type { Attachment } from './attach.js';

/** The part of an SDK server (v2 `Server`, or v1 `Server`) a runtime's handlers talk to. */
export interface WiredServer {
  setRequestHandler(method: any, schemasOrHandler: any, handler?: any): void;
  sendToolListChanged?(): Promise<void>;
  sendPromptListChanged?(): Promise<void>;
  sendResourceListChanged?(): Promise<void>;
  notification?(notification: any): Promise<void>;
  getClientCapabilities?(): Record<string, unknown> | undefined;
  getNegotiatedProtocolVersion?(): string | undefined;
}

/** A method installed on the server as it is, never composed (a task method), with its params schema if any. */
export interface AloneMethod {
  readonly method: string;
  readonly handler: MethodHandler;
  readonly schema: ParamsSchema | undefined;
}

/**
 * A runtime wired for one server: the handlers to install (as a composition member, and `alone`, as they
 * are) and the attachment.
 */
export interface Wiring {
  readonly member: Member;
  readonly alone: readonly AloneMethod[];
  readonly negotiated: () => string | undefined;
  readonly attachment: Attachment;
}

/** Options of {@link wireRuntime}. */
export interface WireOptions {
  /** True when the runtime's v1-only `logging/setLevel` answer is needed (a v1 server without the handler). */
  readonly v1Levels?: boolean;
  /** Runs on the SDK context of every request before the runtime reads it (the modern dispatcher's id mapping). */
  readonly adopt?: ((ctx: ServerContext) => void) | undefined;
}

/**
 * The request handlers of `runtime` for one server of SDK line `sdk` in `era`, and what the attachment does
 * (notify its clients, end its per-session state). Nothing here reads SDK internals: installing the handlers
 * (directly on mcp-fusion's own server, composed on a user's) is the caller's.
 */
export function wireRuntime<Ctx>(
  low: WiredServer,
  sdk: 'v1' | 'v2',
  runtime: FusionRuntime<Ctx>,
  era: ProtocolEra | undefined,
  options: WireOptions = {},
): Wiring {
  const toolRuntime = runtime.tools;
  const { content, features } = runtime;
  const tasks = sdk === 'v2' ? runtime.tasks : undefined;
  const connectionId = randomUUID();
  const keys = new Set<string>();
  const notifier =
    (send: 'sendToolListChanged' | 'sendPromptListChanged' | 'sendResourceListChanged', method: string) =>
    async (): Promise<void> => {
      try {
        if (low[send] !== undefined) await low[send]!();
        else await low.notification?.({ method });
      } catch {
        // The connection is gone; nothing to notify.
      }
    };
  const notify = notifier('sendToolListChanged', 'notifications/tools/list_changed');
  const seal = features.requestState;
  const v1Levels = options.v1Levels === true ? new Map<string, string>() : undefined;
  const bridge = sdk === 'v2' ? v2Bridge(low, seal) : v1Bridge(low, seal, connectionId, v1Levels);
  const untraced =
    sdk === 'v2'
      ? (ctx: any, target?: string, state?: unknown) => rctxV2(ctx, bridge, connectionId, era, target, state)
      : (extra: any, target?: string) => rctxV1(extra, bridge, connectionId, target);
  // Tracing is decided once here: without it the handlers and request contexts are untraced.
  const tracing = features.tracing;
  const rctxOf =
    tracing === undefined
      ? untraced
      : (ctx: any, target?: string, state?: unknown): RequestContext => ({
          ...untraced(ctx, target, state),
          trace: tracing.traceOf(ctx),
        });
  const negotiated = (): string | undefined => low.getNegotiatedProtocolVersion?.();
  // Multi-round-trip requests (tools/call, prompts/get, resources/read): an echoed requestState is opened
  // (verified for this target and caller) before anything runs; a first round stays synchronous.
  const rctxFor = (ctx: any, target: string): RequestContext | Promise<RequestContext> => {
    const raw = typeof ctx?.mcpReq?.requestState === 'function' ? ctx.mcpReq.requestState() : undefined;
    if (typeof raw !== 'string') return rctxOf(ctx, target, raw);
    const source = rctxOf(ctx);
    const opened = seal.open(raw, target, requestPrincipal(source).key, ledgerHolder(source));
    return opened.then((state) => rctxOf(ctx, target, state));
  };
  const { adopt } = options;
  const taskSetup = tasks === undefined ? undefined : taskDispatch(low, tasks, era);
  const subscriptions = era === 'modern' || content === undefined ? undefined : features.subscriptions;
  const subscribed = new Set<string>();
  // Skills (SEP-2640) ride on the v2 SDK line only.
  const skills = sdk === 'v2' ? runtime.skills : undefined;
  const sendToClient = async (notification: unknown): Promise<void> => {
    await low.notification?.(notification);
  };
  // With a session bus, a subscriber's update goes to the instance holding its session's GET stream.
  const bus = runtime.options.sessionBus;
  const wire: MethodWire = {
    runtime,
    sdk,
    era,
    connectionId,
    rctxOf,
    contextOf: (ctx, target) => (target === undefined ? rctxOf(ctx) : rctxFor(ctx, target)),
    track: (rctx) => {
      if (rctx.sessionKey !== undefined && toolRuntime.gated && !keys.has(rctx.sessionKey)) {
        keys.add(rctx.sessionKey);
        runtime.registerSession(rctx.sessionKey, notify);
      }
      return rctx;
    },
    tasks,
    taskDispatch: taskSetup?.dispatch,
    skills,
    v1Levels,
    subscriptions,
    subscribed,
    sendToClient,
    sendToSession: (key) =>
      bus === undefined ? sendToClient : async (n: unknown) => bus.publish(key, n as SessionNotification),
    announceSubscription: (key, uri) => {
      if (bus !== undefined && subscriptions !== undefined) announceSubscription(bus, subscriptions, key, uri);
    },
  };
  // The one wrapper every method goes through: the request context's adoption, its count in flight (drain
  // waits for it), its span (when tracing), its failures logged (with the method, session and principal).
  const log = OperatorLog.of(runtime.options);
  const { tracker } = runtime;
  const served = ({ method, logsFailures }: MethodDefinition, handler: MethodHandler): MethodHandler => {
    // Counted while it runs: on the ticket the HTTP front reserved for this message (adopted), else a new one.
    const counted: MethodHandler = (request, ctx) =>
      tracker.track(method, (ticket) => handler(request, ctx, ticket), reservedTicket(ctx));
    const bounded = logsFailures === true ? counted : logFailures(method, counted, rctxOf, log);
    const traced = tracing === undefined ? bounded : tracing.wrap(method, bounded, negotiated);
    return adopt === undefined ? traced : (request, ctx) => (adopt(ctx as ServerContext), traced(request, ctx));
  };
  const handlers = new Map<string, MethodHandler>();
  const alone: AloneMethod[] = [];
  for (const definition of methodList) {
    if (!definition.needs(wire)) continue;
    const handler = served(definition, definition.handler(wire));
    if (definition.alone === undefined) handlers.set(definition.method, handler);
    else {
      const { schema, installedAs } = definition.alone(wire);
      alone.push({ method: installedAs ?? definition.method, handler, schema });
    }
  }
  const { prompts, templates, names } = servedBy(runtime);
  const ownsUri = (uri: unknown): boolean =>
    typeof uri === 'string' &&
    (content?.hasResource(uri) === true || (skills !== undefined && uri.startsWith('skill://')));
  const member: Member = {
    handlers,
    get names() {
      return names();
    },
    owns(method, request) {
      const params = request?.params;
      if (method === 'tools/call') return toolRuntime.surface.routes.has(params?.name);
      if (method === 'prompts/get') return prompts.has(params?.name);
      if (method === 'completion/complete')
        return params?.ref?.type === 'ref/prompt'
          ? prompts.has(params.ref.name)
          : templates.has(params?.ref?.uri) || ownsUri(params?.ref?.uri);
      return ownsUri(params?.uri);
    },
    visibleTools: (ctx) => toolRuntime.visibleToolNames(rctxOf(ctx)),
  };
  // Run-time enable/disable of tools reaches this server's client (legacy sessions, stdio, in-memory);
  // modern servers cannot notify, the HTTP app tells their listen streams instead.
  const stopWatching = era === 'modern' ? undefined : toolRuntime.onToolsChanged(() => void notify());
  // A switch that changes a skill's text: its files are resources, so the resource list changed (as the SDK's
  // skill catalog announces its reloads); the client's next skills/list has the new digests.
  const stopSkills = era === 'modern' ? undefined : skills?.onChange(() => void attachment.notifyResourceListChanged());
  const endSession = tracing === undefined || era === 'modern' ? undefined : tracing.startSession(negotiated);
  const detach = (): void => {
    endSession?.();
    taskSetup?.stop();
    stopWatching?.();
    stopSkills?.();
    for (const key of keys) runtime.releaseSession(key);
    keys.clear();
    for (const key of subscribed) subscriptions?.release(key);
    subscribed.clear();
  };
  const attachment: Attachment = {
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
  return { member, alone, negotiated, attachment };
}

/** What a runtime serves, by name: the same for every server it is attached to, so computed once per runtime. */
interface Served {
  readonly prompts: ReadonlySet<string>;
  readonly templates: ReadonlySet<string>;
  /** The names for composition with a user's server (made when first asked for). */
  readonly names: () => ServedNames;
}

const servedByRuntime = new WeakMap<FusionRuntime<any>, Served>();

function servedBy(runtime: FusionRuntime<any>): Served {
  let served = servedByRuntime.get(runtime);
  if (served === undefined) {
    const { content, tools } = runtime;
    const prompts = new Set(content?.hasPrompts === true ? content.listPrompts().prompts.map((p) => p.name) : []);
    const templates = new Set(
      content?.hasResources === true ? content.listResourceTemplates().resourceTemplates.map((t) => t.uriTemplate) : [],
    );
    let names: ServedNames | undefined;
    const list = (): ServedNames =>
      (names ??= {
        tools: [...tools.surface.routes.keys()],
        prompts: [...prompts],
        resources: content?.hasResources === true ? content.resourceUris : [],
        templates: [...templates],
      });
    served = { prompts, templates, names: list };
    servedByRuntime.set(runtime, served);
  }
  return served;
}
