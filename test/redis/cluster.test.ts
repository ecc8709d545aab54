import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StateMachineGate, type FsmConfig, type SessionNotification } from '../../src/index.js';
import { WorkflowSessions } from '../../src/advanced/index.js';
import { RedisEventBus, RedisFsmStore, RedisRateLimitStore, RedisSessionStore } from '../../src/redis/index.js';
import { openSession, request } from '../_helpers/raw.js';
import { runFsmStoreContract } from '../contracts/runFsmStoreContract.js';
import { runRateLimitStoreContract } from '../contracts/runRateLimitStoreContract.js';
import { runSessionStoreCompareAndSetContract, runSessionStoreContract } from '../contracts/runSessionStoreContract.js';
import { eventChannels } from '../../src/redis/_internal/eventShards.js';
import { clusterClient, ready, uniquePrefix } from './clients.js';
import { modernCall, until, workspaceInstance } from './helpers.js';
import { moveSlot, startRedisCluster, type RedisCluster } from './redisCluster.js';

let cluster: RedisCluster;
let client: Cluster;
const clients: Cluster[] = [];
const fresh = async (): Promise<Cluster> => {
  const c = await ready(clusterClient(cluster.nodes));
  clients.push(c);
  return c;
};

beforeAll(async () => {
  cluster = await startRedisCluster(3);
  client = await fresh();
}, 40_000);
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await cluster?.stop();
});

/** How many connections, over every master, are subscribed to a sharded channel (PUBSUB SHARDNUMSUB). */
async function shardSubscribers(channel: string): Promise<number> {
  let count = 0;
  for (const node of cluster.nodes)
    count += Number((await cluster.cli(node.port, 'pubsub', 'shardnumsub', channel)).trim().split('\n')[1]);
  return count;
}

async function untilAsync(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A chain s0 → s1 → … → s{n} on NEXT: every lost transition shows in the final state. */
function chain(n: number): FsmConfig {
  const states: FsmConfig['states'] = {};
  for (let i = 0; i < n; i++) states[`s${i}`] = { on: { NEXT: `s${i + 1}` } };
  states[`s${n}`] = { type: 'final' };
  return { id: 'chain', initial: 's0', states };
}

describe('RedisFsmStore on a 3-master Redis Cluster (FsmStateStore contract)', () => {
  runFsmStoreContract(() => new RedisFsmStore({ client, prefix: uniquePrefix('cfsm') }));
});

describe('RedisSessionStore on a 3-master Redis Cluster (SessionStore contract)', () => {
  runSessionStoreContract(() => new RedisSessionStore({ client, prefix: uniquePrefix('csession') }));
  runSessionStoreCompareAndSetContract(() => new RedisSessionStore({ client, prefix: uniquePrefix('csession') }));
});

describe('RedisRateLimitStore on a 3-master Redis Cluster (RateLimitStore contract)', () => {
  runRateLimitStoreContract(() => new RedisRateLimitStore({ client, prefix: uniquePrefix('cratelimit') }));

  it('counts one limit exactly across two instances (two cluster clients), with counters spread over the shards', async () => {
    const prefix = uniquePrefix('cshared');
    const [a, b] = [
      new RedisRateLimitStore({ client: await fresh(), prefix }),
      new RedisRateLimitStore({ client: await fresh(), prefix }),
    ];
    const counts = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).hit('u:["iss","alice"]:tools/call', 60_000)),
    );
    expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const slots = new Set<number>();
    for (let i = 0; i < 12; i++) {
      await a.hit(`principal-${i}`, 60_000);
      slots.add(Number(await client.cluster('KEYSLOT', `${prefix}principal-${i}`)));
    }
    expect(slots.size).toBeGreaterThan(6);
  });
});

