import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { pooledFetch } from './clients.js';
import {
  createTaskSessionFromClient,
  type JsonRpcResponse,
  type TaskEnabledSession,
} from '@modelcontextprotocol/ext-tasks/client';

const CLIENT_INFO = { name: 'ext-tasks-test', version: '1.0.0' };
const MODERN = '2026-07-28';

/**
 * The raw request path the official Tasks client needs on 2026-07-28 (the SDK client refuses the
 * extension's result shapes): one JSON-RPC POST with the standard headers, answered as JSON or SSE. With
 * several URLs, each request goes to the next one in turn (a load balancer without affinity).
 */
function rawPost(
  url: string | readonly string[],
  send: (url: string, init: RequestInit) => Promise<Response> = fetch,
): (request: unknown) => Promise<JsonRpcResponse> {
  let id = 0;
  const urls = typeof url === 'string' ? [url] : url;
  return async (request) => {
    const target = urls[id % urls.length]!;
    const body = {
      ...(request as { method: string; params?: Record<string, unknown> }),
      jsonrpc: '2.0',
      id: `raw-${++id}`,
    };
    const name = body.method === 'tools/call' ? body.params?.name : body.params?.taskId;
    const response = await send(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': body.method,
        ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    const json = (response.headers.get('content-type') ?? '').includes('text/event-stream')
      ? text
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => JSON.parse(line.slice(6)))
          .find((m) => m.id === body.id)
      : JSON.parse(text);
    return json.error !== undefined ? { kind: 'error', error: json.error } : { kind: 'result', result: json.result };
  };
}

/**
 * An SDK client on `url` in `era`, wrapped in the official Tasks client session; both closed by `await using`.
 * Modern: `balance` sends the task traffic (tools/call, tasks/*) to these URLs in turn instead.
 */
export async function extTaskSession(
  url: string,
  era: 'legacy' | 'modern',
  balance?: readonly string[],
): Promise<{ client: Client; session: TaskEnabledSession } & AsyncDisposable> {
  const client = new Client(CLIENT_INFO, era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN } } } : {});
  // A pool of its own, closed on dispose: the server closed next has no idle connection of it to linger for.
  const pool = pooledFetch();
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: pool.fetch }));
  const session =
    era === 'legacy'
      ? createTaskSessionFromClient(client, { endpointId: `legacy:${url}` })
      : createTaskSessionFromClient(client, {
          endpointId: `modern:${url}`,
          rawDispatch: rawPost(balance ?? url, pool.fetch),
          v2RequestFraming: { protocolVersion: MODERN, clientInfo: CLIENT_INFO, clientCapabilities: {} },
        });
  return {
    client,
    session,
    async [Symbol.asyncDispose]() {
      await session.close();
      await client.close();
      await pool.close();
    },
  };
}

/**
 * One 2026-07-28 request over raw HTTP with the request envelope (`_meta`) the revision requires; the client
 * declares the tasks extension unless `tasks` is false. Resolves the JSON-RPC result or rejects with its error.
 */
export async function modernRequest(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: { tasks?: boolean } = {},
): Promise<any> {
  const capabilities = options.tasks === false ? {} : { extensions: { 'io.modelcontextprotocol/tasks': {} } };
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
  const answer = await rawPost(url)({ method, params: { ...params, _meta } });
  if (answer.kind === 'error')
    throw Object.assign(new Error(String((answer.error as { message?: unknown }).message)), answer.error);
  return answer.result;
}
