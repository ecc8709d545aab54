import { randomUUID } from 'node:crypto';
import { isInitializeRequest, type JSONRPCMessage, type Server } from '@modelcontextprotocol/server';
import { clockOf, type Clock } from '../../_internal/clock.js';
import type { SessionBus, SessionNotification } from '../../session/SessionBus.js';
import type { SessionManager } from '../../session/SessionManager.js';
import { rememberPeer } from '../../principal/peers.js';
import { principalOf } from '../../principal/principalOf.js';
import { peerFallback, sessionFallback } from '../../principal/requestPrincipal.js';
import { callerKey, openerPeer } from './sessionPrincipal.js';
import { jsonRpcIdOf } from '../../protocol/jsonRpcId.js';
import { httpError } from '../http/httpErrors.js';
import { checkInitializeParams, refuseInitialize } from './initializeParams.js';
import { DEFAULT_HTTP_LIMITS, type ResolvedHttpLimits } from '../limits.js';
import { tokenExpiryMs } from '../http/tokenExpiry.js';
import { trackBody } from '../http/trackBody.js';
import type { OperatorLog } from '../../logging/OperatorLog.js';
import type { EventStore } from '../../session/EventStore.js';
import { SessionEvents } from './SessionEvents.js';
import { SessionTransport } from './SessionTransport.js';
import { answerOnBus, CLIENT_ANSWER, CLIENT_REQUEST, requestOnBus } from '../../session/ServerRequestIds.js';
import { sessionRoom } from './sessionRoom.js';
import { SessionHolds } from './sessionHolds.js';
import type { ByteLedger } from '../../ledger/ByteLedger.js';
import { replayHandshake } from './replayHandshake.js';
import type { Classified } from '../http/classify.js';
import { storeUnavailable } from './storeUnavailable.js';

/** One live legacy session: its own server and transport. */
interface LiveSession {
  readonly server: Server;
  readonly transport: SessionTransport;
  /** The session's resumable streams (when the app has an event store). */
  readonly events: SessionEvents | undefined;
  /** Ends the session bus's watch of this session (set once it is live here). */
  unwatch: () => void;
}

