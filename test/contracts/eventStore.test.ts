import { beforeAll, describe, expect, it } from 'vitest';
import { until } from '../_helpers/waitFor.js';
import type { Redis } from 'ioredis';
import { MemoryEventStore } from '../../src/index.js';
import { RedisEventStore } from '../../src/redis/index.js';
import { ready, redisClient, uniquePrefix } from '../redis/clients.js';
import { runEventStoreContract } from './runEventStoreContract.js';

describe('MemoryEventStore (EventStore contract, injected clock)', () => {
  runEventStoreContract((limits) => {
    let now = 1_000;
    return { store: new MemoryEventStore({ ...limits, now: () => now }), elapse: async (ms) => void (now += ms) };
  });

  it('keeps at most maxEvents for every stream together: the least recently written stream loses its oldest first', async () => {
    const store = new MemoryEventStore({ maxEvents: 4 });
    const a1 = await store.append('a', { n: 1 });
    await store.append('a', { n: 2 });
    const b1 = await store.append('b', { n: 1 });
    await store.append('b', { n: 2 });
    await store.append('b', { n: 3 });
    expect(store.size).toBe(4);
    expect(await store.after(a1)).toMatchObject({ found: true, events: [{ message: { n: 2 } }] });
    await store.append('b', { n: 4 });
    expect(store.size).toBe(4);
    expect(await store.after(a1)).toEqual({ found: false, reason: 'unknown' });
    expect(await store.after(b1)).toMatchObject({
      found: true,
      events: [{ message: { n: 2 } }, { message: { n: 3 } }, { message: { n: 4 } }],
    });
  });

  it('keeps at most maxBytes for every stream together, and sweeps expired streams on writes (no read needed)', async () => {
    let now = 0;
    const store = new MemoryEventStore({ maxBytes: 40, ttlMs: 1_000, now: () => now });
    for (let n = 0; n < 10; n++) await store.append(`s${n}`, { n, pad: 'xxxxxxxx' });
    expect(store.bytes).toBeLessThanOrEqual(40);
    now += 5_000;
    await store.append('late', {});
    expect(store.streams).toBe(1);
    expect(store.size).toBe(1);
  });
});

describe('RedisEventStore (EventStore contract, real redis-server)', () => {
  let client: Redis;
  beforeAll(async () => {
    client = await ready(redisClient());
  });
  runEventStoreContract((limits) => ({
    store: new RedisEventStore({ client, prefix: uniquePrefix('events'), ...limits }),
    // Redis expires keys on its own clock: wait until the effect shows (bounded), polling.
    elapse: (ms, check) => until(check, 'the stream to expire', ms + 5_000),
  }));

  it('puts a stream in three keys with one hash tag, each expiring', async () => {
    const prefix = uniquePrefix('events');
    const store = new RedisEventStore({ client, prefix, ttlMs: 60_000 });
    await store.append('s:abc/_GET_stream', {}, 'k');
    const keys = (await client.keys(`${prefix}*`)).sort();
    expect(keys).toEqual([
      `${prefix}{s:abc/_GET_stream}:e`,
      `${prefix}{s:abc/_GET_stream}:k`,
      `${prefix}{s:abc/_GET_stream}:m`,
    ]);
    for (const key of keys) expect(await client.pttl(key)).toBeGreaterThan(50_000);
  });
});
