import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent, fetch as poolFetch } from 'undici';
import { fetchFrom } from './peerFetch.js';
import { startServer, type RunningServer, type StartServerOptions, type ToolRegistry } from '../../src/index.js';
import { until } from './waitFor.js';

/** An HTTP server on an ephemeral 127.0.0.1 port, closed by `await using`. */
export async function httpServer<Ctx>(
  registry: ToolRegistry<Ctx>,
  options: StartServerOptions<Ctx> = {},
): Promise<RunningServer & AsyncDisposable> {
  const srv = await startServer(registry, { port: 0, ...options });
  return Object.assign(srv, { [Symbol.asyncDispose]: () => srv.close() });
}

/**
 * `srv` (started with `now: clock.now`), closed by `await using` while `clock` moves: a shutdown's waits (the
 * linger after it ends a stream a client still held) run on the server's clock, so the clock is driven until
 * the close returns.
 */
export function closedOnClock<T extends RunningServer>(
  srv: T,
  clock: { advanceAsync(ms: number): Promise<number> },
): T & AsyncDisposable {
  return Object.assign(srv, {
    [Symbol.asyncDispose]: async () => {
      let done = false;
      const closed = srv.close().finally(() => (done = true));
      await until(async () => done || (await clock.advanceAsync(50), false), 'the server to close on its clock');
      await closed;
    },
  });
}

export type Mode = 'legacy' | 'auto';

/**
 * A test client. `streamOpen` resolves once the server answered the legacy client's standalone GET
 * stream (from then on the session's unsolicited notifications reach it); a modern client opens none.
 */
export type TestClient = Client & AsyncDisposable & { readonly streamOpen: Promise<void> };

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Wraps `fetch` so that the first successful GET (the standalone SSE stream) resolves `opened`. */
export function watchingStream(fetch: Fetch): { fetch: Fetch; opened: Promise<void> } {
  let resolve!: () => void;
  const opened = new Promise<void>((r) => (resolve = r));
  return {
    opened,
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      if ((init?.method ?? 'GET') === 'GET' && response.ok) resolve();
      return response;
    },
  };
}

async function connected(mode: Mode, url: URL, fetch: Fetch): Promise<TestClient> {
  const client = new Client(
    { name: 'test-v2', version: '1.0.0' },
    mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  const watched = watchingStream(fetch);
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: watched.fetch }));
  return Object.assign(client, { streamOpen: watched.opened, [Symbol.asyncDispose]: () => client.close() });
}

/**
 * A v2 SDK client over HTTP, in its default (legacy) mode or `auto` (modern when offered). Its requests go
 * through a connection pool of its own (undici's, which Node's `fetch` is), closed with the client by `await
 * using`: a server closed after it holds no idle connection of it, so its shutdown has nobody to tell.
 */
export async function v2HttpClient(url: string, mode: Mode = 'legacy'): Promise<TestClient> {
  return pooledClient((fetch) => connected(mode, new URL(url), fetch));
}

/**
 * A client connected through a {@link pooledFetch} of its own: closing it (`close()` or `await using`) closes
 * the client, then the pool.
 */
async function pooledClient<C extends { close(): Promise<void> }>(
  connect: (fetch: Fetch) => Promise<C>,
): Promise<C & AsyncDisposable> {
  const pool = pooledFetch();
  const client = await connect(pool.fetch).catch(async (error: unknown) => {
    await pool.close();
    throw error;
  });
  const closeClient = client.close.bind(client);
  const close = async (): Promise<void> => {
    await closeClient();
    await pool.close();
  };
  return Object.assign(client, { close, [Symbol.asyncDispose]: close });
}

/**
 * A `fetch` with a connection pool of its own (undici's `Agent`; Node's `fetch` is undici with one global
 * pool), `send` for a `Request` (the shape `modernTaskEndpoint`'s `fetch` option takes), and `close()`, which
 * closes the pool's connections: a server closed afterwards has no idle connection of this client to linger for.
 */
export function pooledFetch(): {
  fetch: Fetch;
  send: (request: Request) => Promise<Response>;
  close: () => Promise<void>;
} {
  const pool = new Agent();
  const fetch: Fetch = (u, init) =>
    poolFetch(u, { ...init, dispatcher: pool } as Parameters<typeof poolFetch>[1]) as unknown as Promise<Response>;
  const send = async (request: Request): Promise<Response> =>
    fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body === null ? null : await request.arrayBuffer(),
      signal: request.signal,
    });
  return { fetch, send, close: () => pool.destroy() };
}

/**
 * A v2 SDK client over HTTP whose connections leave from `peer` (a loopback address such as 127.0.0.2: a
 * network peer of its own, so an anonymous client that is not the other test clients' principal).
 */
export async function v2HttpClientFrom(url: string, peer: string, mode: Mode = 'legacy'): Promise<TestClient> {
  const from = fetchFrom(peer);
  const client = await connected(mode, new URL(url), from.fetch);
  return Object.assign(client, {
    [Symbol.asyncDispose]: async () => {
      await client.close();
      from.close();
    },
  });
}

/** A v2 SDK client talking to a fetch-shaped app in process (no socket). */
export async function v2FetchClient(
  app: { fetch(r: Request): Promise<Response> },
  mode: Mode = 'legacy',
): Promise<TestClient> {
  return connected(mode, new URL('http://127.0.0.1/mcp'), (url, init) => {
    const request = new Request(url, init);
    request.headers.set('host', '127.0.0.1');
    return app.fetch(request);
  });
}

/** A v1 SDK (`@modelcontextprotocol/sdk`) client over HTTP. */
export async function v1HttpClient(url: string): Promise<V1Client & AsyncDisposable> {
  return pooledClient(async (fetch) => {
    const client = new V1Client({ name: 'test-v1', version: '1.0.0' });
    await client.connect(new V1Transport(new URL(url), { fetch }));
    return client;
  });
}

/** Text of every text block of a tool result. */
export function texts(result: { content?: unknown }): string[] {
  return ((result.content ?? []) as Array<{ type: string; text?: string }>)
    .filter((b) => b.type === 'text')
    .map((b) => b.text ?? '');
}
