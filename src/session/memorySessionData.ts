import { DataBudget } from './DataBudget.js';
import type { SessionDataBackend, SessionDataBackendOptions } from './SessionDataBackend.js';

/**
 * In-process data (attachments without a session store): at most `maxKeys` keys, the oldest written dropped
 * first; budgeted per owner and in total; a key written with a TTL is dropped once it passes (by a timer).
 */
export function memorySessionData(
  maxKeys = 10_000,
  options: SessionDataBackendOptions = {},
): SessionDataBackend & { readonly size: number } {
  const map = new Map<string, { json: string; expiresAt: number }>();
  const now = options.now ?? Date.now;
  const budget = new DataBudget(options.limits, now, (key) => map.delete(key));
  return {
    async load(key) {
      const entry = map.get(key);
      if (entry === undefined) return undefined;
      if (entry.expiresAt <= now()) {
        map.delete(key);
        budget.release(key);
        return undefined;
      }
      return JSON.parse(entry.json) as Record<string, unknown>;
    },
    async save(key, data, write) {
      const expiresAt = write?.ttlMs === undefined ? Number.POSITIVE_INFINITY : now() + write.ttlMs;
      map.delete(key);
      map.set(key, { json: JSON.stringify(data), expiresAt });
      if (write !== undefined) budget.hold(key, write.owner, write.bytes, expiresAt, write.holder);
      if (map.size > maxKeys) {
        const oldest = map.keys().next().value!;
        map.delete(oldest);
        budget.release(oldest);
      }
    },
    async delete(key) {
      map.delete(key);
      budget.release(key);
    },
    exceeds: (key, owner, bytes, holder) => budget.exceeds(key, owner, bytes, holder),
    useLedger: (ledger) => budget.useLedger(ledger),
    get size() {
      return map.size;
    },
    dispose: () => budget.dispose(),
  };
}
