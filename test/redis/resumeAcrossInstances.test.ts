import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it, vi } from 'vitest';
import { initFusion, startServer } from '../../src/index.js';
import { RedisEventBus, RedisEventStore, RedisFsmStore, RedisSessionStore } from '../../src/redis/index.js';
import { dropProxy } from '../_helpers/dropProxy.js';
import { ready, redisClient, uniquePrefix } from './clients.js';
import { until } from './helpers.js';

const f = initFusion();
const flow = f.fsm({ id: 'flow', initial: 'a', states: { a: { on: { NEXT: 'b' } }, b: { on: { NEXT: 'a' } } } });
const uris = [1, 2, 3].map((n) => `test://r${n}`);
const registry = f.registry().registerAll(
  f
    .action('step.ab')
    .describe('Moves the flow from a to b')
    .bindState('a', 'NEXT')
    .handle(() => 'now b'),
  f
    .action('step.ba')
    .describe('Moves the flow from b to a')
    .bindState('b', 'NEXT')
    .handle(() => 'now a'),
  ...uris.map((uri, i) =>
    f
      .resource(uri)
      .name(`r${i + 1}`)
      .describe('A watched resource')
      .mimeType('text/plain')
      .handle(() => uri),
  ),
);

/** One instance on the shared Redis: sessions, workflow state, the bus and the event store. */
async function instance(prefix: string) {
  const client = await ready(redisClient());
  const bus = new RedisEventBus({ publisher: client, subscriber: redisClient(), prefix: `${prefix}bus:` });
  await bus.ready();
  const eventStore = new RedisEventStore({ client, prefix: `${prefix}events:` });
  const server = await startServer(registry, {
    port: 0,
    fsm: flow,
    resourceSubscriptions: true,
    sessionStore: new RedisSessionStore({ client, prefix: `${prefix}session:` }),
    fsmStore: new RedisFsmStore({ client, prefix: `${prefix}fsm:` }),
    bus,
    eventStore,
    sseRetryMs: 20,
    listChangedDebounceMs: 0,
  });
  return {
    server,
    eventStore,
    port: Number(new URL(server.url).port),
    close: async () => (await server.close(), await bus.close()),
  };
}

