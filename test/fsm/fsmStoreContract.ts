import { describe, expect, it } from 'vitest';
import type { FsmStateStore } from '../../src/index.js';

/** The behaviour every {@link FsmStateStore} with compare-and-set must have. */
export function runFsmStoreContract(name: string, make: () => FsmStateStore | Promise<FsmStateStore>): void {
  describe(`${name} (FsmStateStore contract)`, () => {
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

    it('compareAndSet writes only over the expected version', async () => {
      const store = await make();
      expect(store.compareAndSet).toBeTypeOf('function');
      const cas = store.compareAndSet!.bind(store);
      expect(await cas('k', undefined, { state: 'b', updatedAt: 1, version: 1 })).toBe(true);
      expect(await cas('k', undefined, { state: 'c', updatedAt: 2, version: 1 })).toBe(false);
      expect(await cas('k', 0, { state: 'c', updatedAt: 2, version: 1 })).toBe(false);
      expect(await store.load('k')).toEqual({ state: 'b', updatedAt: 1, version: 1 });
      expect(await cas('k', 1, { state: 'c', updatedAt: 2, version: 2 })).toBe(true);
      expect(await store.load('k')).toEqual({ state: 'c', updatedAt: 2, version: 2 });
    });

    it('lets exactly one of many concurrent compareAndSet calls on one version win', async () => {
      const store = await make();
      await store.save('k', { state: 'a', updatedAt: 0, version: 3 });
      const wins = await Promise.all(Array.from({ length: 20 }, (_, i) => store.compareAndSet!('k', 3, { state: `s${i}`, updatedAt: i, version: 4 })));
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect((await store.load('k'))!.version).toBe(4);
    });

    it('delete forgets a key', async () => {
      const store = await make();
      await store.save('k', { state: 'a', updatedAt: 0 });
      await store.delete?.('k');
      expect(await store.load('k')).toBeUndefined();
    });
  });
}
