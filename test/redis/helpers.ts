import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { createFusionApp, type FusionApp } from '../../src/index.js';
import { RedisEventBus, RedisFsmStore, RedisSessionStore } from '../../src/redis/index.js';
import type { RedisClient } from '../../src/redis/_internal/redisClient.js';
import { clusterClient, ready, redisClient } from './clients.js';
import { until as waitUntil } from '../_helpers/waitFor.js';
import { messagesOf } from '../_helpers/raw.js';

/** Where an instance's Redis is: the run's redis-server (default), another URL, or a cluster's nodes. */
export type RedisTarget = string | { nodes: Array<{ host: string; port: number }> } | undefined;

/** A connected client (and a subscriber client) for a target. */
export async function connect(target: RedisTarget): Promise<{ client: RedisClient; subscriber: RedisClient }> {
  if (typeof target === 'object') {
    const client = await ready(clusterClient(target.nodes));
    return { client, subscriber: client };
  }
  return { client: await ready(redisClient(target)), subscriber: redisClient(target) };
}

/** One "instance" of the workspace server in this process, wired to Redis like the example with REDIS_URL (or REDIS_CLUSTER_NODES). */
export async function workspaceInstance(
  prefix: string,
  target?: RedisTarget,
  extra: { lockLeaseMs?: number } = {},
): Promise<{ app: FusionApp; bus: RedisEventBus; close(): Promise<void> }> {
  const { client, subscriber } = await connect(target);
  const bus = new RedisEventBus({ publisher: client, subscriber, prefix: `${prefix}bus:` });
  await bus.ready();
  const app = createFusionApp(registry, {
    ...workspaceOptions(),
    sessionStore: new RedisSessionStore({ client, prefix: `${prefix}session:` }),
    fsmStore: new RedisFsmStore({ client, prefix: `${prefix}fsm:session:`, ...extra }),
    workflowStore: new RedisFsmStore({ client, prefix: `${prefix}fsm:handle:`, ...extra }),
    bus,
    listChangedDebounceMs: 5,
  });
  return { app, bus, close: async () => (await app.close(), await bus.close()) };
}

type FetchApp = { fetch(request: Request): Promise<Response> };

/** A v2 SDK client whose every HTTP request goes to the next app in turn (no sticky routing). */
export async function roundRobinClient(
  apps: FetchApp[],
  mode: 'legacy' | 'auto' = 'legacy',
): Promise<Client & AsyncDisposable & { sent: string[] }> {
  const client = new Client(
    { name: 'round-robin', version: '1.0.0' },
    mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  let next = 0;
  const sent: string[] = [];
  const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
    fetch: (url, init) => {
      const request = new Request(url, init);
      request.headers.set('host', '127.0.0.1');
      const i = next++ % apps.length;
      sent.push(`${request.method}→${i}`);
      return apps[i]!.fetch(request);
    },
  });
  await client.connect(transport);
  return Object.assign(client, { sent, [Symbol.asyncDispose]: () => client.close() });
}

/** Resolves once `check` holds (fails after `ms`): the shared condition wait, in this file's argument order. */
export function until(check: () => boolean, ms = 3_000, what = 'condition'): Promise<void> {
  return waitUntil(check, what, ms);
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** One modern (2026-07-28, sessionless) `tools/call` over raw HTTP; resolves the JSON-RPC answer. */
export async function modernCall(
  app: FetchApp,
  id: number,
  name: string,
  args: Record<string, unknown>,
): Promise<{ status: number; message: any }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args, _meta: MODERN_META },
  });
  const headers = {
    host: '127.0.0.1',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': name,
  };
  const res = await app.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body }));
  const messages = await messagesOf(res);
  return { status: res.status, message: messages.find((m) => m.id === id) ?? messages[0] };
}
