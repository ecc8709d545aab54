import { randomUUID } from 'node:crypto';
import { isInitializeRequest, WebStandardStreamableHTTPServerTransport, type Server } from '@modelcontextprotocol/server';
import { JsonRpcCode } from '../errors/WireError.js';
import { jsonRpcErrorResponse } from './httpErrors.js';

/** One live legacy session: its own server and transport. */
interface LiveSession {
  readonly server: Server;
  readonly transport: WebStandardStreamableHTTPServerTransport;
}

/**
 * The sessionful legacy leg (revisions up to 2025-11-25): one low-level server and one transport per
 * `Mcp-Session-Id`. An unknown id gets 404; a request without one that is not `initialize` gets 400.
 */
export class LegacySessions {
  readonly #live = new Map<string, LiveSession>();
  readonly #create: () => Server;
  readonly #hosts: string[] | undefined;

  constructor(create: () => Server, options: { allowedHosts?: string[] } = {}) {
    this.#create = create;
    this.#hosts = options.allowedHosts;
  }

  /** Number of open sessions. */
  get size(): number {
    return this.#live.size;
  }

  has(id: string): boolean {
    return this.#live.has(id);
  }

  /** Serves one legacy HTTP request (POST with a parsed body, GET or DELETE). */
  async handle(request: Request, parsedBody: unknown, authInfo: unknown): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    const options = { parsedBody, ...(authInfo !== undefined ? { authInfo: authInfo as never } : {}) };
    if (id !== null) {
      const live = this.#live.get(id);
      if (live === undefined) return jsonRpcErrorResponse(404, JsonRpcCode.SessionNotFound, 'Session not found: it expired or was closed. Start a new session with initialize.');
      return live.transport.handleRequest(request, options);
    }
    if (request.method === 'POST' && isInitializeRequest(parsedBody)) return this.#open(request, options);
    return jsonRpcErrorResponse(400, JsonRpcCode.InvalidRequest, 'Bad Request: no valid Mcp-Session-Id header. Send initialize first (without a session id) and repeat the Mcp-Session-Id it returns on every request.');
  }

  async #open(request: Request, options: { parsedBody: unknown }): Promise<Response> {
    const server = this.#create();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        this.#live.set(sid, { server, transport });
      },
      onsessionclosed: (sid) => {
        this.#close(sid);
      },
      ...(this.#hosts !== undefined ? { allowedHosts: this.#hosts } : {}),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.#live.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(request, options);
  }

  #close(id: string): void {
    const live = this.#live.get(id);
    if (live === undefined) return;
    this.#live.delete(id);
    void live.server.close().catch(() => {});
  }

  /** Closes every session. */
  async closeAll(): Promise<void> {
    const all = [...this.#live.values()];
    this.#live.clear();
    await Promise.allSettled(all.map((s) => s.server.close()));
  }
}
