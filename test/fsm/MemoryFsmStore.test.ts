import { expect, it } from 'vitest';
import { MemoryFsmStore } from '../../src/index.js';
// The FsmStateStore contract itself runs in test/contracts/fsmStore.test.ts (memory and Redis).

it('MemoryFsmStore counts its keys', async () => {
  const store = new MemoryFsmStore();
  await store.save('a', { state: 'x', updatedAt: 0 });
  await store.compareAndSet('b', undefined, { state: 'x', updatedAt: 0, version: 1 });
  expect(store.size).toBe(2);
  await store.delete('a');
  expect(store.size).toBe(1);
});
