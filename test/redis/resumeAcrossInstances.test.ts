import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { initFusion, startServer } from '../../src/index.js';
import { RedisEventBus, RedisEventStore, RedisFsmStore, RedisSessionStore } from '../../src/redis/index.js';
import { dropProxy } from '../_helpers/dropProxy.js';
import { heard } from '../_helpers/heard.js';
import { ready, redisClient, uniquePrefix } from './clients.js';

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

/** The real Redis event store, signalling every event it stored (for waits on the event, not on time). */
class SignallingStore extends RedisEventStore {
  readonly appended = heard<string>();
  override async append(stream: string, message: object, key?: string): Promise<string> {
    const id = await super.append(stream, message, key);
    this.appended.push(id);
    return id;
  }
}

/** One instance on the shared Redis: sessions, workflow state, the bus and the event store. */
async function instance(prefix: string) {
  const client = await ready(redisClient());
  const bus = new RedisEventBus({ publisher: client, subscriber: redisClient(), prefix: `${prefix}bus:` });
  await bus.ready();
  const eventStore = new SignallingStore({ client, prefix: `${prefix}events:` });
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

// Every wait is on the event itself (a notification heard, a stream opened, an event stored), never on a
// deadline: on a loaded machine the steps only take longer. Two instances, a proxy and a client per test: the
// bound is wider than the default.
describe(
  'resumable legacy SSE streams across instances (RedisEventStore, real redis-server)',
  { timeout: 60_000 },
  () => {
    it('a client whose GET stream on A drops resumes on B with Last-Event-ID: what it missed arrives once, in order, and later bus notifications once', async () => {
      const prefix = uniquePrefix('resume');
      const a = await instance(prefix);
      const b = await instance(prefix);
      await using proxy = await dropProxy(a.port);
      const received = heard<string>();
      const gets = heard<string | null>();
      const client = new Client({ name: 'resume', version: '1.0.0' });
      client.setNotificationHandler('notifications/resources/updated', (n) => received.push(n.params.uri));
      client.setNotificationHandler('notifications/tools/list_changed', () => received.push('tools/list_changed'));
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
        await gets.reached(1);
        await a.server.notifyResourceUpdated(uris[0]!);
        await received.reached(1);

        // A's network path fails; while the client waits, A raises two more updates; it reconnects to B.
        proxy.hold();
        proxy.drop();
        await a.server.notifyResourceUpdated(uris[1]!);
        await a.server.notifyResourceUpdated(uris[2]!);
        proxy.target = b.port;
        proxy.release();
        await gets.reached(2);
        await received.reached(3);
        expect(received.items).toEqual(uris);

        // A workflow step served by B: the session's list_changed goes over the bus to A and B, which both hold
        // the session live and both record it; the client hears it once, and the store holds it once.
        expect((await client.callTool({ name: 'step.ab', arguments: {} })).content).toEqual([
          { type: 'text', text: 'now b' },
          { type: 'text', text: 'Workflow "flow" is now in state "b". Next: step.ba.' },
        ]);
        await received.reached(4);
        const replay = await b.eventStore.after(gets.items[1]!);
        expect(replay.found && replay.events.map((e) => (e.message as { method: string }).method)).toEqual([
          'notifications/resources/updated',
          'notifications/resources/updated',
          'notifications/tools/list_changed',
        ]);
        expect(received.items).toEqual([...uris, 'tools/list_changed']);
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
      const updates = heard<string>();
      const resumes = heard<{ lastEventId: string | null; status: number }>();
      /** Event ids the client read on its listen stream before the drop. */
      const seen: string[] = [];
      /** The ids of the updates among them (the copy read here may lag the client's own). */
      const seenUpdates = heard<string>();
      const client = new Client({ name: 'resume', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      client.setNotificationHandler('notifications/resources/updated', (n) => updates.push(n.params.uri));
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
            // Whole frames only: under load a frame may arrive split across chunks.
            let pending = '';
            try {
              const reader = mine.getReader();
              for (let read = await reader.read(); !read.done; read = await reader.read()) {
                pending += decoder.decode(read.value, { stream: true });
                const frames = pending.split('\n\n');
                pending = frames.pop()!;
                for (const frame of frames) {
                  const id = /^id: (.+)$/m.exec(frame)?.[1];
                  if (id === undefined) continue;
                  seen.push(id);
                  if (frame.includes('notifications/resources/updated')) seenUpdates.push(id);
                }
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
        await updates.reached(1);
        await seenUpdates.reached(1);
        const stored = a.eventStore.appended.items.length;
        proxy.hold();
        proxy.drop();
        await a.server.notifyResourceUpdated(uris[1]!);
        // Recorded before B publishes: A's and B's publishes travel on two Redis connections, in either order.
        await a.eventStore.appended.reached(stored + 1);
        await b.server.notifyResourceUpdated(uris[2]!);
        // The two updates are recorded (by A's copy of the stream, which goes on recording after the drop).
        await a.eventStore.appended.reached(stored + 2);
        expect(await a.eventStore.after(seen.at(-1)!)).toMatchObject({ found: true, events: [{}, {}] });
        proxy.target = b.port;
        proxy.release();
        await resumes.reached(1);
        expect(resumes.items[0]!.lastEventId).toBe(seen.at(-1));
        expect(resumes.items[0]!.status).toBe(200);
        await updates.reached(3);
        // Live on B now, while A's copy of the stream still records the same events (for its resume window).
        await a.server.notifyResourceUpdated(uris[0]!);
        await updates.reached(4);
        expect(updates.items).toEqual([...uris, uris[0]]);
        const replay = await b.eventStore.after(resumes.items[0]!.lastEventId!);
        expect(replay.found && replay.events.map((e) => (e.message as { params: { uri: string } }).params.uri)).toEqual(
          [uris[1], uris[2], uris[0]],
        );
      } finally {
        await client.close();
        // The proxy's sockets first: an instance closing lingers while a socket that carried a request is open.
        await proxy[Symbol.asyncDispose]();
        await a.close();
        await b.close();
      }
    });
  },
);
