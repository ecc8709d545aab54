import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { ToolRegistry } from '../registry/ToolRegistry.js';
import { createFusionApp, type FusionApp } from './createFusionApp.js';
import { serveStdio } from './serveStdio.js';
import type { StartServerOptions } from './types.js';

/** A running server started by {@link startServer}. */
export interface RunningServer {
  /** `http://host:port/path`, or `stdio`. */
  readonly url: string;
  readonly port: number | undefined;
  /** The fetch-shaped app (HTTP only). */
  readonly app: FusionApp | undefined;
  /** Stops accepting, closes sessions and releases the port. */
  close(): Promise<void>;
}

/**
 * Serves a registry: Streamable HTTP on node:http (default 127.0.0.1:3000/mcp, both eras on one
 * endpoint) or stdio (`transport: 'stdio'`).
 * @example
 * const srv = await startServer(registry, { port: 3000 });
 * console.error(`listening on ${srv.url}`);
 */
export async function startServer<Ctx>(registry: ToolRegistry<Ctx>, options: StartServerOptions<Ctx> = {}): Promise<RunningServer> {
  if (options.transport === 'stdio') {
    if (options.auth !== undefined) (options.onWarning ?? console.warn)('[mcp-fusion] the auth option protects HTTP endpoints only; over stdio the client is the process that started the server, and no token is checked.');
    const handle = serveStdio(registry, options);
    return { url: 'stdio', port: undefined, app: undefined, close: () => handle.close() };
  }
  const app = createFusionApp(registry, options);
  const limit = options.maxBodyBytes ?? 4 * 1024 * 1024;
  // The adapter's own bound only stops runaway bodies; the app answers 413 with its own message.
  const handler = toNodeHandler(app, { maxRequestBodySize: limit + 65_536 });
  const http = createServer((req, res) => {
    void handler(req as Parameters<typeof handler>[0], res);
  });
  const host = options.host ?? '127.0.0.1';
  await listen(http, options.port ?? 3000, host);
  const port = (http.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${options.path ?? '/mcp'}`,
    port,
    app,
    async close() {
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      await app.close();
      http.closeAllConnections();
      await closed;
    },
  };
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
