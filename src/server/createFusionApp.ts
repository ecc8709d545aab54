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
import { buildServer } from './buildServer.js';
import { jsonRpcErrorResponse } from './httpErrors.js';
import { LegacySessions } from './LegacySessions.js';
import { readJsonBody } from './readJsonBody.js';
import type { HttpOptions } from './types.js';

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

/** A fetch-shaped MCP endpoint serving both protocol eras. */
export interface FusionApp {
  fetch(request: Request, options?: { authInfo?: unknown }): Promise<Response>;
  /** Live legacy sessions (servers in memory). */
  readonly sessions: LegacySessions;
  /** Stops accepting requests (503), drains running calls up to `drainMs`, then closes every session. */
  close(): Promise<void>;
}

/**
 * One HTTP endpoint for both eras: legacy requests go to a sessionful leg (one server per
 * `Mcp-Session-Id`, with a lifecycle), modern (2026-07-28) requests to the SDK's per-request handler.
 * Host, Origin, content type, body size and JSON syntax are checked first, on every path.
 * Mount it with `toNodeHandler(app)` or use {@link startServer}.
 */
export function createFusionApp<Ctx>(registry: ToolRegistry<Ctx>, options: HttpOptions<Ctx> = {}): FusionApp {
  const path = options.path ?? '/mcp';
  const hosts = options.allowedHosts ?? localhostAllowedHostnames();
  const origins = options.allowedOrigins ?? localhostAllowedOrigins();
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  let sessions: LegacySessions | undefined;
  const manager = new SessionManager({
    ...(options.sessionStore !== undefined ? { store: options.sessionStore } : {}),
    ...(options.sessionTimeouts !== undefined ? { timeouts: options.sessionTimeouts } : {}),
    ...(options.onSessionEvent !== undefined ? { onEvent: options.onSessionEvent } : {}),
    onRelease: (id) => sessions?.release(id),
  });
  // Without an explicit store, workflow state lives in the session record: it follows the session
  // through idle and resume, and goes away with it.
  const attach = options.fsm !== undefined && options.fsmStore === undefined ? { ...options, fsmStore: sessionFsmStore(manager), workflowStore: options.workflowStore ?? new MemoryFsmStore() } : options;
  const pipeline = registry.pipeline(attach);
  sessions = new LegacySessions(() => buildServer(pipeline, attach, 'legacy').server, manager);
  const legacy = sessions;
  const modern = createMcpHandler((ctx) => buildServer(pipeline, attach, ctx.era).server, { legacy: 'reject', maxRequestBodySize: limit });
  let closing = false;

  const fetch = async (request: Request, extra: { authInfo?: unknown } = {}): Promise<Response> => {
    if (closing) return jsonRpcErrorResponse(503, JsonRpcCode.InternalError, 'Service Unavailable: the server is shutting down; retry on another instance or later.', { 'Retry-After': '1' });
    const rejected = hostHeaderValidationResponse(request, hosts) ?? originValidationResponse(request, origins);
    if (rejected !== undefined) return rejected;
    if (new URL(request.url).pathname !== path) {
      return jsonRpcErrorResponse(404, JsonRpcCode.InvalidRequest, `Not Found: the MCP endpoint is ${path}.`);
    }
    let parsedBody: unknown;
    if (request.method === 'POST') {
      const read = await readJsonBody(request, limit);
      if ('response' in read) return read.response;
      parsedBody = read.body;
    } else if (request.method !== 'GET' && request.method !== 'DELETE') {
      return jsonRpcErrorResponse(405, JsonRpcCode.InvalidRequest, 'Method Not Allowed: use POST, GET or DELETE.', { Allow: 'POST, GET, DELETE' });
    }
    const authInfo = extra.authInfo;
    if (await isLegacyRequest(request, parsedBody)) return legacy.handle(request, parsedBody, authInfo);
    return modern.fetch(request, { parsedBody, ...(authInfo !== undefined ? { authInfo: authInfo as never } : {}) });
  };

  return {
    fetch,
    sessions: legacy,
    async close() {
      closing = true;
      await pipeline.drain(options.drainMs ?? 10_000);
      // Let the transports write the responses of the calls that just finished.
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      await legacy.closeAll();
      await modern.close();
    },
  };
}
