import { describe, expect, it } from 'vitest';
import { createFusionApp, type FusionApp } from '../../src/index.js';
import { RedisEventBus, RedisFsmStore } from '../../src/redis/index.js';
import { redisClient, ready, uniquePrefix } from '../redis/clients.js';
import { v2FetchClient } from '../_helpers/clients.js';
import { gate, options, registry } from './fixture.js';
import type { Transcript } from '../../src/console/types.js';
import { consoleRequest, consoleStream, type SeenEvent } from './stream.js';

const TOKEN = 'hub-test-token';
const openStream = (app: FusionApp) => consoleStream(app, TOKEN);

describe('the dev console hub', () => {
  it('keeps the latest maxEvents events (a ring buffer) and answers loopback peers only', async () => {
    const app = createFusionApp(registry, { ...options, devConsole: { token: TOKEN, maxEvents: 3 } });
    try {
      const live = await openStream(app);
      await using client = await v2FetchClient(app);
      const seen: SeenEvent[] = [];
      for (let i = 0; i < 5; i++) {
        await client.callTool({ name: 'sprints.list', arguments: {} });
        seen.push(await live.next((e) => e.type === 'result'));
      }
      await live.close();
      const later = await openStream(app);
      expect(later.snapshot.events).toHaveLength(3);
      expect(later.snapshot.events.at(-1)).toEqual(seen.at(-1));
      expect(later.snapshot.events.map((e) => e.seq)).toEqual([
        seen.at(-1)!.seq - 2,
        seen.at(-1)!.seq - 1,
        seen.at(-1)!.seq,
      ]);
      await later.close();
      for (const peer of ['10.0.0.7', undefined]) {
        const response = await app.fetch(consoleRequest('/console', TOKEN), peer === undefined ? {} : { peer });
        expect(response.status).toBe(403);
        expect(await response.text()).toMatch(/^Forbidden: the dev console answers connections from 127\.0\.0\.1/);
      }
    } finally {
      await app.close();
    }
  });

  it('lists modern workflow instances by their key, with their owner and state', async () => {
    const app = createFusionApp(registry, { ...options, devConsole: { token: TOKEN } });
    try {
      const stream = await consoleStream(app, TOKEN);
      await using client = await v2FetchClient(app, 'auto');
      await client.callTool({ name: 'cart.add', arguments: {} });
      const transition = await stream.next((e) => e.type === 'transition');
      expect(transition).toMatchObject({
        type: 'transition',
        from: 'empty',
        to: 'full',
        workflowKey: expect.any(String),
      });
      const result = await stream.next((e) => e.type === 'result');
      await stream.close();
      const later = await consoleStream(app, TOKEN);
      const row = later.snapshot.sessions.find((r) => r.kind === 'workflow');
      expect(row).toMatchObject({
        key: (transition as { workflowKey: string }).workflowKey,
        kind: 'workflow',
        state: 'full',
        principal: (result as { principal: string }).principal,
        calls: 1,
      });
      await later.close();
    } finally {
      await app.close();
    }
  });

  it('shows, on one instance, the calls and transitions served by another sharing Redis', async () => {
    const prefix = uniquePrefix('console');
    const instance = async (): Promise<{ app: FusionApp; bus: RedisEventBus }> => {
      const bus = new RedisEventBus({
        publisher: await ready(redisClient()),
        subscriber: redisClient(),
        prefix: `${prefix}bus:`,
      });
      await bus.ready();
      const fsmStore = new RedisFsmStore({ client: await ready(redisClient()), prefix: `${prefix}fsm:` });
      return {
        app: createFusionApp(registry, { ...options, fsm: gate, fsmStore, bus, devConsole: { token: TOKEN } }),
        bus,
      };
    };
    const a = await instance();
    const b = await instance();
    try {
      const stream = await openStream(b.app);
      await using client = await v2FetchClient(a.app);
      await client.callTool({ name: 'cart.add', arguments: {} });
      const transition = await stream.next((e) => e.type === 'transition');
      const result = await stream.next((e) => e.type === 'result');
      expect(transition).toMatchObject({ type: 'transition', from: 'empty', to: 'full', tool: 'cart.add' });
      expect(result).toMatchObject({ type: 'result', tool: 'cart.add', ok: true });
      // B exports the session A served, with the list it saw after each step.
      const exported = (await (
        await b.app.fetch(
          consoleRequest(`/console/transcript?key=${(result as { sessionId: string }).sessionId}`, TOKEN),
          { peer: '127.0.0.1' },
        )
      ).json()) as Transcript;
      expect(exported.steps).toEqual([
        expect.objectContaining({
          tool: 'cart.add',
          visible: ['cart.pay', 'cart.clear', 'sprints.create', 'sprints.list', 'boom'],
        }),
      ]);
      // Served by A, heard by B: it carries A's instance id, not B's.
      const own = (await openStream(a.app)).snapshot.events.find((e) => e.type === 'result')!;
      expect(own.instance).toBe(result.instance);
      await stream.close();
    } finally {
      await a.app.close();
      await b.app.close();
      await a.bus.close();
      await b.bus.close();
    }
  });
});
