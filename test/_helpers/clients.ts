import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer, type RunningServer, type StartServerOptions, type ToolRegistry } from '../../src/index.js';

/** An HTTP server on an ephemeral 127.0.0.1 port, closed by `await using`. */
export async function httpServer<Ctx>(registry: ToolRegistry<Ctx>, options: StartServerOptions<Ctx> = {}): Promise<RunningServer & AsyncDisposable> {
  const srv = await startServer(registry, { port: 0, ...options });
  return Object.assign(srv, { [Symbol.asyncDispose]: () => srv.close() });
}

export type Mode = 'legacy' | 'auto';

/** A v2 SDK client over HTTP, in its default (legacy) mode or `auto` (modern when offered). */
export async function v2HttpClient(url: string, mode: Mode = 'legacy'): Promise<Client & AsyncDisposable> {
  const client = new Client({ name: 'test-v2', version: '1.0.0' }, mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

/** A v2 SDK client talking to a fetch-shaped app in process (no socket). */
export async function v2FetchClient(app: { fetch(r: Request): Promise<Response> }, mode: Mode = 'legacy'): Promise<Client & AsyncDisposable> {
  const client = new Client({ name: 'test-v2', version: '1.0.0' }, mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {});
  const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
    fetch: (url, init) => {
      const request = new Request(url, init);
      request.headers.set('host', '127.0.0.1');
      return app.fetch(request);
    },
  });
  await client.connect(transport);
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

/** A v1 SDK (`@modelcontextprotocol/sdk`) client over HTTP. */
export async function v1HttpClient(url: string): Promise<V1Client & AsyncDisposable> {
  const client = new V1Client({ name: 'test-v1', version: '1.0.0' });
  await client.connect(new V1Transport(new URL(url)));
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

/** Text of every text block of a tool result. */
export function texts(result: { content?: unknown }): string[] {
  return ((result.content ?? []) as Array<{ type: string; text?: string }>).filter((b) => b.type === 'text').map((b) => b.text ?? '');
}
