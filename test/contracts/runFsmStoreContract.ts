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
    const wins = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.compareAndSet!('k', 3, { state: `s${i}`, updatedAt: i, version: 4 })),
    );
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

  it('acquire (when the store has it) loads the snapshot and excludes a second holder until end', async () => {
    const store = await make();
    if (store.acquire === undefined) return expect(store.acquire).toBeUndefined();
    await store.save('k', { state: 'a', updatedAt: 1, version: 4 });
    const first = await store.acquire('k', { waitMs: 1_000 });
    expect(first.snapshot).toEqual({ state: 'a', updatedAt: 1, version: 4 });
    const order: string[] = [];
    const second = store.acquire('k', { waitMs: 2_000 }).then((lease) => (order.push('second'), lease));
    // Input, not a wait for a condition: the second request has the time to meet the held lease and wait.
    await new Promise((resolve) => setTimeout(resolve, 40));
    order.push('first ends');
    expect(await first.end({ state: 'b', updatedAt: 2, version: 5 })).toBe('saved');
    const lease = await second;
    expect(order).toEqual(['first ends', 'second']);
    expect(lease.snapshot).toEqual({ state: 'b', updatedAt: 2, version: 5 });
    expect(await lease.end()).toBe('released');
    expect(await lease.end({ state: 'c', updatedAt: 3, version: 6 })).toBe('released');
    expect(await store.load('k')).toEqual({ state: 'b', updatedAt: 2, version: 5 });
  });

  it('acquire of an unknown key loads undefined; end(next) creates it, and refuses over a version another writer stored', async () => {
    const store = await make();
    if (store.acquire === undefined) return expect(store.acquire).toBeUndefined();
    const lease = await store.acquire('new', { waitMs: 1_000 });
    expect(lease.snapshot).toBeUndefined();
    expect(await lease.end({ state: 'a', updatedAt: 1, version: 0 })).toBe('saved');
    const stale = await store.acquire('new', { waitMs: 1_000 });
    await store.save('new', { state: 'x', updatedAt: 9, version: 7 });
    expect(await stale.end({ state: 'b', updatedAt: 2, version: 1 })).toBe('conflict');
    expect(await store.load('new')).toEqual({ state: 'x', updatedAt: 9, version: 7 });
    const after = await store.acquire('new', { waitMs: 100 });
    expect(await after.end()).toBe('released');
  });

  it('acquire gives up after waitMs with a message naming the key, and leaves the holder in place', async () => {
    const store = await make();
    if (store.acquire === undefined) return expect(store.acquire).toBeUndefined();
    const held = await store.acquire('busy', { waitMs: 100 });
    await expect(store.acquire('busy', { waitMs: 60 })).rejects.toThrow(
      'another call held the lock of "busy" for more than 60 ms',
    );
    expect(await held.end({ state: 'a', updatedAt: 0, version: 1 })).toBe('saved');
    expect(await (await store.acquire('busy', { waitMs: 100 })).end()).toBe('released');
  });

  it('exactly one of many concurrent acquire-then-end(next) on one version runs its step (a once-only transition)', async () => {
    const store = await make();
    if (store.acquire === undefined) return expect(store.acquire).toBeUndefined();
    let ran = 0;
    const acquire = store.acquire.bind(store);
    const step = async (): Promise<void> => {
      const lease = await acquire('once', { waitMs: 5_000 });
      if (lease.snapshot?.state === 'paid') return void (await lease.end());
      ran++;
      expect(await lease.end({ state: 'paid', updatedAt: 1, version: (lease.snapshot?.version ?? 0) + 1 })).toBe(
        'saved',
      );
    };
    await Promise.all(Array.from({ length: 12 }, step));
    expect(ran).toBe(1);
    expect(await store.load('once')).toEqual({ state: 'paid', updatedAt: 1, version: 1 });
  });
}
