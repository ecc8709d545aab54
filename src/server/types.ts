import type { McpServer, Server, ServerEventBus } from '@modelcontextprotocol/server';
import type { AuthOptions } from '../auth/types.js';
import type { DevConsoleOptions } from '../console/types.js';
import type { ProtocolEra } from '../protocol/types.js';
import type { AttachOptions } from '../registry/types.js';
import type { EventStore } from '../session/EventStore.js';
import type { SessionBus } from '../session/SessionBus.js';
import type { TaskBus } from '../tasks/TaskBus.js';
import type { SessionStore } from '../session/SessionStore.js';
import type { SessionEvent, SessionTimeouts } from '../session/types.js';
import type { HttpLimits } from './limits.js';
import type { HttpMiddleware } from './httpMiddleware.js';
import type { PeerOptions } from '../principal/types.js';

/** Options shared by every serving entry point. */
export interface ServeOptions<Ctx> extends AttachOptions<Ctx> {
  /** `serverInfo.name` (default `mcp-fusion-server`). */
  name?: string;
  /** `serverInfo.version` (default `1.0.0`). */
  version?: string;
  /** Text the server returns as `instructions`. */
  instructions?: string;
  /**
   * Your own SDK server, for an app that already has entries of its own (`registerTool()`,
   * `registerPrompt()`, `registerResource()`): called for every legacy session, every modern request and
   * every stdio connection, it must return a new, unconnected v2 `McpServer` or `Server` each time. The
   * registry attaches to it; its own entries stay listed and callable beside the registry's, and a name
   * both serve is refused. `name`, `version` and `instructions` are then the server's own.
   * @see docs/serving.md
   */
  server?: (context: { era: ProtocolEra | undefined }) => McpServer | Server;
  /** Over stdio: the largest message line (10 MiB). A longer line is answered with an error and skipped; the connection goes on. */
  stdioMaxLineBytes?: number;
}