const HANDSHAKE = new Set<unknown>(['initialize', 'notifications/initialized']);
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
  readonly #limits: ResolvedHttpLimits;
  readonly #now: () => number;
  readonly #clock: Clock;
  readonly #log: OperatorLog | undefined;
  readonly #events: { store: EventStore; retryMs: number } | undefined;
  readonly #holds: SessionHolds;
  readonly manager: SessionManager;

  constructor(
    create: () => Server,
    manager: SessionManager,
    options: {
      sessionBus?: SessionBus | undefined;
      limits?: ResolvedHttpLimits;
      now?: (() => number) | undefined;
      log?: OperatorLog;
      /** Resumable SSE streams: where their events wait, and the reconnection delay suggested to clients. */
      events?: { store: EventStore; retryMs: number } | undefined;
      ledger?: ByteLedger | undefined; // holds each session's initialize params until it ends, and its events
    } = {},
  ) {
    this.#create = create;
    this.manager = manager;
    this.#bus = options.sessionBus;
    this.#limits = options.limits ?? DEFAULT_HTTP_LIMITS;
    this.#now = options.now ?? Date.now;
    this.#clock = clockOf(this.#now);
    this.#log = options.log;
    this.#events = options.events;
    this.#holds = new SessionHolds(options.ledger);
  }

  /** Sessions whose server is in memory. */
  get size(): number {
    return this.#live.size;
  }

  has(id: string): boolean {
    return this.#live.has(id);
  }

  /**
   * Serves one legacy HTTP request (POST with a parsed body, GET or DELETE) as the app classified it. `peer`
   * (`peerKey`) owns an anonymous opener's session: each of its requests is that peer's, from any address in its /64.
   */
  async handle(
    request: Request,
    parsedBody: unknown,
    front: { authInfo: unknown; peer?: string | undefined; classified: Classified },
  ): Promise<Response> {
    const { authInfo, peer, classified } = front;
    const method = (parsedBody as { method?: unknown } | null)?.method;
    const id = classified.sessionId;
    const options = { parsedBody, classified, ...(authInfo === undefined ? {} : { authInfo: authInfo as never }) };
    if (id !== null) {
      let live = this.#live.get(id);
      if (live === undefined) {
        try {
          live = await this.#restore(id, request.url);
        } catch (error) {
          this.#log?.error('session store failed: the session could not be restored', { session: id }, error);
          return storeUnavailable(error, parsedBody, 'Retry shortly with the same Mcp-Session-Id.');
        }
      }
      if (live === undefined)
        return httpError(
          'sessionNotFound',
          'Session not found: it expired or was closed. Start a new session with initialize.',
        );
      const record = this.manager.get(id);
      const opener = record?.principal;
      if (opener !== undefined && opener !== callerKey(opener, id, authInfo)) {
        return httpError(
          'sessionForbidden',
          'Forbidden: this Mcp-Session-Id belongs to another principal (it was opened with different credentials). Start your own session with initialize.',
          jsonRpcIdOf(parsedBody),
        );
      }
      this.manager.touch(id, request.method === 'POST' && !HANDSHAKE.has(method));
      const refused = request.method === 'GET' ? await live.events?.refuse(request, live.transport) : undefined;
      if (refused !== undefined) return refused;
      const served =
        live.events === undefined ? request : SessionEvents.aligned(request, this.manager.get(id)?.protocolVersion);
      // The session's anonymous principal is the peer that opened it (none for a session opened without one).
      rememberPeer(served, openerPeer(record));
      let response = await live.transport.handleRequest(served, options);
      if (request.method === 'GET' && live.events !== undefined)
        response = await live.events.prime(request, response, this.#events?.retryMs);
      // The GET stream lives no longer than the token that opened it: the client reconnects with a fresh one.
      const expiresAtMs = request.method === 'GET' && response.ok ? tokenExpiryMs(authInfo) : undefined;
      return expiresAtMs === undefined
        ? response
        : trackBody(response, () => {}, expiresAtMs - this.#now(), this.#clock).response;
    }
    if (request.method === 'POST' && isInitializeRequest(parsedBody))
      return this.#open(request, options, authInfo, peer);
    // Not a valid initialize request (the SDK's check failed): say which field, not "send initialize first".
    if (request.method === 'POST' && method === 'initialize') return refuseInitialize(parsedBody, this.#limits);
    return httpError(
      'noSession',
      'Bad Request: no valid Mcp-Session-Id header. Send initialize first (without a session id) and repeat the Mcp-Session-Id it returns on every request.',
    );
  }

  async #open(
    request: Request,
    options: { parsedBody: unknown },
    authInfo: unknown,
    peer: string | undefined,
  ): Promise<Response> {
    const checked = checkInitializeParams(options.parsedBody, {
      maxBytes: this.#limits.maxInitializeBytes,
      maxDepth: this.#limits.maxInitializeDepth,
    });
    if ('response' in checked) return checked.response;
    const id = randomUUID();
    const principal = principalOf(authInfo, peer === undefined ? sessionFallback(id) : peerFallback(peer));
    const owner =
      principal.kind === 'anonymous' ? (peer === undefined ? undefined : peerFallback(peer)) : principal.key;
    // Budget check and reservation happen in one synchronous step (create() tracks the session before it awaits),
    // so concurrent handshakes cannot all pass a nearly full budget.
    const full = sessionRoom(this.manager, this.#limits, { owner, body: options.parsedBody, log: this.#log });
    if (full !== undefined) return full;
    const holder = { principal: owner ?? principal.key, ...(peer !== undefined ? { peer } : {}) };
    const refused = this.#holds.take(id, holder, checked.init, jsonRpcIdOf(options.parsedBody));
    if (refused !== undefined) return refused;
    // The record is stored before the session exists anywhere, so a store outage refuses the handshake cleanly.
    try {
      await this.manager.create(id, {
        ...checked.init,
        principal: principal.key,
        ...(owner !== undefined ? { owner } : {}),
      });
    } catch (error) {
      this.#holds.release(id);
      this.#log?.error('session store failed: the session could not be created', { session: id }, error);
      return storeUnavailable(error, options.parsedBody, 'Retry initialize shortly.');
    }
    const live = await this.#connect(id);
    return live.transport.handleRequest(request, options);
  }

  /** Rebuilds a live session from its stored record: a replayed `initialize` and `notifications/initialized`. */
  #restore(id: string, url: string): Promise<LiveSession | undefined> {
    let pending = this.#restoring.get(id);
    if (pending === undefined) {
      pending = (async () => {
        const record = await this.manager.resume(id);
        if (record === undefined) return undefined;
        const live = await this.#connect(id);
        await replayHandshake(live.transport, id, url, record);
        return live;
      })().finally(() => this.#restoring.delete(id));
      this.#restoring.set(id, pending);
    }
    return pending;
  }

  async #connect(id: string): Promise<LiveSession> {
    const server = this.#create();
    const resumable = this.#events;
    const events = resumable && new SessionEvents(resumable.store, id, this.#holds.ownerOf(id, this.manager.get(id)));
    const transport = new SessionTransport({
      sessionId: id,
      events,
      clock: this.#clock,
      ...(resumable !== undefined ? { retryInterval: resumable.retryMs } : {}),
      onsessioninitialized: async (sid) => {
        // Evicted (or ended) while its handshake was running: do not keep a server nobody tracks.
        if (this.manager.get(sid) === undefined) {
          void server.close().catch(() => {});
          return;
        }
        this.#live.set(sid, live);
        // Subscribed before the session serves anything here, so its notifications (and the signal that it
        // ended elsewhere) are not published into a gap.
        const unwatch = (await this.#bus?.watch?.(sid)) ?? (() => {});
        if (this.#live.get(sid) === live) live.unwatch = unwatch;
        else unwatch();
      },
      onsessionclosed: (sid) => this.manager.destroy(sid, 'delete'),
    });
    // An answer to another instance's request to the client goes there (the one that sent it hands it over).
    const bus = this.#bus;
    if (bus !== undefined) transport.onforeignanswer = (message) => bus.publish(id, answerOnBus(message));
    // A request for the GET stream goes to the instance holding it (any of them, this one included).
    if (bus !== undefined) transport.onstandalonerequest = (message) => bus.publish(id, requestOnBus(message));
    const live: LiveSession = { server, transport, events, unwatch: () => {} };
    // A store failure here only delays the record's `initialized` flag; it must not become an unhandled rejection.
    server.oninitialized = () =>
      void this.manager
        .initialized(id)
        .catch((error: unknown) =>
          this.#log?.error('session store failed: the handshake could not be recorded', { session: id }, error),
        );
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
      this.#holds.release(id);
      this.manager.forget(id);
      return;
    }
    const live = this.#live.get(id);
    if (live === undefined) return;
    const { message, key } = (notification.params ?? {}) as { message?: JSONRPCMessage; key?: string };
    if (notification.method === CLIENT_ANSWER) return void live.transport.answer(message);
    if (notification.method === CLIENT_REQUEST)
      return void live.transport.sendStandalone(message!, key).catch(() => {});
    const sent = live.events?.expect(notification) ?? notification;
    live.server.notification(sent as Parameters<Server['notification']>[0]).catch(() => live.events?.unexpect(sent));
  }

  /** A notification for every session live in this process (e.g. `notifications/resources/list_changed`). */
  broadcast(notification: SessionNotification): void {
    for (const live of this.#live.values())
      live.server.notification(notification as Parameters<Server['notification']>[0]).catch(() => {});
  }

  /** Releases a session's server (idle: it can be restored; destroyed: it cannot, and other instances are told). */
  release(id: string, phase: 'idle' | 'destroyed' = 'idle'): void {
    if (phase === 'destroyed') this.#bus?.publish(id, { method: SESSION_ENDED });
    if (phase === 'destroyed') this.#holds.release(id);
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
