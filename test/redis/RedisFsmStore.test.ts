import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Redis } from 'ioredis';
import { StateMachineGate, type FsmConfig } from '../../src/index.js';
import { WorkflowSessions } from '../../src/advanced/index.js';
import { failFastRedisOptions, RedisFsmStore } from '../../src/redis/index.js';
import { ready, redisClient, uniquePrefix } from './clients.js';
import { freePort } from './redisServer.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A chain s0 → s1 → … → s{n} on NEXT: every lost transition shows in the final state. */
function chain(n: number): FsmConfig {
  const states: FsmConfig['states'] = {};
  for (let i = 0; i < n; i++) states[`s${i}`] = { on: { NEXT: `s${i + 1}` } };
  states[`s${n}`] = { type: 'final' };
  return { id: 'chain', initial: 's0', states };
}

describe('RedisFsmStore', () => {
  let client: Redis;
  beforeAll(async () => {
    client = await ready(redisClient());
  });

  it('keeps each snapshot in one hash under the prefix, and turns expiresAt into PEXPIREAT', async () => {
    const prefix = uniquePrefix('fsm');
    const store = new RedisFsmStore({ client, prefix });
    // 600 ms: the two reads below must land before expiry even when a loaded machine stretches round trips.
    const expiresAt = Date.now() + 600;
    await store.save('checkout:alice:che_1', { state: 'has_items', updatedAt: 1, version: 1, expiresAt });
    expect(await client.hgetall(`${prefix}state:{checkout:alice:che_1}`)).toEqual({
      v: '1',
      d: JSON.stringify({ state: 'has_items', updatedAt: 1, version: 1, expiresAt }),
    });
    expect(await client.pexpiretime(`${prefix}state:{checkout:alice:che_1}`)).toBe(expiresAt);
    // Redis expires the key on its own clock: poll until it has, then the store must read nothing.
    await vi.waitFor(async () => expect(await client.exists(`${prefix}state:{checkout:alice:che_1}`)).toBe(0), {
      timeout: 5_000,
      interval: 20,
    });
    expect(await store.load('checkout:alice:che_1')).toBeUndefined();
  });

  it('gives snapshots without expiresAt the ttlMs of the store, or no expiry', async () => {
    const prefix = uniquePrefix('fsm');
    await new RedisFsmStore({ client, prefix, ttlMs: 60_000 }).save('s', { state: 'a', updatedAt: 0 });
    const pttl = await client.pttl(`${prefix}state:{s}`);
    expect(pttl).toBeGreaterThan(55_000);
    expect(pttl).toBeLessThanOrEqual(60_000);
    await new RedisFsmStore({ client, prefix }).save('s', { state: 'a', updatedAt: 0 });
    expect(await client.pttl(`${prefix}state:{s}`)).toBe(-1);
  });

  it('lock excludes a second holder until release, then hands over', async () => {
    const store = new RedisFsmStore({ client, prefix: uniquePrefix('lock') });
    const release = await store.lock('k', { waitMs: 1_000 });
    const order: string[] = [];
    const second = store.lock('k', { waitMs: 2_000 }).then((r) => {
      order.push('second');
      return r;
    });
    // Input, not a wait for a condition: the second request has the time to meet the held lock and wait.
    await sleep(60);
    order.push('first releases');
    await release();
    await (
      await second
    )();
    expect(order).toEqual(['first releases', 'second']);
  });

  it('lock gives up after waitMs with a message naming the key', async () => {
    const store = new RedisFsmStore({ client, prefix: uniquePrefix('lock') });
    const release = await store.lock('k', { waitMs: 100 });
    await expect(store.lock('k', { waitMs: 80 })).rejects.toThrow(
      'another call held the lock of "k" for more than 80 ms',
    );
    await release();
  });

  it('lock of a crashed holder frees itself after the lease, and a long holder keeps it by renewal', async () => {
    const prefix = uniquePrefix('lock');
    const crashed = new RedisFsmStore({ client, prefix, lockLeaseMs: 150 });
    await client.set(`${prefix}lock:{gone}`, 'token-of-a-dead-process', 'PX', 150);
    const started = Date.now();
    await (
      await crashed.lock('gone', { waitMs: 2_000 })
    )();
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);

    const release = await crashed.lock('long', { waitMs: 100 });
    // Held past its first lease (on Redis's own clock), the lock is still there: renewal kept it.
    const firstExpiry = await client.pexpiretime(`${prefix}lock:{long}`);
    await vi.waitFor(
      async () => {
        const [seconds, micros] = await client.time();
        expect(Number(seconds) * 1_000 + Number(micros) / 1_000).toBeGreaterThan(firstExpiry + 100);
      },
      { timeout: 5_000, interval: 20 },
    );
    await expect(crashed.lock('long', { waitMs: 50 })).rejects.toThrow(/held the lock/);
    await release();
    expect(await client.exists(`${prefix}lock:{long}`)).toBe(0);
  });

  it('release never deletes a lock another holder took after the lease expired', async () => {
    const prefix = uniquePrefix('lock');
    const store = new RedisFsmStore({ client, prefix, lockLeaseMs: 60 });
    const release = await store.lock('k', { waitMs: 100 });
    await client.set(`${prefix}lock:{k}`, 'someone-else', 'PX', 5_000);
    await release();
    expect(await client.get(`${prefix}lock:{k}`)).toBe('someone-else');
  });

  it('acquire takes the lock and reads the snapshot in one script; end writes and releases in another', async () => {
    const prefix = uniquePrefix('lease');
    const store = new RedisFsmStore({ client, prefix, lockLeaseMs: 2_000 });
    await store.save('k', { state: 'a', updatedAt: 0, version: 1 });
    const lease = await store.acquire('k', { waitMs: 500 });
    expect(lease.snapshot).toEqual({ state: 'a', updatedAt: 0, version: 1 });
    expect(await client.pttl(`${prefix}lock:{k}`)).toBeGreaterThan(1_000);
    expect(await lease.end({ state: 'b', updatedAt: 1, version: 2, expiresAt: Date.now() + 60_000 })).toBe('saved');
    expect(await client.exists(`${prefix}lock:{k}`)).toBe(0);
    expect(await client.pttl(`${prefix}state:{k}`)).toBeGreaterThan(55_000);
    expect(await store.load('k')).toMatchObject({ state: 'b', version: 2 });
  });

  it('fences a save whose lease expired: nothing is written, whether another holder took the lock or nobody did', async () => {
    const prefix = uniquePrefix('fence');
    const store = new RedisFsmStore({ client, prefix });
    await store.save('k', { state: 'a', updatedAt: 0, version: 1 });
    const stalled = await store.acquire('k', { waitMs: 500 });
    // The lease ran out (the holder stalled) and another instance holds the key now.
    await client.set(`${prefix}lock:{k}`, 'another-holder', 'PX', 5_000);
    expect(await stalled.end({ state: 'b', updatedAt: 1, version: 2 })).toBe('expired');
    expect(await store.load('k')).toEqual({ state: 'a', updatedAt: 0, version: 1 });
    expect(await client.get(`${prefix}lock:{k}`)).toBe('another-holder');
    await client.del(`${prefix}lock:{k}`);
    const lapsed = await store.acquire('k', { waitMs: 500 });
    await client.del(`${prefix}lock:{k}`);
    expect(await lapsed.end({ state: 'b', updatedAt: 1, version: 2 })).toBe('expired');
    expect(await store.load('k')).toEqual({ state: 'a', updatedAt: 0, version: 1 });
  });

  it('keys of one workflow share a cluster slot even when the key contains braces', async () => {
    const prefix = uniquePrefix('slot');
    const store = new RedisFsmStore({ client, prefix });
    const key = 'checkout:u:["https://id.example","}{x"]:che_1';
    const lease = await store.acquire(key, { waitMs: 500 });
    const keys = await client.keys(`${prefix}*`);
    expect(keys).toEqual([`${prefix}lock:{checkout:u:["https://id.example","%7D%7Bx"]:che_1}`]);
    await lease.end({ state: 'a', updatedAt: 0, version: 1 });
    const [state] = await client.keys(`${prefix}*`);
    expect(state).toBe(`${prefix}state:{checkout:u:["https://id.example","%7D%7Bx"]:che_1}`);
    expect(() => new RedisFsmStore({ client, prefix: 'app:{x}:' })).toThrow(
      /the key prefix "app:\{x\}:" contains "\{" or "\}"; remove them/,
    );
  });

  it('fails fast when Redis is unreachable, with the client options it recommends', async () => {
    const dead = redisClient(`redis://127.0.0.1:${await freePort()}`, failFastRedisOptions());
    const store = new RedisFsmStore({ client: dead, prefix: uniquePrefix('dead') });
    const started = Date.now();
    await expect(store.load('k')).rejects.toThrow();
    await expect(store.compareAndSet('k', undefined, { state: 'a', updatedAt: 0, version: 1 })).rejects.toThrow();
    await expect(store.lock('k', { waitMs: 5_000 })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  describe('two processes on one Redis (two stores, two clients, one key)', () => {
    const twoInstances = async (config: FsmConfig, tools: Record<string, { states: string[]; event?: string }>) => {
      const prefix = uniquePrefix('gate');
      return Promise.all(
        [0, 1].map(async () => {
          const gate = new StateMachineGate(config, { engine: 'builtin' });
          for (const [name, b] of Object.entries(tools)) gate.bindTool(name, b.states, b.event);
          const own = await ready(redisClient());
          return new WorkflowSessions(gate, { store: new RedisFsmStore({ client: own, prefix }) });
        }),
      );
    };

    it('never loses a transition: 2 × 15 concurrent NEXT calls end in s30 at version 30', async () => {
      const states = Array.from({ length: 30 }, (_, i) => `s${i}`);
      const [a, b] = await twoInstances(chain(30), { next: { states, event: 'NEXT' } });
      const runs = Array.from({ length: 30 }, (_, i) =>
        (i % 2 === 0 ? a! : b!).run('k', 'next', async () => ({ isError: false })),
      );
      const outcomes = await Promise.all(runs);
      expect(outcomes.every((o) => o.outcome === 'ran' && o.persistError === undefined)).toBe(true);
      expect(await a!.snapshot('k')).toMatchObject({ state: 's30', version: 30 });
    });

    it('runs a once-only step exactly once when both instances race for it', async () => {
      const config: FsmConfig = {
        id: 'order',
        initial: 'open',
        states: { open: { on: { PAY: 'paid' } }, paid: { type: 'final' } },
      };
      const [a, b] = await twoInstances(config, { pay: { states: ['open'], event: 'PAY' } });
      let ran = 0;
      const pay = async () => {
        ran++;
        // Work that takes real time, so that every other call meets the step in progress (input, not a wait).
        await sleep(5);
        return { isError: false };
      };
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a! : b!).run('order-1', 'pay', pay)),
      );
      expect(ran).toBe(1);
      expect(outcomes.filter((o) => o.outcome === 'ran')).toHaveLength(1);
      expect(outcomes.filter((o) => o.outcome === 'refused')).toHaveLength(19);
    });
  });
});
