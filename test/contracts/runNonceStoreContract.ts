import { expect, it, vi } from 'vitest';
import type { NonceStore } from '../../src/index.js';

/**
 * The behaviour every {@link NonceStore} must have, in memory or in Redis. Call it inside a `describe` naming
 * the implementation; `make` returns a fresh, empty store that keeps a nonce exactly until its expiry (real time).
 */
export function runNonceStoreContract(make: () => NonceStore | Promise<NonceStore>): void {
  it('claims a nonce once: the second claim, by anyone, is refused', async () => {
    const store = await make();
    const until = Date.now() + 60_000;
    expect(await store.claim('n1', until, 'alice')).toBe(true);
    expect(await store.claim('n1', until, 'alice')).toBe(false);
    expect(await store.claim('n1', until, 'bob')).toBe(false);
    expect(await store.claim('n2', until, 'alice')).toBe(true);
  });

  it('lets exactly one of many concurrent claims of one nonce win', async () => {
    const store = await make();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.claim('race', Date.now() + 60_000, `c${i}`)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('forgets a nonce once its expiry has passed, and not before', async () => {
    const store = await make();
    expect(await store.claim('short', Date.now() + 300, 'alice')).toBe(true);
    expect(await store.claim('long', Date.now() + 60_000, 'alice')).toBe(true);
    expect(await store.claim('short', Date.now() + 300, 'alice')).toBe(false);
    // The store expires it on its own clock (Redis's, or the process's): poll until it has.
    await vi.waitFor(async () => expect(await store.claim('short', Date.now() + 60_000, 'alice')).toBe(true), {
      timeout: 5_000,
      interval: 50,
    });
    expect(await store.claim('long', Date.now() + 60_000, 'alice')).toBe(false);
  });
}
