import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { createFusionApp, initFusion, type FusionApp } from '../../src/index.js';
import { busInstance, legacyClientTo } from './_busInstances.js';
import { ready, redisClient, uniquePrefix } from './clients.js';

const f = initFusion();

/** A documents resource that mirrors the `docs.*` domain, a mutation that invalidates it, and a read. */
function registry() {
  return f.registry().registerAll(
    f
      .resource('docs://all')
      .describe('Every document')
      .reflects('docs.*')
      .handle(() => '[]'),
    f
      .mutation('docs.add')
      .invalidates('docs.*')
      .handle(() => 'Added.'),
    f
      .resource('pings://last')
      .describe('The last ping')
      .reflects('pings.*')
      .handle(() => 'never'),
    f
      .mutation('pings.send')
      .invalidates('pings.*')
      .handle(() => 'Pinged.'),
  );
}

/** One instance in this process on the shared Redis under `prefix`, with the Redis bus. */
const instance = (client: Redis, prefix: string) =>
  busInstance(client, prefix, ({ bus, sessionStore }) =>
    createFusionApp(registry(), {
      drainMs: 0,
      eventStore: false,
      resourceSubscriptions: true,
      stateSync: { policies: [] },
      sessionStore,
      bus,
    }),
  );

const legacyClient = (to: { app: FusionApp }): Promise<Client> => legacyClientTo(to, 'subscriber');

/** Records `notifications/resources/updated`; `next(n)` resolves once `n` have arrived. */
function updates(client: Client) {
  const seen: string[] = [];
  let waiting: { count: number; resolve: () => void } | undefined;
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    seen.push(n.params.uri);
    if (waiting !== undefined && seen.length >= waiting.count) waiting.resolve();
  });
  const next = (count: number): Promise<void> =>
    seen.length >= count ? Promise.resolve() : new Promise((resolve) => (waiting = { count, resolve }));
  return { seen, next };
}

describe('legacy resource subscriptions across instances (real Redis, shared bus)', () => {
  let redis: Redis;
  let a: Awaited<ReturnType<typeof instance>>;
  let b: Awaited<ReturnType<typeof instance>>;
  beforeAll(async () => {
    redis = await ready(redisClient());
    const prefix = uniquePrefix('subs');
    a = await instance(redis, prefix);
    b = await instance(redis, prefix);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('a subscription taken on A hears the update of an invalidating call on B, once, and on A too', async () => {
    const to = { app: a.app };
    const watcher = await legacyClient(to);
    const { seen, next } = updates(watcher);
    const other = await legacyClient({ app: b.app });
    try {
      await watcher.subscribeResource({ uri: 'docs://all' });
      await watcher.subscribeResource({ uri: 'pings://last' });
      // Another client's invalidating call on B.
      await other.callTool({ name: 'docs.add', arguments: {} });
      await next(1);
      expect(seen).toEqual(['docs://all']);
      // The watcher's own call, now sent to B (no affinity), and then one on A: each heard once.
      to.app = b.app;
      await watcher.callTool({ name: 'docs.add', arguments: {} });
      await next(2);
      to.app = a.app;
      await watcher.callTool({ name: 'docs.add', arguments: {} });
      await next(3);
      // A last update of another resource, by the same path: a duplicate of the first three would precede it.
      await other.callTool({ name: 'pings.send', arguments: {} });
      await next(4);
      expect(seen).toEqual(['docs://all', 'docs://all', 'docs://all', 'pings://last']);
    } finally {
      await watcher.close();
      await other.close();
    }
  });

  it('a subscription taken again on B, or ended through another instance, has one holder or none', async () => {
    const to = { app: a.app };
    const watcher = await legacyClient(to);
    const { seen, next } = updates(watcher);
    // The changes are made on B: whatever B sends reaches the watcher through Redis before the ping's update.
    const other = await legacyClient({ app: b.app });
    try {
      await watcher.subscribeResource({ uri: 'docs://all' });
      await watcher.subscribeResource({ uri: 'pings://last' });
      // Taken again on B: A drops its own, so an update is heard once.
      to.app = b.app;
      await watcher.subscribeResource({ uri: 'docs://all' });
      await other.callTool({ name: 'docs.add', arguments: {} });
      await other.callTool({ name: 'pings.send', arguments: {} });
      await next(2);
      expect(seen).toEqual(['docs://all', 'pings://last']);
      // Ended through A while B holds it: the end travels the bus to B (A's message, not ordered with B's own
      // calls), so an update B makes at once may still go out; within a few rounds B has dropped it, for good.
      to.app = a.app;
      await watcher.unsubscribeResource({ uri: 'docs://all' });
      const round = async (): Promise<string[]> => {
        const before = seen.length;
        await other.callTool({ name: 'docs.add', arguments: {} });
        await other.callTool({ name: 'pings.send', arguments: {} });
        await next(before + 1);
        if (seen[before] === 'docs://all') await next(before + 2);
        return seen.slice(before);
      };
      let heard = await round();
      for (let i = 0; i < 20 && heard.includes('docs://all'); i++) heard = await round();
      expect(heard).toEqual(['pings://last']);
      expect(await round()).toEqual(['pings://last']);
      expect(await round()).toEqual(['pings://last']);
    } finally {
      await watcher.close();
      await other.close();
    }
  });
});
