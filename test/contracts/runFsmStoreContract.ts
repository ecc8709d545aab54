import { expect, it } from 'vitest';
import type { FsmStateStore } from '../../src/index.js';

/**
 * The behaviour every {@link FsmStateStore} with compare-and-set must have, in memory or in Redis.
 * Call it inside a `describe` naming the implementation; `make` returns a fresh, empty store.
 */
export function runFsmStoreContract(make: () => FsmStateStore | Promise<FsmStateStore>): void {
  it('loads undefined for an unknown key', async () => {
    const store = await make();
    expect(await store.load('nobody')).toBeUndefined();
  });

  it('saves and loads a copy, per key', async () => {
    const store = await make();
    const snap = { state: 'has_items', updatedAt: 5, version: 1 };
    await store.save('a', snap);
    snap.state = 'mutated';
    expect(await store.load('a')).toEqual({ state: 'has_items', updatedAt: 5, version: 1 });
    expect(await store.load('b')).toBeUndefined();
    const loaded = await store.load('a');
    loaded!.state = 'mutated';
    expect((await store.load('a'))!.state).toBe('has_items');
  });

  it('save overwrites whatever is stored, and keeps every field', async () => {
    const store = await make();
    await store.save('k', { state: 'a', updatedAt: 1, version: 7 });
    const expiresAt = Date.now() + 60_000;
    await store.save('k', { state: 'b', updatedAt: 2, version: 1, expiresAt });
    expect(await store.load('k')).toEqual({ state: 'b', updatedAt: 2, version: 1, expiresAt });
    await store.save('k', { state: 'c', updatedAt: 3 });
    expect(await store.load('k')).toEqual({ state: 'c', updatedAt: 3 });
  });

  it('compareAndSet writes only over the expected version (undefined: nothing stored yet)', async () => {
    const store = await make();
    expect(store.compareAndSet).toBeTypeOf('function');
    const cas = store.compareAndSet!.bind(store);
    expect(await cas('k', undefined, { state: 'b', updatedAt: 1, version: 1 })).toBe(true);
    expect(await cas('k', undefined, { state: 'c', updatedAt: 2, version: 1 })).toBe(false);
    expect(await cas('k', 0, { state: 'c', updatedAt: 2, version: 1 })).toBe(false);
    expect(await cas('k', 2, { state: 'c', updatedAt: 2, version: 3 })).toBe(false);
    expect(await store.load('k')).toEqual({ state: 'b', updatedAt: 1, version: 1 });
    expect(await cas('k', 1, { state: 'c', updatedAt: 2, version: 2 })).toBe(true);
    expect(await store.load('k')).toEqual({ state: 'c', updatedAt: 2, version: 2 });
  });

  it('compareAndSet treats a snapshot saved without a version like version undefined', async () => {
    const store = await make();
    await store.save('k', { state: 'a', updatedAt: 0 });
    expect(await store.compareAndSet!('k', 1, { state: 'b', updatedAt: 1, version: 2 })).toBe(false);
    expect(await store.compareAndSet!('k', undefined, { state: 'b', updatedAt: 1, version: 1 })).toBe(true);
    expect(await store.load('k')).toEqual({ state: 'b', updatedAt: 1, version: 1 });
  });

  it('lets exactly one of many concurrent compareAndSet calls on one version win', async () => {
    const store = await make();
    await store.save('k', { state: 'a', updatedAt: 0, version: 3 });
    const wins = await Promise.all(Array.from({ length: 20 }, (_, i) => store.compareAndSet!('k', 3, { state: `s${i}`, updatedAt: i, version: 4 })));
    expect(wins.filter(Boolean)).toHaveLength(1);
    const winner = wins.indexOf(true);
    expect(await store.load('k')).toEqual({ state: `s${winner}`, updatedAt: winner, version: 4 });
  });

  it('never loses an increment when many writers retry compare-and-set', async () => {
    const store = await make();
    const bump = async (): Promise<void> => {
      for (;;) {
        const snap = await store.load('n');
        const version = snap?.version;
        if (await store.compareAndSet!('n', version, { state: 's', updatedAt: 0, version: (version ?? 0) + 1 })) return;
      }
    };
    await Promise.all(Array.from({ length: 25 }, bump));
    expect((await store.load('n'))!.version).toBe(25);
  });

  it('delete forgets a key, and deleting an unknown key is fine', async () => {
    const store = await make();
    await store.save('k', { state: 'a', updatedAt: 0 });
    await store.save('other', { state: 'a', updatedAt: 0 });
    await store.delete?.('k');
    await store.delete?.('never-saved');
    expect(await store.load('k')).toBeUndefined();
    expect(await store.load('other')).toEqual({ state: 'a', updatedAt: 0 });
    expect(await store.compareAndSet!('k', undefined, { state: 'b', updatedAt: 1, version: 1 })).toBe(true);
  });
}
