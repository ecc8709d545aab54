import { describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from '../../src/index.js';
import { createClock } from '../../src/testing/index.js';

describe('MemoryRateLimitStore', () => {
  it('keeps memory bounded by the active principals: ended windows are swept once 10,000 counters exist', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore({ now: () => now });
    for (let i = 0; i < 10_000; i++) await store.hit(`p${i}`, 1_000);
    expect(store.size).toBe(10_000);
    now = 1_000;
    await store.hit('fresh', 1_000);
    expect(store.size).toBe(1);
  });

  it('counts from the first hit of a window, with the time left until it ends', async () => {
    let now = 5_000;
    const store = new MemoryRateLimitStore({ now: () => now });
    expect(await store.hit('k', 10_000)).toEqual({ count: 1, resetInMs: 10_000 });
    now += 4_000;
    expect(await store.hit('k', 10_000)).toEqual({ count: 2, resetInMs: 6_000 });
    now += 6_000;
    expect(await store.hit('k', 10_000)).toEqual({ count: 1, resetInMs: 10_000 });
  });

  it('drops ended windows on its own timer, without a hit, and stops the timer once empty', async () => {
    const clock = createClock();
    const store = new MemoryRateLimitStore({ now: clock.now, sweepEveryMs: 1_000 });
    for (let i = 0; i < 100; i++) await store.hit(`server:u:p${i}`, 60_000);
    await store.hit('server:u:long', 10 * 60_000);
    clock.advance(59_999);
    expect(store.size).toBe(101);
    clock.advance(1_000);
    expect(store.size).toBe(1);
    clock.advance(10 * 60_000);
    expect(store.size).toBe(0);
    expect(clock.pending).toBe(0);
  });
});
