import type { CLIENT_CAPABILITIES_META_KEY, ServerContext } from '@modelcontextprotocol/server';
import type { ProtocolEra, HandlerExtra } from '../protocol/types.js';
import { CallExtra, type ExtraBridge } from '../runtime/core/CallExtra.js';
import type { RequestStateSeal } from '../runtime/request-state/RequestStateSeal.js';
import type { RequestContext } from '../surface/types.js';

/** The part of an SDK server a request context reads. */
export interface ContextServer {
  notification?(notification: any): Promise<void>;
  getClientCapabilities?(): Record<string, unknown> | undefined;
}

/** The v1 SDK's handler `extra` (`RequestHandlerExtra` of @modelcontextprotocol/sdk), as far as it is read here. */
interface V1Extra {
  readonly sessionId?: string | undefined;
  readonly requestId: string | number;
  readonly authInfo?: unknown;
  readonly _meta?: Readonly<Record<string, unknown>> | undefined;
  readonly signal: AbortSignal;
  sendNotification(notification: unknown): Promise<void>;
}

/** The part of a v1 SDK server its bridge calls. */
interface V1Server extends ContextServer {
  sendLoggingMessage?(params: Record<string, unknown>, sessionId?: string): Promise<void>;
  elicitInput(params: Record<string, unknown>, options: { relatedRequestId: string | number }): Promise<unknown>;
  createMessage(params: Record<string, unknown>, options: { relatedRequestId: string | number }): Promise<unknown>;
}

/** How a v2 attachment's extras reach the SDK: `extra.raw` is the handler context (`ctx.mcpReq`, `ctx.http`). */
export function v2Bridge(low: ContextServer, seal: RequestStateSeal): ExtraBridge {
  const reqOf = (extra: CallExtra): ServerContext['mcpReq'] => (extra.raw as ServerContext).mcpReq;
  return {
    sessionId: (ctx: ServerContext) => ctx.sessionId,
    requestId: (ctx: ServerContext) => ctx.mcpReq.id,
    authInfo: (ctx: ServerContext) => ctx.http?.authInfo,
    meta: (ctx: ServerContext) => ctx.mcpReq._meta,
    inputResponses: (ctx: ServerContext) => ctx.mcpReq.inputResponses as Readonly<Record<string, unknown>> | undefined,
    requestSignal: (ctx: ServerContext) => ctx.mcpReq.signal,
    clientCapabilities: (extra) =>
      extra.era === 'modern'
        ? (envelopeOf(reqOf(extra))?.[CLIENT_CAPABILITIES] as Record<string, unknown> | undefined)
        : low.getClientCapabilities?.(),
    progress: (extra) => {
      const req = reqOf(extra);
      return progressSender(extra.meta?.progressToken, (n) => req.notify(n as never));
    },
    log: (extra) => {
      const req = reqOf(extra);
      return async (level, data, logger) => {
        try {
          await req.log(level as never, data, logger);
        } catch {
          // Logging is best effort.
        }
      };
    },
    elicit: (extra, params) =>
      clientRequest(low, extra.era === 'modern', 'elicitation', () => reqOf(extra).elicitInput(params as never)),
    sample: (extra, params) =>
      clientRequest(low, extra.era === 'modern', 'sampling', () => reqOf(extra).requestSampling(params as never)),
    sealState: (extra, payload) => seal.seal(payload, extra.target ?? String(reqOf(extra).method), extra.principal.key),
  };
}

/** The envelope key of the client's capabilities on a modern request (no SDK import at run time here). */
const CLIENT_CAPABILITIES: typeof CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';

/** A modern request's `_meta` envelope (typed `{}` by the SDK 2.4.0, read by its reserved keys). */
function envelopeOf(req: ServerContext['mcpReq']): Readonly<Record<string, unknown>> | undefined {
  return req.envelope as Readonly<Record<string, unknown>> | undefined;
}

