// The shared setup of the two-instance tests on one Redis with the Redis bus (clientAnswersAnywhere,
// subscriptionsAnywhere, tasksCancelEverywhere, taskHandOff): instances in this process, legacy clients over `app.fetch`.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Redis } from 'ioredis';
import type { FusionApp } from '../../src/index.js';
import { RedisEventBus, RedisSessionStore } from '../../src/redis/index.js';
import { redisClient } from './clients.js';

/** An instance and how to stop it (its app, then its bus). */
export interface BusInstance {
  readonly app: FusionApp;
  close(): Promise<void>;
}

/**
 * One instance in this process on the shared Redis under `prefix`: its own Redis bus (`<prefix>bus:`) and
 * the shared legacy sessions (`<prefix>session:`), given to `build`, which makes the app.
 */
export async function busInstance(
  client: Redis,
  prefix: string,
  build: (parts: { bus: RedisEventBus; sessionStore: RedisSessionStore }) => FusionApp,
): Promise<BusInstance> {
  const bus = new RedisEventBus({ publisher: client, subscriber: redisClient(), prefix: `${prefix}bus:` });
  await bus.ready();
  const app = build({ bus, sessionStore: new RedisSessionStore({ client, prefix: `${prefix}session:` }) });
  return { app, close: async () => (await app.close(), await bus.close()) };
}

/** A 2025-11-25 SDK client named `name` whose requests go to `to.app` (switch it to move the next request). */
export async function legacyClientTo(to: { app: FusionApp }, name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => {
        const request = new Request(url, init);
        request.headers.set('host', '127.0.0.1');
        return to.app.fetch(request);
      },
    }),
  );
  return client;
}
