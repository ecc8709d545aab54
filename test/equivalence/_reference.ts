// The plain official SDK serving a registry's tools: what mcp-fusion's fast paths must answer like.
import { randomUUID } from 'node:crypto';
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { FusionRuntime } from '../../src/runtime/FusionRuntime.js';
import { buildServer } from '../../src/server/buildServer.js';

/** A fetch-shaped server; `close` ends its sessions. */
export interface Served {
  fetch(request: Request): Promise<Response>;
  close(): Promise<void>;
}

async function bodyOf(request: Request): Promise<unknown> {
  try {
    return (await request.clone().json()) as unknown;
  } catch {
    return undefined;
  }
}

/** The JSON-RPC error body of a refusal the SDK leaves to the application (the routing of sessions). */
function refusal(status: number, code: number, message: string): Response {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  return new Response(body, { status, headers: { 'content-type': 'application/json' } });
}

/**
 * The SDK alone, routed as its documentation routes both eras (`examples/legacy-routing`): `isLegacyRequest`
 * picks the era; legacy requests go to one `WebStandardStreamableHTTPServerTransport` and one server per
 * `Mcp-Session-Id` (an `initialize` without one opens a session; an unknown id is 404 `-32001`; anything
 * else 400), modern requests to `createMcpHandler`. Each server is the registry's, built as mcp-fusion
 * builds it (`buildServer`), so both sides serve the same tools and differ only in the fast paths.
 */
export function sdkReference<Ctx>(runtime: FusionRuntime<Ctx>, maxRequestBodySize: number): Served {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const modern = createMcpHandler(() => buildServer(runtime, {}, 'modern').instance, {
    legacy: 'reject',
    maxRequestBodySize,
  });
  const legacy = async (request: Request): Promise<Response> => {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const transport = sessions.get(id);
      if (transport === undefined) return refusal(404, -32001, 'Session not found');
      return transport.handleRequest(request);
    }
    if (request.method === 'POST' && isInitializeRequest(await bodyOf(request))) {
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void sessions.set(sid, transport),
        onsessionclosed: (sid) => void sessions.delete(sid),
      });
      await buildServer(runtime, {}, 'legacy').server.connect(transport);
      return transport.handleRequest(request);
    }
    return refusal(400, -32600, 'Bad Request: no valid session');
  };
  return {
    // Each part reads the body itself, as the SDK's entry does when no host parsed it.
    fetch: async (request) => ((await isLegacyRequest(request)) ? legacy(request) : modern.fetch(request)),
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      await modern.close();
    },
  };
}
