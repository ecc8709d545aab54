import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, request } from '../_helpers/raw.js';
import { countCommands, perCall } from '../../bench/commandCount.js';
import { modernCall, until, workspaceInstance } from './helpers.js';
import { ready, redisClient, uniquePrefix } from './clients.js';
import { startRedisServer, type RedisServer } from './redisServer.js';

const CALLS = 4;
const handleOf = (message: any): string => /checkout_id: (che_[\w-]+)/.exec(JSON.stringify(message.result))![1]!;

/**
 * Redis commands per call of each kind, against the example's wiring on a private redis-server (the
 * counts are server-wide). "Sent" are round trips (MONITOR, commands not issued by a script); "executed"
 * adds the scripts' inner commands (INFO commandstats).
 */
describe('Redis commands per call (INFO commandstats + MONITOR, private redis-server)', () => {
  let redis: RedisServer;
  let instance: Awaited<ReturnType<typeof workspaceInstance>>;
  /** The session (or `event`) of each message Redis delivered on the instance's bus: the signal that a publish happened. */
  const published: string[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
    const prefix = uniquePrefix('count');
    instance = await workspaceInstance(prefix, redis.url);
    const watcher = await ready(redisClient(redis.url));
    watcher.on(
      'pmessage',
      (_pattern: string, _channel: string, message: string) =>
        void published.push((JSON.parse(message) as { s?: string }).s ?? 'event'),
    );
    await watcher.psubscribe(`${prefix}bus:*`);
  }, 20_000);
  afterAll(async () => {
    await instance?.close();
    await redis?.stop();
  });

  /**
   * Waits until everything earlier calls scheduled has reached Redis: a transition on a fresh session
   * publishes a debounced list_changed, whose timer fires after every timer scheduled before it with the
   * same debounce, on the same connection as every earlier command; its delivery is the barrier. Resolves
   * the number of messages published before it.
   */
  const settled = async (): Promise<number> => {
    const sid = await openSession(instance.app);
    await request(instance.app, sid, 1, 'tools/call', { name: 'cart.add_item', arguments: { product_id: 'barrier' } });
    await until(() => published.includes(sid), 3_000, 'the barrier publish');
    return published.indexOf(sid);
  };

  /** Commands per call of `task`, which must publish `publishes` messages per call: no fewer (waited for), no more (checked after a barrier). */
  const measure = async (publishes: number, task: (i: number) => Promise<void>) => {
    const before = published.length;
    const count = await countCommands(redis.url, async () => {
      for (let i = 0; i < CALLS; i++) await task(i);
      // The debounced list_changed and resources/updated are published after the answer: wait for their delivery.
      await until(() => published.length - before >= publishes * CALLS, 3_000, `${publishes * CALLS} publishes`);
    });
    const cost = perCall(count, CALLS);
    expect((await settled()) - before).toBe(publishes * CALLS);
    return cost;
  };

  it('legacy gated call without a transition: 2 round trips (acquire+load, end), 0 publishes', async () => {
    const sid = await openSession(instance.app);
    await request(instance.app, sid, 1, 'tools/call', { name: 'cart.add_item', arguments: { product_id: 'p' } });
    await settled();
    const cost = await measure(0, async (i) => {
      const { message } = await request(instance.app, sid, 10 + i, 'tools/call', {
        name: 'cart.add_item',
        arguments: { product_id: 'p' },
      });
      expect(message.result.isError).not.toBe(true);
    });
    expect(cost.sent).toEqual({ evalsha: 2 });
    expect(cost.executed).toEqual({ evalsha: 2, set: 1, hget: 1, get: 1, del: 1 });
  });

  it('legacy gated call with a transition: 2 round trips + 1 publish of tools/list_changed', async () => {
    const sids = await Promise.all(Array.from({ length: CALLS }, () => openSession(instance.app)));
    // A session's first use writes its record once (created → active); that is not a per-call cost.
    for (const sid of sids) await request(instance.app, sid, 0, 'tools/list');
    await settled();
    const cost = await measure(1, async (i) => {
      const { message } = await request(instance.app, sids[i]!, 1, 'tools/call', {
        name: 'cart.add_item',
        arguments: { product_id: 'p' },
      });
      expect(message.result.content.at(-1).text).toMatch(/now in state "has_items"/);
    });
    expect(cost.sent).toEqual({ evalsha: 2, publish: 1 });
    expect(cost.roundTrips).toBe(3);
    expect(cost.executed).toEqual({ evalsha: 2, set: 1, hget: 2, get: 1, del: 1, hset: 1, persist: 1, publish: 1 });
  });

  it('legacy gated tools/list: 1 round trip (HGET of the state)', async () => {
    const sid = await openSession(instance.app);
    await request(instance.app, sid, 1, 'tools/list');
    const cost = await measure(0, async (i) => {
      const { message } = await request(instance.app, sid, 10 + i, 'tools/list');
      expect(message.result.tools.length).toBeGreaterThan(0);
    });
    expect(cost.sent).toEqual({ hget: 1 });
    expect(cost.executed).toEqual({ hget: 1 });
  });

  it('modern gated call with its handle, no transition: 2 round trips (the expiry slides inside the second)', async () => {
    const handle = handleOf((await modernCall(instance.app, 1, 'cart.add_item', { product_id: 'p' })).message);
    await settled();
    const cost = await measure(0, async (i) => {
      const { message } = await modernCall(instance.app, 10 + i, 'cart.add_item', {
        product_id: 'p',
        checkout_id: handle,
      });
      expect(message.result.isError).not.toBe(true);
    });
    expect(cost.sent).toEqual({ evalsha: 2 });
    expect(cost.executed).toEqual({ evalsha: 2, set: 1, hget: 2, get: 1, del: 1, hset: 1, pexpireat: 1 });
  });

  it('modern gated call with its handle and a transition: 2 round trips + 1 publish of resources/updated', async () => {
    const handles: string[] = [];
    for (let i = 0; i < CALLS; i++)
      handles.push(handleOf((await modernCall(instance.app, i, 'cart.add_item', { product_id: 'p' })).message));
    await settled();
    const cost = await measure(1, async (i) => {
      const { message } = await modernCall(instance.app, 10 + i, 'cart.checkout', { checkout_id: handles[i] });
      expect(message.result.isError).not.toBe(true);
    });
    expect(cost.sent).toEqual({ evalsha: 2, publish: 1 });
    expect(cost.roundTrips).toBe(3);
  });

  it('ungated calls cost nothing in either era', async () => {
    const sid = await openSession(instance.app);
    await request(instance.app, sid, 1, 'tools/list');
    await settled();
    const cost = await measure(0, async (i) => {
      expect(
        (await request(instance.app, sid, 10 + i, 'tools/call', { name: 'countries.list', arguments: {} })).message
          .result.isError,
      ).not.toBe(true);
      expect((await modernCall(instance.app, 20 + i, 'countries.list', {})).message.result.isError).not.toBe(true);
    });
    expect(cost.sent).toEqual({});
    expect(cost.executed).toEqual({});
  });
});
