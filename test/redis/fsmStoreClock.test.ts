// RedisFsmStore's lock wait and lease renewal run on the injected clock (the `now` option): a test drives
// them with createClock() instead of waiting, and no global timer is left behind.
import type { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { RedisFsmStore } from '../../src/redis/index.js';
import { createClock } from '../../src/testing/index.js';
import { ready, redisClient, uniquePrefix } from './clients.js';

describe('RedisFsmStore on an injected clock', () => {
  let client: Redis;
  beforeAll(async () => {
    client = await ready(redisClient());
  });

  it('gives up a held lock when the test clock passes waitMs, and renews the lease on its ticks', async () => {
    const clock = createClock();
    const prefix = uniquePrefix('fsmclock');
    const store = new RedisFsmStore({ client, prefix, lockLeaseMs: 300, now: clock.now });
    const held = await store.acquire('k', { waitMs: 1_000 });
    // The renewal is a timer of this clock (every lease / 3), as is the waiting call's retry below.
    expect(clock.pending).toBe(1);
    const waiting = store.acquire('k', { waitMs: 1_000 }).then(
      () => 'acquired',
      (error: Error) => error.message,
    );
    // The waiter retries on the clock only: it is still waiting however long real time passes meanwhile.
    while (clock.pending < 2) await new Promise((resolve) => setImmediate(resolve));
    // Past the wait, on the clock's time: refused, while the holder's lease was renewed all along.
    for (let i = 0; i < 30 && (await Promise.race([waiting, 'pending'])) === 'pending'; i++)
      await clock.advanceAsync(100);
    expect(await waiting).toMatch(/another call held the lock of "k" for more than 1000 ms/);
    expect(await client.pttl(`${prefix}lock:{k}`)).toBeGreaterThan(0);
    await held.end();
    expect(clock.pending).toBe(0);
    expect(await client.exists(`${prefix}lock:{k}`)).toBe(0);
  });
});
