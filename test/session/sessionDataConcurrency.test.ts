import { describe, expect, it } from 'vitest';
import { MemorySessionStore, SessionDataError } from '../../src/index.js';
import { memorySessionData, storeSessionData } from '../../src/advanced/index.js';
import { sessionDataFor } from '../../src/session/sessionData.js';

/** Two "instances" in one process: each its own data backend over one shared store, as two servers on one Redis would be. */
const twoInstances = (store = new MemorySessionStore()) =>
  [storeSessionData(store, 60_000), storeSessionData(store, 60_000)] as const;

describe('per-session data written by several instances of one store', () => {
  it('keeps every concurrent write of both instances: distinct names set, and one counter updated', async () => {
    const [a, b] = twoInstances();
    const writes = Array.from({ length: 40 }, (_, i) => {
      const data = sessionDataFor(i % 2 === 0 ? a : b, 's:one');
      return Promise.all([data.set(`k${i}`, i), data.update<number>('n', (n = 0) => n + 1)]);
    });
    const counts = (await Promise.all(writes)).map(([, n]) => n!);
    expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const data = sessionDataFor(b, 's:one');
    expect(await data.get('n')).toBe(40);
    for (let i = 0; i < 40; i++) expect(await data.get(`k${i}`)).toBe(i);
  });

  it('update deletes the value when the change returns undefined, and writes nothing when there was none', async () => {
    const [a] = twoInstances();
    const data = sessionDataFor(a, 's:del');
    expect(await data.update<number>('n', () => undefined)).toBeUndefined();
    expect(await data.update<number>('n', (n = 41) => n + 1)).toBe(42);
    expect(await data.update<number>('n', () => undefined)).toBeUndefined();
    expect(await data.get('n')).toBeUndefined();
  });

  it('fails with SESSION_DATA_CONFLICT, changing nothing, when another instance wins every attempt', async () => {
    const [a, b] = twoInstances();
    const one = sessionDataFor(a, 's:race', { maxAttempts: 1 });
    const other = sessionDataFor(b, 's:race', { maxAttempts: 1 });
    // Both read version 0 before either saves: the second save finds version 1 and, with one attempt, gives up.
    const results = await Promise.allSettled([one.set('x', 1), other.set('y', 2)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const error = (results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as SessionDataError;
    expect(error).toBeInstanceOf(SessionDataError);
    expect(error.code).toBe('SESSION_DATA_CONFLICT');
    expect(error.message).toBe(
      'Session data of "s:race" was not saved: another instance changed it during each of 1 attempt; nothing was changed by this call. Try again, or keep fewer concurrent writers on one key.',
    );
    const stored = Object.keys((await a.load('s:race'))!);
    expect(stored).toHaveLength(1);
  });

  it('refuses a value that is not JSON at once, without touching the store', async () => {
    const data = sessionDataFor(memorySessionData(), 's:x');
    await expect(data.update('f', () => (() => 1) as never)).rejects.toThrow(
      'Session data "f" is not JSON (undefined or a function); use delete("f") to remove a value.',
    );
    await expect(data.set('big', 10n)).rejects.toMatchObject({ code: 'SESSION_DATA_VALUE' });
  });
});
