import { randomUUID } from 'node:crypto';
import { isInitializeRequest, WebStandardStreamableHTTPServerTransport, type Server } from '@modelcontextprotocol/server';
import { JsonRpcCode } from '../errors/WireError.js';
import type { SessionBus, SessionNotification } from '../session/SessionBus.js';
import type { SessionManager } from '../session/SessionManager.js';
import type { SessionRecord } from '../session/types.js';
import { jsonRpcErrorResponse } from './httpErrors.js';

/** One live legacy session: its own server and transport. */
interface LiveSession {
  readonly server: Server;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** Ends the session bus's watch of this session (set once it is live here). */
  unwatch: () => void;
}

const HANDSHAKE = new Set(['initialize', 'notifications/initialized']);
/** Session-bus control message (never sent to a client): the session ended on another instance. */
const SESSION_ENDED = 'fusion/session-ended';

/**
 * The sessionful legacy leg (revisions up to 2025-11-25): one low-level server and one transport per
 * `Mcp-Session-Id`, driven by a {@link SessionManager}. A session that is not live here (idle, or opened
 * on another process or before a restart) is restored from the store by replaying its `initialize`.
 */
export class LegacySessions {
  readonly #live = new Map<string, LiveSession>();
  readonly #restoring = new Map<string, Promise<LiveSession | undefined>>();
  readonly #create: () => Server;
  readonly #bus: SessionBus | undefined;
  readonly manager: SessionManager;

  constructor(create: () => Server, manager: SessionManager, options: { sessionBus?: SessionBus | undefined } = {}) {
    this.#create = create;
    this.manager = manager;
    this.#bus = options.sessionBus;
  }

  /** Sessions whose server is in memory. */
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
      let live = this.#live.get(id);
      if (live === undefined) {
        try {
          live = await this.#restore(id, request.url);
        } catch (error) {
          return storeUnavailable(error, parsedBody, 'Retry shortly with the same Mcp-Session-Id.');
        }
      }
      if (live === undefined) return jsonRpcErrorResponse(404, JsonRpcCode.SessionNotFound, 'Session not found: it expired or was closed. Start a new session with initialize.');
      this.manager.touch(id, request.method === 'POST' && !isHandshake(parsedBody));
      return live.transport.handleRequest(request, options);
    }
    if (request.method === 'POST' && isInitializeRequest(parsedBody)) return this.#open(request, options);
    return jsonRpcErrorResponse(400, JsonRpcCode.InvalidRequest, 'Bad Request: no valid Mcp-Session-Id header. Send initialize first (without a session id) and repeat the Mcp-Session-Id it returns on every request.');
  }

  async #open(request: Request, options: { parsedBody: unknown }): Promise<Response> {
    const params = (options.parsedBody as { params: Pick<SessionRecord, 'protocolVersion' | 'clientInfo'> & { capabilities?: Record<string, unknown> } }).params;
    const id = randomUUID();
    // The record is stored before the session exists anywhere, so a store outage refuses the handshake cleanly.
    try {
      await this.manager.create(id, { protocolVersion: params.protocolVersion, clientInfo: params.clientInfo, clientCapabilities: params.capabilities ?? {} });
    } catch (error) {
      return storeUnavailable(error, options.parsedBody, 'Retry initialize shortly.');
    }
    const live = await this.#connect(id, async () => {});
    return live.transport.handleRequest(request, options);
  }

  /** Rebuilds a live session from its stored record: a replayed `initialize` and `notifications/initialized`. */
  #restore(id: string, url: string): Promise<LiveSession | undefined> {
    let pending = this.#restoring.get(id);
    if (pending === undefined) {
      pending = (async () => {
        const record = await this.manager.resume(id);
        if (record === undefined) return undefined;
        const live = await this.#connect(id, async () => {});
        const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
        const init = { jsonrpc: '2.0', id: `restore-${id}`, method: 'initialize', params: { protocolVersion: record.protocolVersion, capabilities: record.clientCapabilities, clientInfo: record.clientInfo } };
        await (await live.transport.handleRequest(new Request(url, { method: 'POST', headers, body: JSON.stringify(init) }), { parsedBody: init })).text();
        const done = { jsonrpc: '2.0', method: 'notifications/initialized' };
        const sessionHeaders = { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': record.protocolVersion };
        await (await live.transport.handleRequest(new Request(url, { method: 'POST', headers: sessionHeaders, body: JSON.stringify(done) }), { parsedBody: done })).text();
        return live;
      })().finally(() => this.#restoring.delete(id));
      this.#restoring.set(id, pending);
    }
    return pending;
  }

  async #connect(id: string, onInitialized: (id: string) => Promise<unknown>): Promise<LiveSession> {
    const server = this.#create();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: async (sid) => {
        this.#live.set(sid, live);
        // Subscribed before the session serves anything here, so its notifications (and the signal that it
        // ended elsewhere) are not published into a gap.
        const unwatch = (await this.#bus?.watch?.(sid)) ?? (() => {});
        if (this.#live.get(sid) === live) live.unwatch = unwatch;
        else unwatch();
        await onInitialized(sid);
      },
      onsessionclosed: (sid) => this.manager.destroy(sid, 'delete'),
    });
    const live: LiveSession = { server, transport, unwatch: () => {} };
    // A store failure here only delays the record's `initialized` flag; it must not become an unhandled rejection.
    server.oninitialized = () => void this.manager.initialized(id).catch(() => {});
    transport.onclose = () => {
      live.unwatch();
      if (this.#live.get(id) === live) this.#live.delete(id);
    };
    await server.connect(transport);
    return live;
  }

  /**
   * A notification for a session from the session bus: sent by this process's server of that session,
   * if it has one (on its GET stream, if open here; otherwise the transport drops it).
   */
  deliver(id: string, notification: SessionNotification): void {
    if (notification.method === SESSION_ENDED) {
      this.manager.forget(id);
      return;
    }
    const live = this.#live.get(id);
    if (live === undefined) return;
    live.server.notification(notification as Parameters<Server['notification']>[0]).catch(() => {});
  }

  /** Releases a session's server (idle: it can be restored; destroyed: it cannot, and other instances are told). */
  release(id: string, phase: 'idle' | 'destroyed' = 'idle'): void {
    if (phase === 'destroyed') this.#bus?.publish(id, { method: SESSION_ENDED });
    const live = this.#live.get(id);
    if (live === undefined) return;
    this.#live.delete(id);
    live.unwatch();
    void live.server.close().catch(() => {});
  }

  /** Shutdown: closes every live server; the records stay in the store for a restart to resume. */
  async closeAll(): Promise<void> {
    this.manager.stop();
    const all = [...this.#live.values()];
    this.#live.clear();
    for (const live of all) live.unwatch();
    await Promise.allSettled(all.map((s) => s.server.close()));
  }
}

/** 503 with a JSON-RPC error: the session could not be read or written, so the request was not served. */
function storeUnavailable(error: unknown, body: unknown, retry: string): Response {
  const reason = error instanceof Error ? error.message : String(error);
  const id = (body as { id?: string | number } | undefined)?.id ?? null;
  return jsonRpcErrorResponse(503, JsonRpcCode.InternalError, `Service Unavailable: the session store is unavailable (${reason}); nothing was done. ${retry}`, { 'Retry-After': '1' }, id);
}

function isHandshake(body: unknown): boolean {
  return typeof body === 'object' && body !== null && HANDSHAKE.has((body as { method?: string }).method ?? '');
}
