import { DataBudget } from './DataBudget.js';
import type { SessionDataBackend, SessionDataBackendOptions, SessionDataWrite } from './SessionDataBackend.js';
import type { SessionStore } from './SessionStore.js';
import type { SessionRecord } from './types.js';

/**
 * Data kept in a {@link SessionStore} (memory, Redis, …) as records of their own, apart from the session
 * records (so a session's lifecycle writes never overwrite them), living `ttlMs` from each write (a
 * workflow instance's data: the workflow's idle TTL). Their phase is `destroyed`, so no client can resume
 * one as a session. Budgeted per owner and in total, counted in this process.
 */
export function storeSessionData(
  store: SessionStore,
  ttlMs: number,
  options: SessionDataBackendOptions | (() => number) = {},
): SessionDataBackend {
  const { now = Date.now, limits } = typeof options === 'function' ? { now: options } : options;
  const id = (key: string): string => `fusion-data:${key}`;
  const budget = new DataBudget(limits, now);
  const recordOf = (key: string, data: Record<string, unknown>, version?: number): SessionRecord => {
    const at = now();
    return {
      id: id(key),
      createdAt: at,
      lastAccessAt: at,
      phase: 'destroyed',
      initialized: false,
      protocolVersion: '',
      clientInfo: { name: 'fusion-data', version: '0' },
      clientCapabilities: {},
      data,
      ...(version === undefined ? {} : { version }),
    };
  };
  const held = (key: string, write: SessionDataWrite | undefined, ttl: number): void => {
    if (write !== undefined) budget.hold(key, write.owner, write.bytes, now() + ttl, write.holder);
  };
  const compareAndSet = store.compareAndSet?.bind(store);
  // With a store that compares and sets (memory, Redis), writes from several instances keep each other's values.
  const versioned: Pick<SessionDataBackend, 'loadVersioned' | 'saveIf'> =
    compareAndSet === undefined
      ? {}
      : {
          async loadVersioned(key) {
            const record = await store.get(id(key));
            return { data: record?.data ?? {}, version: record?.version ?? 0 };
          },
          async saveIf(key, data, version, write) {
            const ttl = write?.ttlMs ?? ttlMs;
            const saved = await compareAndSet(recordOf(key, data, version + 1), ttl, version);
            if (saved) held(key, write, ttl);
            return saved;
          },
        };
  return {
    async load(key) {
      return (await store.get(id(key)))?.data;
    },
    async save(key, data, write) {
      const ttl = write?.ttlMs ?? ttlMs;
      await store.set(recordOf(key, data), ttl);
      held(key, write, ttl);
    },
    ...versioned,
    async delete(key) {
      await store.delete(id(key));
      budget.release(key);
    },
    exceeds: (key, owner, bytes, holder) => budget.exceeds(key, owner, bytes, holder),
    useLedger: (ledger) => budget.useLedger(ledger),
    dispose: () => budget.dispose(),
  };
}