describe('Redis Cluster layout', () => {
  it('puts a session record, its workflow state, its lock and its notification channel in one slot, and spreads sessions over the shards', async () => {
    const prefix = uniquePrefix('slots');
    const slots = new Set<number>();
    const owners = new Set<number>();
    const ranges = (await client.cluster('SLOTS')) as unknown as Array<[number, number, [string, number]]>;
    for (let i = 0; i < 24; i++) {
      const id = `5f0c${i}-session`;
      const keys = [
        `${prefix}session:{${id}}`,
        `${prefix}fsm:session:state:{${id}}`,
        `${prefix}fsm:session:lock:{${id}}`,
        `${prefix}bus:session:{${id}}`,
      ];
      const keySlots = await Promise.all(keys.map(async (k) => Number(await client.cluster('KEYSLOT', k))));
      expect(new Set(keySlots).size).toBe(1);
      slots.add(keySlots[0]!);
      owners.add(ranges.find(([start, end]) => start <= keySlots[0]! && keySlots[0]! <= end)![2][1]);
    }
    expect(slots.size).toBeGreaterThan(12);
    expect(owners.size).toBe(3);
    const store = new RedisFsmStore({ client, prefix: `${prefix}fsm:session:` });
    const lease = await store.acquire('5f0c0-session', { waitMs: 500 });
    expect(await lease.end({ state: 'a', updatedAt: 0, version: 1 })).toBe('saved');
  });

  it('delivers a session notification by sharded pub/sub only to the instances that watch the session, and listen events to all', async () => {
    const prefix = uniquePrefix('cbus');
    const make = async () => {
      const c = await fresh();
      const bus = new RedisEventBus({ publisher: c, subscriber: c, prefix });
      await bus.ready();
      return bus;
    };
    const [a, b, c] = await Promise.all([make(), make(), make()]);
    const got: Record<string, Array<[string, SessionNotification]>> = { b: [], c: [] };
    b.sessions.subscribe((id, n) => void got.b!.push([id, n]));
    c.sessions.subscribe((id, n) => void got.c!.push([id, n]));
    const events: string[] = [];
    c.subscribe((e) => void events.push(e.kind));
    const unwatch = await b.sessions.watch!('sess-1');
    await b.sessions.watch!('sess-2');
    a.sessions.publish('sess-1', { method: 'notifications/tools/list_changed' });
    a.sessions.publish('sess-2', { method: 'notifications/tools/list_changed' });
    a.publish({ kind: 'tools_list_changed' });
    await until(() => got.b!.length === 2 && events.length === 1, 3_000, 'sharded deliveries');
    // Two sessions, two slots (two shards, likely): each channel keeps its order, not the two together.
    expect([...got.b!].sort(([x], [y]) => x.localeCompare(y))).toEqual([
      ['sess-1', { method: 'notifications/tools/list_changed' }],
      ['sess-2', { method: 'notifications/tools/list_changed' }],
    ]);
    unwatch();
    unwatch();
    // Wait for the SUNSUBSCRIBE to land (no shard counts a subscriber of sess-1 any more), not a guessed 100 ms.
    await untilAsync(
      async () => (await shardSubscribers(`${prefix}session:{sess-1}`)) === 0,
      3_000,
      'the SUNSUBSCRIBE of sess-1',
    );
    a.sessions.publish('sess-1', { method: 'notifications/resources/list_changed' });
    a.sessions.publish('sess-2', { method: 'notifications/resources/list_changed' });
    await until(() => got.b!.length === 3, 3_000, 'the still-watched session');
    // sess-1 has no subscriber left (checked above), so Redis drops its message; a second sess-2 message is
    // the barrier: once it is in, b has heard everything it will hear of these publishes.
    a.sessions.publish('sess-2', { method: 'notifications/tools/list_changed' });
    await until(() => got.b!.length === 4, 3_000, 'the barrier message');
    expect(got.b!.slice(-2)).toEqual([
      ['sess-2', { method: 'notifications/resources/list_changed' }],
      ['sess-2', { method: 'notifications/tools/list_changed' }],
    ]);
    expect(got.c).toEqual([]);
    await Promise.all([a.close(), b.close(), c.close()]);
  });

  it('resolves ready() only once its sharded subscription is in place, also for a bus built before its client connected', async () => {
    const prefix = uniquePrefix('cready');
    const early = clusterClient(cluster.nodes);
    expect(early.status).not.toBe('ready');
    const bus = new RedisEventBus({ publisher: early, subscriber: early, prefix });
    await bus.ready();
    // Right then, not eventually: the owning master of each of the 16 event channels counts one subscriber.
    const channels = eventChannels(prefix, 16);
    expect(await Promise.all(channels.map(shardSubscribers))).toEqual(channels.map(() => 1));
    await bus.close();
  });

  it('spreads listen events over every master by URI, and delivers every one of them to the other instance', async () => {
    const prefix = uniquePrefix('cspread');
    const make = async () => {
      const bus = new RedisEventBus({ publisher: await fresh(), subscriber: await fresh(), prefix });
      await bus.ready();
      return bus;
    };
    const [a, b] = await Promise.all([make(), make()]);
    const got: string[] = [];
    b.subscribe((e) => void got.push(e.kind === 'resource_updated' ? e.uri : e.kind));
    const spublished = async (): Promise<number[]> =>
      Promise.all(
        cluster.nodes.map(async (n) =>
          Number(/cmdstat_spublish:calls=(\d+)/.exec(await cluster.cli(n.port, 'info', 'commandstats'))?.[1] ?? 0),
        ),
      );
    const before = await spublished();
    const sent: string[] = [];
    for (let i = 0; i < 300; i++) {
      const uri = `fusion://fsm/cart/h${i % 100}`;
      sent.push(uri);
      a.publish({ kind: 'resource_updated', uri });
    }
    a.publish({ kind: 'tools_list_changed' });
    await until(() => got.length === 301, 5_000, '301 events on the other instance');
    // Each URI rides one channel; across channels the order is free.
    for (let h = 0; h < 100; h++) expect(got.filter((u) => u === `fusion://fsm/cart/h${h}`)).toHaveLength(3);
    expect(got).toContain('tools_list_changed');
    const perMaster = (await spublished()).map((after, i) => after - before[i]!);
    expect(perMaster.reduce((x, y) => x + y)).toBe(301);
    // 16 channels over 3 masters, 100 URIs: every master carries a fair share (≥ 20 % of the events).
    for (const count of perMaster) expect(count).toBeGreaterThanOrEqual(60);
    await Promise.all([a.close(), b.close()]);
  });

  it("keeps delivering a watched session's notifications after its slot moved to another master", async () => {
    const prefix = uniquePrefix('cmove');
    const make = async () => {
      const c = await fresh();
      const bus = new RedisEventBus({ publisher: c, subscriber: c, prefix });
      await bus.ready();
      return bus;
    };
    const [a, b] = await Promise.all([make(), make()]);
    const got: string[] = [];
    b.sessions.subscribe((_id, n) => void got.push(n.method));
    await b.sessions.watch!('moving-session');
    a.sessions.publish('moving-session', { method: 'before' });
    await until(() => got.length === 1, 3_000, 'delivery before the move');
    await moveSlot(cluster, Number(await client.cluster('KEYSLOT', `${prefix}session:{moving-session}`)));
    // Delivery is at most once: a message published while the subscription moves may be lost, so publish until one arrives.
    const started = Date.now();
    for (let i = 0; !got.includes('after') && Date.now() - started < 12_000; i++) {
      a.sessions.publish('moving-session', { method: 'after' });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(got).toContain('after');
    await Promise.all([a.close(), b.close()]);
  }, 20_000);

  it('refuses a cluster subscriber without sharded subscribers, and a prefix with braces', () => {
    const plain = clusterClient(cluster.nodes, { shardedSubscribers: false, lazyConnect: true });
    expect(() => new RedisEventBus({ publisher: plain, subscriber: plain })).toThrow(
      /needs a subscriber Cluster built with \{ shardedSubscribers: true \}/,
    );
    expect(() => new RedisSessionStore({ client, prefix: 'x:{y}:' })).toThrow(/contains "\{" or "\}"/);
    plain.disconnect();
  });
});

describe('Redis commands per call on a cluster', () => {
  it('a modern gated call with its handle costs the same 2 scripts as on one node; a transition adds 1 SPUBLISH (INFO commandstats summed over the masters)', async () => {
    const instance = await workspaceInstance(uniquePrefix('ccount'), { nodes: cluster.nodes });
    const handles: string[] = [];
    for (let i = 0; i < 4; i++)
      handles.push(
        /checkout_id: (che_[\w-]+)/.exec(
          JSON.stringify((await modernCall(instance.app, i, 'cart.add_item', { product_id: 'p' })).message.result),
        )![1]!,
      );
    const stats = async (): Promise<Record<string, number>> => {
      const sum: Record<string, number> = {};
      for (const node of cluster.nodes) {
        for (const [, name, calls] of (await cluster.cli(node.port, 'info', 'commandstats')).matchAll(
          /^cmdstat_([^:]+):calls=(\d+)/gm,
        ))
          sum[name!] = (sum[name!] ?? 0) + Number(calls);
      }
      return sum;
    };
    const counted = ['evalsha', 'eval', 'spublish', 'publish', 'hget', 'hset', 'set', 'get', 'del', 'pexpireat'];
    const delta = (before: Record<string, number>, after: Record<string, number>) =>
      Object.fromEntries(counted.map((k) => [k, (after[k] ?? 0) - (before[k] ?? 0)]).filter(([, v]) => v !== 0));
    const before = await stats();
    for (let i = 0; i < 4; i++)
      expect(
        (await modernCall(instance.app, 10 + i, 'cart.add_item', { product_id: 'p', checkout_id: handles[i] })).message
          .result.isError,
      ).not.toBe(true);
    const middle = await stats();
    expect(delta(before, middle)).toEqual({ evalsha: 8, hget: 8, set: 4, get: 4, del: 4, hset: 4, pexpireat: 4 });
    for (let i = 0; i < 4; i++)
      expect(
        (await modernCall(instance.app, 20 + i, 'cart.checkout', { checkout_id: handles[i] })).message.result.isError,
      ).not.toBe(true);
    // resources/updated is published after the answer: wait until the four SPUBLISHes are counted.
    await untilAsync(async () => (delta(middle, await stats()).spublish ?? 0) >= 4, 3_000, 'the four SPUBLISHes');
    expect(delta(middle, await stats())).toEqual({
      evalsha: 8,
      hget: 8,
      set: 4,
      get: 4,
      del: 4,
      hset: 4,
      pexpireat: 4,
      spublish: 4,
    });
    await instance.close();
  });
});

describe('several instances on a Redis Cluster', () => {
  it("never lose a transition while the key's slot moves to another master: 2 × 20 concurrent NEXT calls end in s40 at version 40", async () => {
    const prefix = uniquePrefix('move');
    const sessions = await Promise.all(
      [0, 1].map(async () => {
        const gate = new StateMachineGate(chain(40), { engine: 'builtin' });
        gate.bindTool(
          'next',
          Array.from({ length: 40 }, (_, i) => `s${i}`),
          'NEXT',
        );
        return new WorkflowSessions(gate, { store: new RedisFsmStore({ client: await fresh(), prefix }) });
      }),
    );
    await sessions[0]!.run('moving', 'next', async () => ({}));
    const slot = Number(await client.cluster('KEYSLOT', `${prefix}state:{moving}`));
    const runs: Array<Promise<unknown>> = [];
    for (let i = 1; i < 40; i++)
      runs.push(sessions[i % 2]!.run('moving', 'next', async () => (await new Promise((r) => setTimeout(r, 2)), {})));
    const moved = await moveSlot(cluster, slot);
    const outcomes = (await Promise.all(runs)) as Array<{ outcome: string; persistError?: Error }>;
    expect(outcomes.filter((o) => o.outcome !== 'ran' || o.persistError !== undefined)).toEqual([]);
    expect(moved.keys).toBeGreaterThanOrEqual(1);
    expect(await sessions[1]!.snapshot('moving')).toMatchObject({ state: 's40', version: 40 });
    const owner = ((await client.cluster('SLOTS')) as unknown as Array<[number, number, [string, number]]>).find(
      ([s, e]) => s <= slot && slot <= e,
    )![2][1];
    expect(owner).toBe(moved.to);
  }, 30_000);

  it('serve one legacy session on two instances across a slot move: same state, once-only steps, nothing lost', async () => {
    const prefix = uniquePrefix('cinst');
    const [a, b] = await Promise.all([
      workspaceInstance(prefix, { nodes: cluster.nodes }),
      workspaceInstance(prefix, { nodes: cluster.nodes }),
    ]);
    const sid = await openSession(a!.app);
    expect(
      (await request(b!.app, sid, 1, 'tools/call', { name: 'cart.add_item', arguments: { product_id: 'p' } })).message
        .result.isError,
    ).not.toBe(true);
    const slot = Number(await client.cluster('KEYSLOT', `${prefix}session:{${sid}}`));
    let calls = 0;
    let stop = false;
    const traffic = (async () => {
      for (let i = 0; !stop; i++) {
        const { message } = await request(i % 2 === 0 ? a!.app : b!.app, sid, 100 + i, 'tools/call', {
          name: 'cart.add_item',
          arguments: { product_id: `p${i}` },
        });
        expect(message.result?.isError, JSON.stringify(message)).not.toBe(true);
        calls++;
      }
    })();
    // Traffic runs before, during and after the move: each phase lasts until calls were answered in it.
    await until(() => calls >= 5, 5_000, 'calls before the move');
    // The pause between migration steps is the scenario's input: calls land while keys are half moved.
    await moveSlot(cluster, slot, () => new Promise((resolve) => setTimeout(resolve, 20)));
    const moved = calls;
    await until(() => calls >= moved + 5, 5_000, 'calls after the move');
    stop = true;
    await traffic;
    expect(calls).toBeGreaterThan(3);
    const [checkout, clear] = await Promise.all([
      request(a!.app, sid, 2, 'tools/call', { name: 'cart.checkout', arguments: {} }),
      request(b!.app, sid, 3, 'tools/call', { name: 'cart.clear', arguments: {} }),
    ]);
    expect([checkout, clear].map((r) => (r.message.result.isError === true ? 'refused' : 'ran')).sort()).toEqual([
      'ran',
      'refused',
    ]);
    await Promise.all([a!.close(), b!.close()]);
  }, 30_000);
});
