import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { createFusionApp, type FusionApp } from '../../src/index.js';
import { RedisEventBus, RedisFsmStore, RedisSessionStore } from '../../src/redis/index.js';
import { ready, redisClient } from './clients.js';

/** One "instance" of the workspace server in this process, wired to Redis like the example with REDIS_URL. */
export async function workspaceInstance(prefix: string, url?: string, extra: { lockLeaseMs?: number } = {}): Promise<{ app: FusionApp; bus: RedisEventBus; close(): Promise<void> }> {
  const client = redisClient(url);
  await ready(client);
  const bus = new RedisEventBus({ publisher: client, subscriber: redisClient(url), prefix: `${prefix}bus:` });
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
export async function roundRobinClient(apps: FetchApp[], mode: 'legacy' | 'auto' = 'legacy'): Promise<Client & AsyncDisposable & { sent: string[] }> {
  const client = new Client({ name: 'round-robin', version: '1.0.0' }, mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {});
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

/** Polls `check` every 5 ms until it holds (fails after `ms`). */
export async function until(check: () => boolean, ms = 3_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
