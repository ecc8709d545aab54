import type { FsmStateStore } from './FsmStateStore.js';
import type { FsmSnapshot } from './types.js';

/** An in-memory {@link FsmStateStore} (single process), with an atomic compare-and-set. */
export class MemoryFsmStore implements FsmStateStore {
  readonly #data = new Map<string, FsmSnapshot>();

  async load(key: string): Promise<FsmSnapshot | undefined> {
    const snap = this.#data.get(key);
    return snap === undefined ? undefined : { ...snap };
  }

  async save(key: string, snapshot: FsmSnapshot): Promise<void> {
    this.#data.set(key, { ...snapshot });
    if (this.#data.size % 1024 === 0) this.purgeExpired();
  }

  /** Drops handle-keyed instances whose `expiresAt` has passed (also run every 1,024 writes). */
  purgeExpired(now = Date.now()): void {
    for (const [key, snap] of this.#data) if (snap.expiresAt !== undefined && snap.expiresAt <= now) this.#data.delete(key);
  }

  async compareAndSet(key: string, expectedVersion: number | undefined, snapshot: FsmSnapshot): Promise<boolean> {
    if (this.#data.get(key)?.version !== expectedVersion) return false;
    this.#data.set(key, { ...snapshot });
    return true;
  }

  async delete(key: string): Promise<void> {
    this.#data.delete(key);
  }

  get size(): number {
    return this.#data.size;
  }
}