describe('resumable legacy SSE streams across instances (RedisEventStore, real redis-server)', () => {
  it('a client whose GET stream on A drops resumes on B with Last-Event-ID: what it missed arrives once, in order, and later bus notifications once', async () => {
    const prefix = uniquePrefix('resume');
    const a = await instance(prefix);
    const b = await instance(prefix);
    await using proxy = await dropProxy(a.port);
    const received: string[] = [];
    const gets: Array<string | null> = [];
    const client = new Client({ name: 'resume', version: '1.0.0' });
    client.setNotificationHandler('notifications/resources/updated', (n) => void received.push(n.params.uri));
    client.setNotificationHandler('notifications/tools/list_changed', () => void received.push('tools/list_changed'));
    const transport = new StreamableHTTPClientTransport(proxy.url, {
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (init?.method === 'GET' && response.ok) gets.push(new Headers(init.headers).get('last-event-id'));
        return response;
      },
    });
    try {
      await client.connect(transport);
      for (const uri of uris) await client.subscribeResource({ uri });
      await until(() => gets.length === 1, 3_000, 'the GET stream on A');
      await a.server.notifyResourceUpdated(uris[0]!);
      await until(() => received.length === 1, 3_000, 'the first update');

      // A's network path fails; while the client waits, A raises two more updates; it reconnects to B.
      proxy.hold();
      proxy.drop();
      await a.server.notifyResourceUpdated(uris[1]!);
      await a.server.notifyResourceUpdated(uris[2]!);
      proxy.target = b.port;
      proxy.release();
      await until(() => gets.length === 2, 3_000, 'the GET stream resumed on B');
      await until(() => received.length === 3, 3_000, 'the missed updates');
      expect(received).toEqual(uris);

      // A workflow step served by B: the session's list_changed goes over the bus to A and B, which both hold
      // the session live and both record it; the client hears it once, and the store holds it once.
      expect((await client.callTool({ name: 'step.ab', arguments: {} })).content).toEqual([
        { type: 'text', text: 'now b' },
        { type: 'text', text: 'Workflow "flow" is now in state "b". Next: step.ba.' },
      ]);
      await until(() => received.length === 4, 3_000, 'the list_changed');
      const replay = await b.eventStore.after(gets[1]!);
      expect(replay.found && replay.events.map((e) => (e.message as { method: string }).method)).toEqual([
        'notifications/resources/updated',
        'notifications/resources/updated',
        'notifications/tools/list_changed',
      ]);
      expect(received).toEqual([...uris, 'tools/list_changed']);
    } finally {
      await client.close();
      await a.close();
      await b.close();
    }
  });

  it('a modern listen stream on A that drops resumes on B with Last-Event-ID: the missed events once, in order, then live ones once', async () => {
    const prefix = uniquePrefix('resume-modern');
    const a = await instance(prefix);
    const b = await instance(prefix);
    await using proxy = await dropProxy(a.port);
    const heard: string[] = [];
    const resumes: Array<{ lastEventId: string | null; status: number }> = [];
    /** Event ids the client read on its listen stream before the drop. */
    const seen: string[] = [];
    const client = new Client({ name: 'resume', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    client.setNotificationHandler('notifications/resources/updated', (n) => void heard.push(n.params.uri));
    const transport = new StreamableHTTPClientTransport(proxy.url, {
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (init?.method === 'GET')
          resumes.push({ lastEventId: new Headers(init.headers).get('last-event-id'), status: response.status });
        if (init?.method !== 'POST' || response.body === null || !String(init.body).includes('subscriptions/listen'))
          return response;
        const [mine, theirs] = response.body.tee();
        void (async () => {
          const decoder = new TextDecoder();
          try {
            const reader = mine.getReader();
            for (let read = await reader.read(); !read.done; read = await reader.read()) {
              for (const [, id] of decoder.decode(read.value).matchAll(/^id: (.+)$/gm)) seen.push(id!);
            }
          } catch {
            // The drop.
          }
        })();
        return new Response(theirs, response);
      },
    });
    try {
      await client.connect(transport);
      expect(client.getProtocolEra()).toBe('modern');
      await client.listen({ resourceSubscriptions: uris });
      await a.server.notifyResourceUpdated(uris[0]!);
      await until(() => heard.length === 1, 3_000, 'the first update');
      proxy.hold();
      proxy.drop();
      await a.server.notifyResourceUpdated(uris[1]!);
      await b.server.notifyResourceUpdated(uris[2]!);
      // The two updates are recorded (by A's copy of the stream, which goes on recording after the drop).
      await vi.waitFor(
        async () => expect(await a.eventStore.after(seen.at(-1)!)).toMatchObject({ found: true, events: [{}, {}] }),
        { timeout: 3_000, interval: 10 },
      );
      proxy.target = b.port;
      proxy.release();
      await until(() => resumes.length === 1, 3_000, 'the resume on B');
      expect(resumes[0]!.lastEventId).toBe(seen.at(-1));
      expect(resumes[0]!.status).toBe(200);
      await until(() => heard.length === 3, 3_000, 'the missed updates');
      // Live on B now, while A's copy of the stream still records the same events (for its resume window).
      await a.server.notifyResourceUpdated(uris[0]!);
      await until(() => heard.length === 4, 3_000, 'the live update');
      expect(heard).toEqual([...uris, uris[0]]);
      const replay = await b.eventStore.after(resumes[0]!.lastEventId!);
      expect(replay.found && replay.events.map((e) => (e.message as { params: { uri: string } }).params.uri)).toEqual([
        uris[1],
        uris[2],
        uris[0],
      ]);
    } finally {
      await client.close();
      await a.close();
      await b.close();
    }
  });
});
