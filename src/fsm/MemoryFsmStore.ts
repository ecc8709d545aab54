import { clockOf, type Clock } from '../_internal/clock.js';
import { Sweeper } from '../_internal/Sweeper.js';
import type { FsmLease, FsmLeaseEnd, FsmStateStore } from './FsmStateStore.js';
import type { FsmSnapshot } from './types.js';

/**
 * An in-memory {@link FsmStateStore} (single process), with an atomic compare-and-set and leases
 * (`acquire`) that exclude each other per key, like the Redis store's. Handle-keyed instances past their
 * `expiresAt` are dropped by an unref'd timer (every `sweepEveryMs`, 30 s, while any instance expires).
 */
export class MemoryFsmStore implements FsmStateStore {
  readonly #data = new Map<string, FsmSnapshot>();
  readonly #now: () => number;
  readonly #clock: Clock;
  readonly #sweeper: Sweeper;
  /** Stored snapshots that carry an expiry (the sweeper runs while there are any). */
  #expiring = 0;

  constructor(options: { now?: () => number; sweepEveryMs?: number } = {}) {
    this.#now = options.now ?? Date.now;
    this.#clock = clockOf(options.now);
    this.#sweeper = new Sweeper(() => this.purgeExpired(), options.sweepEveryMs ?? 30_000, this.#clock);
  }
  /** Held keys, each with the callbacks of the leases waiting for it (in order). */
  readonly #held = new Map<string, Array<() => void>>();

  async load(key: string): Promise<FsmSnapshot | undefined> {
    const snap = this.#data.get(key);
    return snap === undefined ? undefined : { ...snap };
  }

  async save(key: string, snapshot: FsmSnapshot): Promise<void> {
    this.#put(key, snapshot);
  }

  /** Drops handle-keyed instances whose `expiresAt` has passed (the timer runs it). */
  purgeExpired(now = this.#now()): void {
    for (const [key, snap] of this.#data) if (snap.expiresAt !== undefined && snap.expiresAt <= now) this.#remove(key);
    if (this.#expiring === 0) this.#sweeper.disarm();
  }

  /** Stops the timer (it restarts with the next expiring write). */
  dispose(): void {
    this.#sweeper.disarm();
  }

  async compareAndSet(key: string, expectedVersion: number | undefined, snapshot: FsmSnapshot): Promise<boolean> {
    if (this.#data.get(key)?.version !== expectedVersion) return false;
    this.#put(key, snapshot);
    return true;
  }

  #put(key: string, snapshot: FsmSnapshot): void {
    this.#remove(key);
    this.#data.set(key, { ...snapshot });
    if (snapshot.expiresAt !== undefined) {
      this.#expiring++;
      this.#sweeper.arm();
    }
  }

  #remove(key: string): void {
    const old = this.#data.get(key);
    if (old === undefined) return;
    this.#data.delete(key);
    if (old.expiresAt !== undefined) this.#expiring--;
  }

  async acquire(key: string, options: { waitMs: number }): Promise<FsmLease> {
    const waiters = this.#held.get(key);
    if (waiters === undefined) this.#held.set(key, []);
    else {
      await new Promise<void>((resolve, reject) => {
        const handOver = (): void => {
          timer.cancel();
          resolve();
        };
        const timer = this.#clock.setTimeout(() => {
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
        const result =
          next === undefined
            ? 'released'
            : (await this.compareAndSet(key, loaded?.version, next))
              ? 'saved'
              : 'conflict';
        const queue = this.#held.get(key)!;
        const following = queue.shift();
        if (following !== undefined) following();
        else this.#held.delete(key);
        return result;
      },
    };
  }

  async delete(key: string): Promise<void> {
    this.#remove(key);
  }

  get size(): number {
    return this.#data.size;
  }
}
