import type { FsmStateStore } from '../fsm/FsmStateStore.js';
import { MemoryFsmStore } from '../fsm/MemoryFsmStore.js';
import type { FsmSnapshot } from '../fsm/types.js';

/**
 * The workflow state store of one test session. A test client owns its pipeline and opens exactly one
 * connection, so whatever state key the pipeline derives for that connection (session id or connection
 * id) maps to one slot, which the test can then read and write without knowing the key.
 */
export interface SessionStateStore extends FsmStateStore {
  read(): Promise<FsmSnapshot | undefined>;
  write(state: string, updatedAt: number): Promise<void>;
}

export function sessionStateStore(
  base: FsmStateStore = new MemoryFsmStore(),
  slot = 'mcp-fusion-test-session',
): SessionStateStore {
  const store: SessionStateStore = {
    load: () => base.load(slot),
    save: (_key, snapshot) => base.save(slot, snapshot),
    read: () => base.load(slot),
    async write(state, updatedAt) {
      const previous = await base.load(slot);
      await base.save(slot, { state, updatedAt, version: (previous?.version ?? 0) + 1 });
    },
  };
  if (base.compareAndSet !== undefined) {
    const cas = base.compareAndSet.bind(base);
    store.compareAndSet = (_key, expected, snapshot) => cas(slot, expected, snapshot);
  }
  if (base.delete !== undefined) {
    const del = base.delete.bind(base);
    store.delete = () => del(slot);
  }
  return store;
}