/** The request context for a v2 handler context (`ctx.mcpReq`, `ctx.http`, `ctx.sessionId`). */
export function rctxV2(
  ctx: ServerContext,
  bridge: ExtraBridge,
  connectionId: string,
  era: ProtocolEra | undefined,
  target: string | undefined,
  state: unknown,
): RequestContext {
  const modern = era === 'modern' || (era === undefined && ctx.mcpReq.envelope !== undefined);
  const sessionKey = modern ? undefined : (ctx.sessionId ?? connectionId);
  return { sessionKey, extra: new CallExtra(bridge, modern ? 'modern' : 'legacy', sessionKey, state, ctx, target) };
}

/** Log levels from least to most severe (RFC 5424, as MCP names them). */
export const LOG_LEVELS: readonly string[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/**
 * How a v1 attachment's extras reach the SDK: `extra.raw` is the v1 handler `extra`; `levels` filters logs
 * when mcp-fusion answers `logging/setLevel`.
 */
export function v1Bridge(
  low: ContextServer,
  seal: RequestStateSeal,
  connectionId: string,
  levels: Map<string, string> | undefined,
): ExtraBridge {
  const server = low as V1Server;
  const rawOf = (extra: CallExtra): V1Extra => extra.raw as V1Extra;
  return {
    sessionId: (extra1: V1Extra) => extra1.sessionId,
    requestId: (extra1: V1Extra) => extra1.requestId,
    authInfo: (extra1: V1Extra) => extra1.authInfo,
    meta: (extra1: V1Extra) => extra1._meta,
    inputResponses: () => undefined,
    requestSignal: (extra1: V1Extra) => extra1.signal,
    clientCapabilities: () => server.getClientCapabilities?.(),
    progress: (extra) => {
      const extra1 = rawOf(extra);
      return progressSender(extra.meta?.progressToken, (n) => extra1.sendNotification(n));
    },
    log: (extra) => async (level, data, logger) => {
      const floor = levels?.get(extra.sessionId ?? connectionId);
      if (floor !== undefined && LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(floor)) return;
      try {
        await server.sendLoggingMessage?.(
          { level, data, ...(logger !== undefined ? { logger } : {}) },
          extra.sessionId,
        );
      } catch {
        // Logging is best effort.
      }
    },
    elicit: (extra, params) =>
      clientRequest(low, false, 'elicitation', () => server.elicitInput(params, { relatedRequestId: extra.requestId })),
    sample: (extra, params) =>
      clientRequest(low, false, 'sampling', () => server.createMessage(params, { relatedRequestId: extra.requestId })),
    sealState: (extra, payload) => seal.seal(payload, extra.target ?? '', extra.principal.key),
  };
}

/** The request context for a v1 handler `extra`. */
export function rctxV1(
  extra1: V1Extra,
  bridge: ExtraBridge,
  connectionId: string,
  target: string | undefined,
): RequestContext {
  const sessionKey = extra1.sessionId ?? connectionId;
  return { sessionKey, extra: new CallExtra(bridge, 'legacy', sessionKey, undefined, extra1, target) };
}

/**
 * A server→client request from a handler: refused with a clear error when the era has no such channel
 * or the client did not declare the capability, instead of a protocol failure on the wire.
 */
async function clientRequest(
  low: ContextServer,
  modern: boolean,
  capability: 'elicitation' | 'sampling',
  send: () => Promise<unknown>,
): Promise<Record<string, unknown>> {
  if (modern) {
    throw new Error(
      `${capability} requests cannot be pushed on a 2026-07-28 request; return inputRequired({ inputRequests: { … } }) from the handler instead (the client answers and calls again).`,
    );
  }
  const declared = low.getClientCapabilities?.();
  if (declared?.[capability] === undefined) {
    throw new Error(
      `The client did not declare the "${capability}" capability, so the server cannot ask it for ${capability === 'sampling' ? 'a model completion' : 'input'}; continue without it or ask the user to use a client that supports it.`,
    );
  }
  return (await send()) as Record<string, unknown>;
}

const noProgress = async (): Promise<void> => {};

function progressSender(token: unknown, send: (n: unknown) => Promise<void>): HandlerExtra['progress'] {
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
