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
    expect(await store.get('s1')).toEqual(record('s1', { logLevel: 'debug', fsm: { workflow: { state: 'has_items', updatedAt: 5, version: 2 } } }));
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
