import { describe, expect, it } from 'vitest';
import { MemorySessionStore, SessionDataError } from '../../src/index.js';
import { SessionManager } from '../../src/advanced/index.js';
import { memorySessionData, sessionDataFor, storeSessionData } from '../../src/session/sessionData.js';

describe('sessionDataFor', () => {
  it('serializes concurrent writes of one key, so no value is lost', async () => {
    const backend = memorySessionData();
    const data = sessionDataFor(backend, 's:1');
    await Promise.all(Array.from({ length: 20 }, (_, i) => data.set(`k${i}`, i)));
    for (let i = 0; i < 20; i++) expect(await data.get(`k${i}`)).toBe(i);
    await Promise.all([data.delete('k0'), data.set('k20', 20), data.delete('k1')]);
    expect(Object.keys((await backend.load('s:1'))!).sort()).toEqual(
      Array.from({ length: 19 }, (_, i) => `k${i + 2}`).sort(),
    );
  });

  it('refuses values that are not JSON and data past the cap, changing nothing', async () => {
    const data = sessionDataFor(memorySessionData(), 's:1', { maxBytes: 40 });
    await data.set('a', 'x');
    await expect(data.set('f', () => 1)).rejects.toThrow(SessionDataError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(data.set('c', cyclic)).rejects.toThrow(/Session data "c" is not JSON/);
    await expect(data.set('b', 'y'.repeat(50))).rejects.toMatchObject({ code: 'SESSION_DATA_TOO_LARGE' });
    expect(await data.get('a')).toBe('x');
    expect(await data.get('b')).toBeUndefined();
  });

  it('keeps data in a session store on records no client can resume as a session', async () => {
    const store = new MemorySessionStore();
    const data = sessionDataFor(storeSessionData(store, 60_000), 'c:["","app"]');
    await data.set('locale', 'en');
    expect((await store.get('fusion-data:c:["","app"]'))?.phase).toBe('destroyed');
    const manager = new SessionManager({ store });
    expect(await manager.resume('fusion-data:c:["","app"]')).toBeUndefined();
    expect(await sessionDataFor(storeSessionData(store, 60_000), 'c:["","app"]').get('locale')).toBe('en');
  });
});
