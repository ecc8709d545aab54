import { expect, it, vi } from 'vitest';
import type { RateLimitStore } from '../../src/index.js';

/**
 * The behaviour every {@link RateLimitStore} must have, in memory or in Redis. Call it inside a `describe`
 * naming the implementation; `make` returns a fresh, empty store measuring windows in real time.
 */
export function runRateLimitStoreContract(make: () => RateLimitStore | Promise<RateLimitStore>): void {
  it('counts hits per key within a window and reports when the window resets', async () => {
    const store = await make();
    const counts = [];
    for (let i = 0; i < 3; i++) counts.push((await store.hit('alice', 60_000)).count);
    expect(counts).toEqual([1, 2, 3]);
    expect((await store.hit('bob', 60_000)).count).toBe(1);
    const { resetInMs } = await store.hit('alice', 60_000);
    expect(resetInMs).toBeGreaterThan(50_000);
    expect(resetInMs).toBeLessThanOrEqual(60_000);
  });

  it('starts a new window from zero once the old one ended', async () => {
    const store = await make();
    await store.hit('k', 40);
    // Hit until the window has ended (on the store's clock): the count then starts from 1 again, never continues.
    const counts: number[] = [];
    await vi.waitFor(async () => expect(counts[counts.push((await store.hit('k', 40)).count) - 1]).toBe(1), {
      timeout: 5_000,
      interval: 5,
    });
    expect(counts.slice(0, -1).every((c, i, before) => i === 0 || c === before[i - 1]! + 1)).toBe(true);
  });

  it('loses no hit under concurrency', async () => {
    const store = await make();
    const results = await Promise.all(Array.from({ length: 50 }, () => store.hit('busy', 60_000)));
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });
}
