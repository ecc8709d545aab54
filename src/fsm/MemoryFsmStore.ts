import type { FsmLease, FsmLeaseEnd, FsmStateStore } from './FsmStateStore.js';
import type { FsmSnapshot } from './types.js';

/**
 * An in-memory {@link FsmStateStore} (single process), with an atomic compare-and-set and leases
 * (`acquire`) that exclude each other per key, like the Redis store's.
 */
export class MemoryFsmStore implements FsmStateStore {
  readonly #data = new Map<string, FsmSnapshot>();
  /** Held keys, each with the callbacks of the leases waiting for it (in order). */
  readonly #held = new Map<string, Array<() => void>>();

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

  async acquire(key: string, options: { waitMs: number }): Promise<FsmLease> {
    const waiters = this.#held.get(key);
    if (waiters === undefined) this.#held.set(key, []);
    else {
      await new Promise<void>((resolve, reject) => {
        const handOver = (): void => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(handOver), 1);
          reject(new Error(`another call held the lock of "${key}" for more than ${options.waitMs} ms`));
        }, options.waitMs);
        waiters.push(handOver);
      });
    }
    const loaded = this.#data.get(key);
    let ended = false;
    return {
      snapshot: loaded === undefined ? undefined : { ...loaded },
      end: async (next?: FsmSnapshot): Promise<FsmLeaseEnd> => {
        if (ended) return 'released';
        ended = true;
        const result = next === undefined ? 'released' : (await this.compareAndSet(key, loaded?.version, next)) ? 'saved' : 'conflict';
        const queue = this.#held.get(key)!;
        const following = queue.shift();
        if (following !== undefined) following();
        else this.#held.delete(key);
        return result;
      },
    };
  }

  async delete(key: string): Promise<void> {
    this.#data.delete(key);
  }

  get size(): number {
    return this.#data.size;
  }
}
