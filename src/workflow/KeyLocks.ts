import { KeyLock } from './KeyLock.js';

/** A key's lock held with nobody waiting: one shared marker, so an uncontended run allocates no lock. */
const HELD = 'held';

/**
 * The in-process locks of {@link WorkflowSessions}, one per key in use: the holder runs, later runs wait in
 * arrival order ({@link KeyLock}, made only when a second run arrives while the key is held).
 */
export class KeyLocks {
  readonly #locks = new Map<string, KeyLock | typeof HELD>();

  /** Takes the key's lock: `undefined` when it was free (taken at once, no hop), else resolves when handed over. */
  take(key: string): Promise<void> | undefined {
    const held = this.#locks.get(key);
    if (held === undefined) {
      this.#locks.set(key, HELD);
      return undefined;
    }
    if (held !== HELD) return held.wait();
    const lock = new KeyLock();
    this.#locks.set(key, lock);
    return lock.wait();
  }

  /** Hands the key's lock to the next waiting run, or frees it (and tells those waiting for it to go idle). */
  unlock(key: string): void {
    const lock = this.#locks.get(key);
    if (lock === undefined || (lock !== HELD && lock.handOver())) return;
    this.#locks.delete(key);
    if (lock !== HELD) lock.idle();
  }

  /** Runs `fn` once the key's lock is free with nobody waiting; false (and `fn` not kept) when it is free now. */
  whenIdle(key: string, fn: () => void): boolean {
    let lock = this.#locks.get(key);
    if (lock === undefined) return false;
    if (lock === HELD) this.#locks.set(key, (lock = new KeyLock()));
    lock.whenIdle(fn);
    return true;
  }

  /** The keys whose lock is held. */
  keys(): IterableIterator<string> {
    return this.#locks.keys();
  }
}
