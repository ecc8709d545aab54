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
import { buildServer } from './buildServer.js';
import { jsonRpcErrorResponse } from './httpErrors.js';
import { LegacySessions } from './LegacySessions.js';
import { readJsonBody } from './readJsonBody.js';
import type { HttpOptions } from './types.js';

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

/** A fetch-shaped MCP endpoint serving both protocol eras. */
export interface FusionApp {
  fetch(request: Request, options?: { authInfo?: unknown }): Promise<Response>;
  /** Open legacy sessions. */
  readonly sessions: LegacySessions;
  close(): Promise<void>;
}

/**
 * One HTTP endpoint for both eras: legacy requests go to a sessionful leg (one server per
 * `Mcp-Session-Id`), modern (2026-07-28) requests to the SDK's per-request handler. Host, Origin,
 * content type, body size and JSON syntax are checked first, on every path.
 * Mount it with `toNodeHandler(app)` or use {@link startServer}.
 */
export function createFusionApp<Ctx>(registry: ToolRegistry<Ctx>, options: HttpOptions<Ctx> = {}): FusionApp {
  const pipeline = registry.pipeline(options);
  const path = options.path ?? '/mcp';
  const hosts = options.allowedHosts ?? localhostAllowedHostnames();
  const origins = options.allowedOrigins ?? localhostAllowedOrigins();
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const sessions = new LegacySessions(() => buildServer(pipeline, options, 'legacy').server);
  const modern = createMcpHandler((ctx) => buildServer(pipeline, options, ctx.era).server, { legacy: 'reject', maxRequestBodySize: limit });

  const fetch = async (request: Request, extra: { authInfo?: unknown } = {}): Promise<Response> => {
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
    if (await isLegacyRequest(request, parsedBody)) return sessions.handle(request, parsedBody, authInfo);
    return modern.fetch(request, { parsedBody, ...(authInfo !== undefined ? { authInfo: authInfo as never } : {}) });
  };

  return {
    fetch,
    sessions,
    async close() {
      await sessions.closeAll();
      await modern.close();
      pipeline.dispose();
    },
  };
}
