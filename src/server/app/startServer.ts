import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolRegistry } from '../../registry/ToolRegistry.js';
import { createFusionApp, type FusionApp } from './createFusionApp.js';
import { serveStdio } from '../stdio/serveStdio.js';
import { capConnectionsPerPeer } from '../node/peerConnections.js';
import { peerPolicy } from '../../principal/peerPolicy.js';
import type { StartServerOptions } from '../types.js';
import { ServerStartError } from '../../errors/FusionError.js';
import { interceptServe } from '../../_internal/interceptServe.js';
import { warnOf } from '../../logging/warnOf.js';
import { HttpDrain } from '../node/HttpDrain.js';
import { shutDown, trackSilent } from '../node/shutDown.js';
import { monotonicClock } from '../../_internal/clock.js';

/** A running server started by {@link startServer}. */
export interface RunningServer {
  /** `http://host:port/path`, or `stdio`. */
  readonly url: string;
  readonly port: number | undefined;
  /** The dev console's URL with its token (`devConsole` option), for this machine's browser. */
  readonly consoleUrl?: string;
  /** The fetch-shaped app (HTTP only). */
  readonly app: FusionApp | undefined;
  /** The resource at `uri` changed: its subscribers (legacy `resources/subscribe`, modern listen streams) hear it. */
  notifyResourceUpdated(uri: string): Promise<void>;
  /** The resource at `uri` is gone: its subscribers hear it once more, their subscriptions end, and the list changed. */
  notifyResourceDeleted(uri: string): Promise<void>;
  /**
   * Graceful shutdown (call it on SIGTERM): new requests get `503` + `Retry-After` while the calls under way
   * finish and their answers are written (up to `drainMs`, then they are aborted and answered), open streams
   * end so that clients reconnect elsewhere, sessions close, and the port is released. Calling it again
   * returns the same promise.
   * @see docs/scaling.md
   */
  close(): Promise<void>;
}

/**
 * Serves a registry: Streamable HTTP on node:http (default 127.0.0.1:3000/mcp, both eras on one
 * endpoint) or stdio (`transport: 'stdio'`).
 * @example
 * const srv = await startServer(registry, { port: 3000 });
 * console.error(`listening on ${srv.url}`);
 */
export async function startServer<Ctx>(
  registry: ToolRegistry<Ctx>,
  options: StartServerOptions<Ctx> = {},
): Promise<RunningServer> {
  interceptServe('startServer', registry, options);
  if (options.transport === 'stdio') {
    if (options.auth !== undefined)
      warnOf(options)(
        '[mcp-fusion] the auth option protects HTTP endpoints only; over stdio the client is the process that started the server, and no token is checked.',
      );
    const handle = serveStdio(registry, options);
    return {
      url: 'stdio',
      port: undefined,
      app: undefined,
      notifyResourceUpdated: (uri) => handle.notifyResourceUpdated(uri),
      notifyResourceDeleted: (uri) => handle.notifyResourceDeleted(uri),
      close: () => handle.close(),
    };
  }
  const app = createFusionApp(registry, options);
  // The shutdown's waits run on the runtime's clock: a test clock (the `clock` option) drives them.
  const clock = options.clock ?? monotonicClock;
  const drain = new HttpDrain(clock);
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  // Node requires headersTimeout <= requestTimeout.
  const headersTimeout = Math.min(options.headersTimeoutMs ?? 10_000, requestTimeout);
  // Timeouts are checked on this interval (Node's default, 30 s, would let a slow client hold on 3× longer).
  // The app reads the body once, within maxBodyBytes, straight from the socket (413 past it).
  const http = createServer(
    { connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(headersTimeout / 4))) },
    (req, res) => {
      if (drain.admit(req, res)) app.node(req, res);
    },
  );
  // Connections that never sent a byte (a client's spare one) hold no request: close() cuts them at once.
  const silent = trackSilent(http, clock);
  http.headersTimeout = headersTimeout;
  http.requestTimeout = requestTimeout;
  http.maxConnections = options.maxConnections ?? 1_024;
  capConnectionsPerPeer(
    http,
    Math.min(options.maxConnectionsPerPeer ?? 128, http.maxConnections),
    peerPolicy(options.peers),
  );
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 3000;
  try {
    await listen(http, port, host);
  } catch (error) {
    await app.close();
    throw listenError(error, host, port);
  }
  const bound = (http.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  // The dev console answers loopback connections only: its URL names 127.0.0.1 whatever the bound interface.
  let closing: Promise<void> | undefined;
  const consoleUrl =
    app.devConsole === undefined
      ? undefined
      : `http://${host === '::1' ? '[::1]' : '127.0.0.1'}:${bound}${app.devConsole.path}?token=${encodeURIComponent(app.devConsole.token)}`;
  if (consoleUrl !== undefined)
    (typeof options.devConsole === 'object' && options.devConsole.announce !== undefined
      ? options.devConsole.announce
      : (url: string) => console.error(`[mcp-fusion] dev console: ${url}`))(consoleUrl);
  return {
    url: `http://${shownHost}:${bound}${options.path ?? '/mcp'}`,
    port: bound,
    ...(consoleUrl !== undefined ? { consoleUrl } : {}),
    app,
    notifyResourceUpdated: (uri) => app.notifyResourceUpdated(uri),
    notifyResourceDeleted: (uri) => app.notifyResourceDeleted(uri),
    close: () =>
      (closing ??= shutDown(
        http,
        (drainMs) => app.close({ drainMs }),
        drain,
        options.drainMs ?? 10_000,
        clock,
        silent,
      )),
  };
}

/** A listen failure that names the port and how to choose another (EADDRINUSE, EACCES); others unchanged. */
function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === 'EADDRINUSE') {
    return new ServerStartError(
      `Port ${port} on ${host} is already in use (another server is listening there). Stop that server, or choose another port: set the PORT environment variable (PORT=3001 npm start) or pass { port: 3001 } (0 picks a free port) to startServer().`,
      error,
    ); //! node-do-not-add-exception-line (uncaught, Node prints its message first, not this line)
  }
  if (code === 'EACCES') {
    return new ServerStartError(
      `Port ${port} on ${host} needs privileges this process does not have. Choose a port above 1023 with PORT=<port> or { port }.`,
      error,
    ); //! node-do-not-add-exception-line
  }
  return error;
}

function listen(http: HttpServer, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
}