/** Options of the HTTP app and of `startServer` over HTTP. */
export interface HttpOptions<Ctx> extends ServeOptions<Ctx> {
  /** Path of the MCP endpoint (default `/mcp`). */
  path?: string;
  /** Hostnames allowed in the `Host` header (default: localhost, 127.0.0.1, [::1]). */
  allowedHosts?: string[];
  /** Hostnames allowed in a browser's `Origin` header (default: localhost names). Requests without Origin pass. */
  allowedOrigins?: string[];
  /**
   * Makes the endpoint an OAuth 2.1 resource server: every request needs a bearer token the `verifier`
   * accepts (401 with a `WWW-Authenticate` challenge otherwise), Protected Resource Metadata is served at
   * `/.well-known/oauth-protected-resource<path>`, and the verified `AuthInfo` is each request's principal.
   * @see docs/auth.md
   */
  auth?: AuthOptions;
  /** Largest accepted request body in bytes (default 4 MiB); larger bodies get 413. */
  maxBodyBytes?: number;
  /**
   * Your own HTTP middlewares, run in order after the built-in front (Host, Origin, auth, body, scopes, call
   * budget) and before the MCP dispatch: answer a request yourself, or `return next(c)` and maybe change the
   * answer. One that throws (or whose answer rejects) is logged at `error` and answered `500` with a JSON-RPC
   * `-32603` error; errors from further down pass through it.
   * @example use: [async (c, next) => { const res = await next(c); res.headers.set('X-Served-By', 'a'); return res; }]
   * @see docs/serving.md#your-own-http-middleware
   */
  use?: readonly HttpMiddleware[];
  /** Where legacy session metadata (and, without an `fsmStore`, workflow state) lives; in memory by default. */
  sessionStore?: SessionStore;
  /**
   * Where the events of resumable SSE streams wait for a client whose stream dropped (default: a bounded
   * `MemoryEventStore` in this process; `false`: streams carry no event ids and cannot resume). Give every
   * instance the same `RedisEventStore` so that a client reconnecting with `Last-Event-ID` to any instance
   * receives what it missed.
   * @see docs/scaling.md
   */
  eventStore?: EventStore | false;
  /** The reconnection delay (ms) suggested to clients in the `retry` field of SSE priming events (1,000). */
  sseRetryMs?: number;
  /**
   * How long a modern listen stream whose client dropped keeps recording its events (30 s), so that the client
   * resumes it with `Last-Event-ID` (on this instance) without missing any. Such streams count in the SDK's cap.
   */
  listenResumeMs?: number;
  /** Legacy session lifecycle timeouts (initialize 30 s, never used 5 min, idle 30 min, TTL 24 h). */
  sessionTimeouts?: SessionTimeouts;
  /** Every legacy session lifecycle transition, for logs and metrics. */
  onSessionEvent?: (event: SessionEvent) => void;
  /**
   * Most open modern `subscriptions/listen` streams per principal (16): per verified user or client, and
   * per peer address (IPv6: per /64) for anonymous callers. One more gets `429` with `Retry-After`. With an
   * event store, as many dropped streams per principal keep recording for `listenResumeMs` (past it, that
   * principal's oldest stops), so one caller's drops never end another's resumable streams.
   */
  maxListenStreamsPerPrincipal?: number;
  /** Budgets of sessions, initialize size, listen streams and running calls (see {@link HttpLimits}). */
  limits?: HttpLimits;
  /**
   * Who an anonymous caller is: its network peer — the IPv4 address, the IPv6 prefix (`ipv6PrefixLength`,
   * 64), or, from a proxy listed in `trustedProxies`, the address its forwarded header names. Rate limits,
   * task, session and listen budgets and ownership of anonymous callers key on it.
   * @see docs/security.md#the-network-peer
   */
  peers?: PeerOptions;
  /**
   * The shutdown deadline (10 s): how long `close()` (call it on SIGTERM) lets the requests under way and the
   * running tool calls finish, while new requests get `503` + `Retry-After`; what still runs then is aborted
   * and answered. Keep it below your orchestrator's grace period (Kubernetes: 30 s).
   * @see docs/scaling.md
   */
  drainMs?: number;
  /**
   * The change-event bus of modern `subscriptions/listen` streams (default: in-process). Give every
   * instance the same cross-process bus (`RedisEventBus`) so that a change raised on one reaches streams
   * open on another; when it also has `sessions` (a {@link SessionBus}), legacy sessions use that too, and
   * when it has `tasks` (a `TaskBus`), a task cancelled on one instance is aborted at once on the one running it.
   * @see docs/scaling.md
   */
  bus?: ServerEventBus & { sessions?: SessionBus; tasks?: TaskBus };
  /**
   * Serves the dev console beside the endpoint (at `/console?token=…`, to 127.0.0.1 only): live sessions,
   * workflow states, every call with the text the agent read, invalidations, notifications, and transcripts
   * to replay as tests. For development: it records arguments and results. Off by default (and free).
   * @see docs/console.md
   */
  devConsole?: boolean | DevConsoleOptions;
}

/** Options of {@link startServer}. */
export interface StartServerOptions<Ctx> extends HttpOptions<Ctx> {
  /** `http` (default) or `stdio`. */
  transport?: 'http' | 'stdio';
  /** TCP port (default 3000; 0 picks a free one). */
  port?: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Time a client has to send the request headers (10 s); slower connections are closed (`server.headersTimeout`). */
  headersTimeoutMs?: number;
  /** Time a client has to send a whole request (30 s; `server.requestTimeout`). Response streams are not cut. */
  requestTimeoutMs?: number;
  /** Open TCP connections at once (1,024; `server.maxConnections`); more are closed at once. */
  maxConnections?: number;
  /**
   * Open TCP connections from one peer address (IPv6: one /64 prefix) at once (128, at most
   * `maxConnections`); more from that peer are closed at once, so one host cannot take every socket.
   */
  maxConnectionsPerPeer?: number;
}
