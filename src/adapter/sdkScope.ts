import type { ProtocolEra, ToolExtra } from '../protocol/types.js';
import { CallExtra } from '../runtime/CallExtra.js';
import type { RequestStateSeal } from '../runtime/RequestStateSeal.js';
import type { RequestScope } from '../surface/types.js';

/** The part of an SDK server a request scope reads. */
export interface ScopeServer {
  notification?(notification: unknown): Promise<void>;
}

/** The envelope key of the client's capabilities on a modern request. */
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

/** A v2 handler context's `extra`: the client-facing helpers are made on first read. */
class V2Extra extends CallExtra {
  readonly #req: any;
  readonly #low: ScopeServer;
  readonly #seal: RequestStateSeal;
  readonly #target: string | undefined;
  #progress: ToolExtra['progress'] | undefined;
  #log: ToolExtra['log'] | undefined;
  #elicit: ToolExtra['elicit'] | undefined;
  #sample: ToolExtra['sample'] | undefined;
  #sealState: ToolExtra['sealState'] | undefined;
  #capabilities: Readonly<Record<string, unknown>> | undefined | null = null;

  constructor(ctx: any, req: any, low: ScopeServer, modern: boolean, stateKey: string | undefined, seal: RequestStateSeal, target: string | undefined, state: unknown) {
    super(modern ? 'modern' : 'legacy', ctx?.sessionId, stateKey, req.id, ctx?.http?.authInfo, req._meta, req.inputResponses, state, ctx, req.signal);
    this.#req = req;
    this.#low = low;
    this.#seal = seal;
    this.#target = target;
  }

  get clientCapabilities(): Readonly<Record<string, unknown>> | undefined {
    if (this.#capabilities === null) {
      this.#capabilities = this.era === 'modern' ? this.#req.envelope?.[CLIENT_CAPABILITIES] : (this.#low as { getClientCapabilities?: () => Record<string, unknown> | undefined }).getClientCapabilities?.();
    }
    return this.#capabilities ?? undefined;
  }

  get progress(): ToolExtra['progress'] {
    const req = this.#req;
    return (this.#progress ??= progressSender(this.meta?.progressToken, (n) => req.notify(n)));
  }

  get log(): ToolExtra['log'] {
    const req = this.#req;
    return (this.#log ??= async (level, data, logger) => {
      try {
        await req.log?.(level, data, logger);
      } catch {
        // Logging is best effort.
      }
    });
  }

  get elicit(): ToolExtra['elicit'] {
    const req = this.#req;
    return (this.#elicit ??= (params) => clientRequest(this.#low, this.era === 'modern', 'elicitation', () => req.elicitInput(params)));
  }

  get sample(): ToolExtra['sample'] {
    const req = this.#req;
    return (this.#sample ??= (params) => clientRequest(this.#low, this.era === 'modern', 'sampling', () => req.requestSampling(params)));
  }

  get sealState(): ToolExtra['sealState'] {
    return (this.#sealState ??= (payload) => this.#seal.seal(payload, this.#target ?? String(this.#req.method), this.principal.key));
  }
}

/** The framework's request scope for a v2 handler context (`ctx.mcpReq`, `ctx.http`, `ctx.sessionId`). */
export function scopeV2(ctx: any, low: ScopeServer, connectionId: string, era: ProtocolEra | undefined, seal: RequestStateSeal, target: string | undefined, state: unknown): RequestScope {
  const req = ctx?.mcpReq ?? {};
  const modern = era === 'modern' || (era === undefined && req.envelope !== undefined);
  const stateKey = modern ? undefined : (ctx?.sessionId ?? connectionId);
  return { stateKey, extra: new V2Extra(ctx, req, low, modern, stateKey, seal, target, state) };
}

/** Log levels from least to most severe (RFC 5424, as MCP names them). */
export const LOG_LEVELS: readonly string[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** A v1 handler `extra`'s framework extra: the client-facing helpers are made on first read. */
class V1Extra extends CallExtra {
  readonly #extra: any;
  readonly #low: ScopeServer;
  readonly #seal: RequestStateSeal;
  readonly #target: string | undefined;
  readonly #levels: Map<string, string> | undefined;
  readonly #connectionId: string;
  #progress: ToolExtra['progress'] | undefined;
  #log: ToolExtra['log'] | undefined;
  #elicit: ToolExtra['elicit'] | undefined;
  #sample: ToolExtra['sample'] | undefined;
  #sealState: ToolExtra['sealState'] | undefined;

  constructor(extra1: any, low: ScopeServer, connectionId: string, seal: RequestStateSeal, target: string | undefined, levels: Map<string, string> | undefined) {
    super('legacy', extra1?.sessionId, extra1?.sessionId ?? connectionId, extra1?.requestId, extra1?.authInfo, extra1?._meta, undefined, undefined, extra1, extra1?.signal);
    this.#extra = extra1;
    this.#low = low;
    this.#seal = seal;
    this.#target = target;
    this.#levels = levels;
    this.#connectionId = connectionId;
  }

  get clientCapabilities(): Readonly<Record<string, unknown>> | undefined {
    return (this.#low as any).getClientCapabilities?.();
  }

  get progress(): ToolExtra['progress'] {
    const extra1 = this.#extra;
    return (this.#progress ??= progressSender(this.meta?.progressToken, (n) => extra1.sendNotification(n)));
  }

  get log(): ToolExtra['log'] {
    const extra1 = this.#extra;
    const server = this.#low as any;
    return (this.#log ??= async (level, data, logger) => {
      const floor = this.#levels?.get(extra1?.sessionId ?? this.#connectionId);
      if (floor !== undefined && LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(floor)) return;
      try {
        await server.sendLoggingMessage?.({ level, data, ...(logger !== undefined ? { logger } : {}) }, extra1?.sessionId);
      } catch {
        // Logging is best effort.
      }
    });
  }

  get elicit(): ToolExtra['elicit'] {
    const server = this.#low as any;
    return (this.#elicit ??= (params) => clientRequest(this.#low, false, 'elicitation', () => server.elicitInput(params, { relatedRequestId: this.requestId })));
  }

  get sample(): ToolExtra['sample'] {
    const server = this.#low as any;
    return (this.#sample ??= (params) => clientRequest(this.#low, false, 'sampling', () => server.createMessage(params, { relatedRequestId: this.requestId })));
  }

  get sealState(): ToolExtra['sealState'] {
    return (this.#sealState ??= (payload) => this.#seal.seal(payload, this.#target ?? '', this.principal.key));
  }
}

/** The framework's request scope for a v1 handler `extra`; `levels` filters logs when mcp-fusion answers `logging/setLevel`. */
export function scopeV1(extra1: any, low: ScopeServer, connectionId: string, seal: RequestStateSeal, target: string | undefined, levels: Map<string, string> | undefined): RequestScope {
  return { stateKey: extra1?.sessionId ?? connectionId, extra: new V1Extra(extra1, low, connectionId, seal, target, levels) };
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
