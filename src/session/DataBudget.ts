import { clockOf } from '../_internal/clock.js';
import { Sweeper } from '../_internal/Sweeper.js';
import { isRefusal, type ByteLedger, type Hold } from '../ledger/ByteLedger.js';
import type { Holder } from '../ledger/types.js';

/** Budgets of handler data (`extra.session`) a process keeps, beside the cap of one key (`sessionDataMaxBytes`). */
export interface SessionDataLimits {
  /** Bytes (JSON) all keys of one principal (or, anonymous, one peer or session) may hold together (4 MiB). */
  maxBytesPerPrincipal?: number;
  /** Bytes (JSON) all keys may hold together in this process (32 MiB). */
  maxBytesTotal?: number;
  /** How often keys past their expiry stop counting, while any are counted (30 s). */
  sweepEveryMs?: number;
}

interface Held {
  readonly owner: string;
  readonly bytes: number;
  readonly expiresAt: number;
  /** The key's bytes on the runtime's ledger (kind `sessionData`). */
  readonly hold?: Hold | undefined;
}

/** A write over a budget: which, its cap, and (the ledger's) the text for the client. */
export interface DataBudgetExcess {
  readonly budget: 'principal' | 'peer' | 'total';
  readonly max: number;
  readonly message?: string;
}

/**
 * Counts the bytes of stored handler data per key, per owner and in total, each key until it is deleted or
 * its expiry passes. A write that would take its owner or the total past a budget is refused before it is
 * stored; O(1) per write. Expired keys stop counting when {@link sweep} runs (the data backend's timer), so
 * an owner's budget frees itself without a read. Counting is per process, like the other budgets. With the
 * runtime's ledger ({@link useLedger}), every key's bytes are held there too (kind `sessionData`), so the
 * ledger's budgets per principal, per peer and in total apply beside these caps.
 * @see docs/security.md#the-ledger
 */
export class DataBudget {
  readonly maxBytesPerPrincipal: number;
  readonly maxBytesTotal: number;
  readonly #keys = new Map<string, Held>();
  readonly #byOwner = new Map<string, number>();
  readonly #now: () => number;
  readonly #sweeper: Sweeper;
  #total = 0;
  #ledger: ByteLedger | undefined;

  readonly #onExpired: (key: string) => void;

  /** `onExpired` hears each key the sweep drops (a backend without expiry of its own deletes it then). */
  constructor(
    limits: SessionDataLimits = {},
    now: () => number = Date.now,
    onExpired: (key: string) => void = () => {},
  ) {
    this.#onExpired = onExpired;
    this.maxBytesPerPrincipal = positive(limits.maxBytesPerPrincipal, 4 * 1024 * 1024, 'maxBytesPerPrincipal');
    this.maxBytesTotal = positive(limits.maxBytesTotal, 32 * 1024 * 1024, 'maxBytesTotal');
    this.#now = now;
    this.#sweeper = new Sweeper(() => this.sweep(), limits.sweepEveryMs ?? 30_000, clockOf(now));
  }

  /** Charges every later write to `ledger` (the runtime's) too. */
  useLedger(ledger: ByteLedger): void {
    this.#ledger = ledger;
  }

  /** Bytes held now, in total. */
  get bytes(): number {
    return this.#total;
  }

  /** Bytes held now by `owner`. */
  bytesOf(owner: string): number {
    return this.#byOwner.get(owner) ?? 0;
  }

  /** Whether `key` may hold `bytes` for `owner` (what it held before is given back first). */
  check(key: string, owner: string, bytes: number): 'ok' | 'principal' | 'total' {
    const before = this.#live(key);
    const mine = this.bytesOf(owner) - (before?.owner === owner ? before.bytes : 0);
    if (mine + bytes > this.maxBytesPerPrincipal) return 'principal';
    if (this.#total - (before?.bytes ?? 0) + bytes > this.maxBytesTotal) return 'total';
    return 'ok';
  }

  /**
   * The budget `key` holding `bytes` for `owner` would exceed, and its cap; `undefined` when it fits. With a
   * ledger and the write's `holder`, the ledger's budgets are checked too (what `key` holds there now given back).
   */
  exceeds(key: string, owner: string, bytes: number, holder?: Holder): DataBudgetExcess | undefined {
    const over = this.check(key, owner, bytes);
    if (over !== 'ok')
      return { budget: over, max: over === 'principal' ? this.maxBytesPerPrincipal : this.maxBytesTotal };
    if (this.#ledger === undefined || holder === undefined) return undefined;
    const refused = this.#ledger.check('sessionData', holder, bytes - (this.#live(key)?.hold?.bytes ?? 0));
    return refused === undefined ? undefined : { budget: refused.budget, max: refused.max, message: refused.message };
  }

  /** Records that `key` now holds `bytes` for `owner` until `expiresAt` (and on the ledger, for `holder`). */
  hold(key: string, owner: string, bytes: number, expiresAt: number, holder?: Holder): void {
    const before = this.#keys.get(key)?.hold;
    this.release(key, before);
    this.#keys.set(key, { owner, bytes, expiresAt, hold: this.#charge(before, bytes, holder) });
    this.#byOwner.set(owner, this.bytesOf(owner) + bytes);
    this.#total += bytes;
    this.#sweeper.arm();
  }

  /** `key` was deleted: it no longer counts. */
  release(key: string, keep?: Hold): void {
    const held = this.#keys.get(key);
    if (held === undefined) return;
    this.#keys.delete(key);
    if (held.hold !== keep) held.hold?.release();
    const left = this.bytesOf(held.owner) - held.bytes;
    if (left <= 0) this.#byOwner.delete(held.owner);
    else this.#byOwner.set(held.owner, left);
    this.#total -= held.bytes;
  }

  /** Stops counting every key whose expiry has passed (the timer runs it while any key counts). */
  sweep(): void {
    const now = this.#now();
    for (const [key, held] of this.#keys) {
      if (held.expiresAt > now) continue;
      this.release(key);
      this.#onExpired(key);
    }
    if (this.#keys.size === 0) this.#sweeper.disarm();
  }

  /** Stops the timer (it restarts with the next write). */
  dispose(): void {
    this.#sweeper.disarm();
  }

  /** Number of keys counted. */
  get size(): number {
    return this.#keys.size;
  }

  /** The key's ledger hold, resized to `bytes` (a new one for another holder); undefined without a ledger. */
  #charge(before: Hold | undefined, bytes: number, holder: Holder | undefined): Hold | undefined {
    if (this.#ledger === undefined || holder === undefined) {
      before?.release();
      return undefined;
    }
    if (before !== undefined && !before.released && sameHolder(before.holder, holder)) {
      // Checked by `exceeds` before the write; a race lost since keeps what was counted.
      before.resize(bytes);
      return before;
    }
    before?.release();
    const hold = this.#ledger.take('sessionData', holder, bytes);
    return isRefusal(hold) ? undefined : hold;
  }

  #live(key: string): Held | undefined {
    const held = this.#keys.get(key);
    if (held !== undefined && held.expiresAt <= this.#now()) {
      this.release(key);
      return undefined;
    }
    return held;
  }
}

function sameHolder(a: Holder, b: Holder): boolean {
  return a.principal === b.principal && a.peer === b.peer;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(Number.isInteger(value) && value > 0))
    throw new RangeError(
      `sessionDataLimits.${name} must be a positive integer number of bytes (got ${String(value)}).`,
    );
  return value;
}
