import type { ProtocolEra, ToolExtra } from '../builder/types.js';
import { requestPrincipal } from '../principal/requestPrincipal.js';
import type { Principal } from '../principal/types.js';
import type { RequestStateSeal } from './RequestStateSeal.js';
import type { RequestScope } from './types.js';

/** The part of an SDK server a request scope reads. */
export interface ScopeServer {
  notification?(notification: unknown): Promise<void>;
}

/** The envelope key of the client's capabilities on a modern request. */
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

/** The framework's request scope for a v2 handler context (`ctx.mcpReq`, `ctx.http`, `ctx.sessionId`). */
export function scopeV2(ctx: any, low: ScopeServer, connectionId: string, era: ProtocolEra | undefined, seal: RequestStateSeal, target: string | undefined, state: unknown): RequestScope {
  const req = ctx?.mcpReq ?? {};
  let principal: Principal | undefined;
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
    get principal() {
      return (principal ??= requestPrincipal(scope));
    },
  };
  const scope: RequestScope = { stateKey: modern ? undefined : (ctx?.sessionId ?? connectionId), extra };
  return scope;
}

/** Log levels from least to most severe (RFC 5424, as MCP names them). */
export const LOG_LEVELS: readonly string[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** The framework's request scope for a v1 handler `extra`; `levels` filters logs when mcp-fusion answers `logging/setLevel`. */
export function scopeV1(extra1: any, low: ScopeServer, connectionId: string, seal: RequestStateSeal, target: string | undefined, levels: Map<string, string> | undefined): RequestScope {
  const meta = extra1?._meta as Record<string, unknown> | undefined;
  const server = low as any;
  let principal: Principal | undefined;
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
      const floor = levels?.get(extra1?.sessionId ?? connectionId);
      if (floor !== undefined && LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(floor)) return;
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
    get principal() {
      return (principal ??= requestPrincipal(scope));
    },
  };
  const scope: RequestScope = { stateKey: extra1?.sessionId ?? connectionId, extra };
  return scope;
}

/**
 * A server→client request from a handler: refused with a clear error when the era has no such channel
 * or the client did not declare the capability, instead of a protocol failure on the wire.
 */
async function clientRequest(low: ScopeServer, modern: boolean, capability: 'elicitation' | 'sampling', send: () => Promise<any>): Promise<Record<string, unknown>> {
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
