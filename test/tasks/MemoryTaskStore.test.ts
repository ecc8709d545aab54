import { expect, it } from 'vitest';
import { MemoryTaskStore, type TaskRecord } from '../../src/index.js';
import { createClock } from '../../src/testing/index.js';

const record = (id: string, createdAt: number, ttlMs: number): TaskRecord => ({
  id,
  owner: 'alice',
  tool: 't',
  status: 'working',
  createdAt,
  lastUpdatedAt: createdAt,
  ttlMs,
  pollIntervalMs: 100,
});

it('hides a task at its expiry on the injected clock, and the sweep removes it from memory', async () => {
  let now = 1_000;
  const store = new MemoryTaskStore({ now: () => now });
  await store.create(record('a', 1_000, 500), { maxActivePerOwner: 5 });
  await store.create(record('b', 1_000, 5_000), { maxActivePerOwner: 5 });
  now = 1_499;
  expect(await store.get('a')).toBeDefined();
  now = 1_500;
  store.sweep();
  expect(store.size).toBe(1);
  expect(await store.get('a')).toBeUndefined();
  expect(await store.get('b')).toBeDefined();
  store.close();
});

it('does not count an expired task against its owner', async () => {
  let now = 0;
  const store = new MemoryTaskStore({ now: () => now });
  await store.create(record('a', 0, 100), { maxActivePerOwner: 1 });
  expect(await store.create(record('b', 0, 100), { maxActivePerOwner: 1 })).toBe('busy');
  now = 100;
  expect(await store.create(record('b', 100, 100), { maxActivePerOwner: 1 })).toBe('ok');
  store.close();
});

it('removes expired tasks and results on its own timer while it holds any, without a read', async () => {
  const clock = createClock(0);
  const store = new MemoryTaskStore({ now: clock.now, sweepIntervalMs: 1_000 });
  expect(clock.pending, 'an empty store runs no timer').toBe(0);
  for (let i = 0; i < 50; i++)
    await store.create({ ...record(`t${i}`, 0, 5_000), owner: `p${i}` }, { maxActivePerOwner: 1 });
  expect(await store.reserveResult('p0', 't0', 10, { expiresAt: 5_000, maxBytes: 100 })).toBe(true);
  clock.advance(4_999);
  expect(store.size).toBe(50);
  clock.advance(1_000);
  expect(store.size).toBe(0);
  expect(clock.pending, 'the timer stops once nothing is held').toBe(0);
});
