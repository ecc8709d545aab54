import { expect, it, vi } from 'vitest';
import type { SessionRecord, SessionStore } from '../../src/index.js';

const record = (id: string, extra: Partial<SessionRecord> = {}): SessionRecord => ({
  id,
  createdAt: 1_000,
  lastAccessAt: 1_000,
  phase: 'created',
  initialized: false,
  protocolVersion: '2025-11-25',
  clientInfo: { name: 'contract', version: '1.0.0', title: 'Contract client' },
  clientCapabilities: { roots: { listChanged: true }, sampling: {} },
  ...extra,
});

/**
 * The behaviour every {@link SessionStore} must have, in memory or in Redis. Call it inside a `describe`
 * naming the implementation; `make` returns a fresh, empty store that measures TTLs in real time.
 */
export function runSessionStoreContract(make: () => SessionStore | Promise<SessionStore>): void {
  it('gets undefined for an unknown id', async () => {
    const store = await make();
    expect(await store.get('nobody')).toBeUndefined();
  });

  it('round-trips a record as a copy, per id', async () => {
    const store = await make();
    const r = record('s1', { logLevel: 'debug', fsm: { workflow: { state: 'has_items', updatedAt: 5, version: 2 } } });
    await store.set(r, 60_000);
    r.phase = 'destroyed';
    expect(await store.get('s1')).toEqual(
      record('s1', { logLevel: 'debug', fsm: { workflow: { state: 'has_items', updatedAt: 5, version: 2 } } }),
    );
    expect(await store.get('s2')).toBeUndefined();
    const loaded = await store.get('s1');
    loaded!.phase = 'closed';
    expect((await store.get('s1'))!.phase).toBe('created');
  });

  it('set overwrites the record', async () => {
    const store = await make();
    await store.set(record('s'), 60_000);
    await store.set(record('s', { phase: 'active', initialized: true }), 60_000);
    expect(await store.get('s')).toMatchObject({ phase: 'active', initialized: true });
  });

  it('forgets a record once its TTL has passed, counted from the last set', async () => {
    const store = await make();
    // 300 ms, not less: the read before expiry is a Redis round trip or two, which a loaded machine can stretch past 60 ms.
    await store.set(record('short'), 300);
    await store.set(record('long'), 60_000);
    expect(await store.get('short')).toBeDefined();
    // The store expires it on its own clock (Redis's, or the process's): poll until it has.
    await vi.waitFor(async () => expect(await store.get('short')).toBeUndefined(), { timeout: 5_000, interval: 20 });
    expect(await store.get('long')).toBeDefined();
  });

  it('delete forgets a record, and deleting an unknown id is fine', async () => {
    const store = await make();
    await store.set(record('a'), 60_000);
    await store.set(record('b'), 60_000);
    await store.delete('a');
    await store.delete('never-set');
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('b')).toBeDefined();
  });
}

/**
 * Compare-and-set of a store that has it (both built-in stores do): per-session data written by several
 * instances relies on it to lose no write.
 */
export function runSessionStoreCompareAndSetContract(make: () => SessionStore | Promise<SessionStore>): void {
  it('compareAndSet writes over the expected version only, counting a missing record or version as 0', async () => {
    const store = await make();
    expect(store.compareAndSet).toBeTypeOf('function');
    expect(await store.compareAndSet!(record('d', { version: 1, data: { n: 1 } }), 60_000, 1)).toBe(false);
    expect(await store.get('d')).toBeUndefined();
    expect(await store.compareAndSet!(record('d', { version: 1, data: { n: 1 } }), 60_000, 0)).toBe(true);
    expect(await store.compareAndSet!(record('d', { version: 1, data: { n: 99 } }), 60_000, 0)).toBe(false);
    expect(await store.compareAndSet!(record('d', { version: 2, data: { n: 2 } }), 60_000, 1)).toBe(true);
    expect(await store.get('d')).toMatchObject({ version: 2, data: { n: 2 } });
    await store.set(record('plain'), 60_000);
    expect(await store.compareAndSet!(record('plain', { version: 1 }), 60_000, 0)).toBe(true);
  });

  it('lets exactly one of many concurrent compareAndSet calls on one version win', async () => {
    const store = await make();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.compareAndSet!(record('race', { version: 1, data: { by: i } }), 60_000, 0),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    expect((await store.get('race'))!.data).toEqual({ by: winner });
  });

  it('compareAndSet sets the TTL like set, and an expired record counts as missing', async () => {
    const store = await make();
    expect(await store.compareAndSet!(record('brief', { version: 1 }), 300, 0)).toBe(true);
    await vi.waitFor(async () => expect(await store.get('brief')).toBeUndefined(), { timeout: 5_000, interval: 20 });
    expect(await store.compareAndSet!(record('brief', { version: 1 }), 60_000, 0)).toBe(true);
  });
}
