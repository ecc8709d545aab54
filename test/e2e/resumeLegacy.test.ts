import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { initFusion, MemoryEventStore, startServer, type StartServerOptions } from '../../src/index.js';
import { dropProxy } from '../_helpers/dropProxy.js';
import { until } from '../redis/helpers.js';

const f = initFusion();
const uris = [1, 2, 3, 4, 5].map((n) => `test://r${n}`);
const registry = f.registry().registerAll(
  f
    .query('ping')
    .describe('Answers pong')
    .handle(() => 'pong'),
  ...uris.map((uri, i) =>
    f
      .resource(uri)
      .name(`r${i + 1}`)
      .describe('A watched resource')
      .mimeType('text/plain')
      .handle(() => uri),
  ),
);

/** A legacy SDK client over HTTP (through `url`) that records resource updates and the GET requests it makes. */
async function legacyClient(url: URL) {
  const updates: string[] = [];
  const gets: Array<string | null> = [];
  const refusals: Array<{ lastEventId: string | null; status: number; message: string }> = [];
  const client = new Client({ name: 'resume', version: '1.0.0' });
  client.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
  const transport = new StreamableHTTPClientTransport(url, {
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const lastEventId = new Headers(init?.headers).get('last-event-id');
      if (init?.method === 'GET' && response.ok) gets.push(lastEventId);
      else if (init?.method === 'GET') {
        const body = (await response.clone().json()) as { error: { message: string } };
        refusals.push({ lastEventId, status: response.status, message: body.error.message });
      }
      return response;
    },
  });
  await client.connect(transport);
  for (const uri of uris) await client.subscribeResource({ uri });
  // The standalone GET stream is open (and primed) once its response arrived.
  await until(() => gets.length === 1, 3_000, 'the GET stream');
  return { client, updates, gets, refusals, [Symbol.asyncDispose]: () => client.close() };
}

describe('resumable legacy SSE streams (SDK client over HTTP, one instance)', () => {
  const options = (store: MemoryEventStore): StartServerOptions<void> => ({
    port: 0,
    resourceSubscriptions: true,
    eventStore: store,
    sseRetryMs: 20,
  });

  it('a client whose GET stream drops reconnects with Last-Event-ID and receives what it missed, once and in order', async () => {
    const store = new MemoryEventStore();
    const server = await startServer(registry, options(store));
    await using proxy = await dropProxy(Number(new URL(server.url).port));
    try {
      await using c = await legacyClient(proxy.url);
      await server.notifyResourceUpdated(uris[0]!);
      await until(() => c.updates.length === 1, 3_000, 'the first update');
      // The network fails and the client's reconnect waits: three updates happen meanwhile.
      proxy.hold();
      proxy.drop();
      for (const uri of uris.slice(1, 4)) await server.notifyResourceUpdated(uri);
      await until(() => proxy.held > 0, 3_000, 'the reconnect');
      proxy.release();
      await until(() => c.gets.length === 2, 3_000, 'the resumed GET stream');
      await server.notifyResourceUpdated(uris[4]!);
      await until(() => c.updates.length >= 5, 3_000, 'every update');
      expect(c.gets[0]).toBeNull();
      expect(c.gets[1]).toMatch(/^s:[0-9a-f-]{36}\/_GET_stream#[0-9a-f]+\.\d+$/);
      expect(c.updates).toEqual(uris);
      // And the session still works.
      expect((await c.client.callTool({ name: 'ping', arguments: {} })).content).toEqual([
        { type: 'text', text: 'pong' },
      ]);
      expect(c.updates).toEqual(uris);
    } finally {
      await server.close();
    }
  });

  it('refuses a Last-Event-ID whose events were evicted, saying so, instead of resuming with a gap', async () => {
    const store = new MemoryEventStore({ maxEventsPerStream: 2 });
    const server = await startServer(registry, options(store));
    await using proxy = await dropProxy(Number(new URL(server.url).port));
    try {
      await using c = await legacyClient(proxy.url);
      await server.notifyResourceUpdated(uris[0]!);
      await until(() => c.updates.length === 1, 3_000, 'the first update');
      proxy.hold();
      proxy.drop();
      // Four updates while the client is away: the stream keeps two, so the one after its last id is gone.
      for (const uri of uris.slice(1)) await server.notifyResourceUpdated(uri);
      proxy.release();
      await until(() => c.refusals.length > 0, 3_000, 'the refused reconnect');
      const [refusal] = c.refusals;
      expect(refusal!.status).toBe(410);
      expect(refusal!.message).toBe(
        `Cannot resume: Last-Event-ID "${refusal!.lastEventId}" cannot be replayed: the events after it were evicted (the stream outgrew its event budget). Open the stream again without Last-Event-ID and list tools, prompts and resources again.`,
      );
      expect(c.updates).toEqual([uris[0]]);
    } finally {
      await server.close();
    }
  });
});
