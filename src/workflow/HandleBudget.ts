import { clockOf } from '../_internal/clock.js';
import { Sweeper } from '../_internal/Sweeper.js';
import { isRefusal, type ByteLedger, type Hold } from '../ledger/ByteLedger.js';
import type { Holder, LedgerRefusal } from '../ledger/types.js';

/** Bytes one live instance is held for on the ledger beside its owner and handle: its stored snapshot. */
const SNAPSHOT_BYTES = 256;

/** Limits of handle-keyed workflow instances (attach option `workflowHandles`). */
export interface WorkflowHandleLimits {
  /** Live instances one principal may hold at once (1,000); one more is refused until one finishes or expires. */
  maxPerPrincipal?: number;
  /** Live instances this process holds for everyone (50,000). */
  maxTotal?: number;
  /** How often instances past their idle expiry stop counting, while any count (30 s). */
  sweepEveryMs?: number;
}

/**
 * Counts the live workflow instances this process minted, per owner, until they reach a final state or
 * their idle expiry passes (an unref'd timer drops expired ones, so no read is needed). Counting is per
 * process: with several instances behind a shared store each one enforces its own share. With the runtime's
 * ledger ({@link useLedger}), each live instance is held there too (kind `handle`), so a principal, peer or
 * server whose held bytes are full cannot start one.
 * @see docs/security.md#the-ledger
 */
export class HandleBudget {
  readonly maxPerPrincipal: number;
  readonly maxTotal: number;
  readonly #byOwner = new Map<string, Map<string, number>>();
  readonly #now: () => number;
  readonly #sweeper: Sweeper;
  #total = 0;
  #ledger: ByteLedger | undefined;
  /** The ledger hold of each live instance, by owner and handle. */
  readonly #holds = new Map<string, Hold>();

  constructor(limits: WorkflowHandleLimits = {}, now: () => number = Date.now) {
    this.maxPerPrincipal = positive(limits.maxPerPrincipal, 1_000, 'maxPerPrincipal');
    this.maxTotal = positive(limits.maxTotal, 50_000, 'maxTotal');
    this.#now = now;
    this.#sweeper = new Sweeper(() => this.sweep(), limits.sweepEveryMs ?? 30_000, clockOf(now));
  }

  /** Holds every later instance on `ledger` (the runtime's) too. */
  useLedger(ledger: ByteLedger): void {
    this.#ledger = ledger;
  }

  /** The ledger's refusal of one more instance for `holder`; `undefined` when it fits (or without a ledger). */
  refusal(owner: string, holder: Holder | undefined): LedgerRefusal | undefined {
    if (this.#ledger === undefined || holder === undefined) return undefined;
    return this.#ledger.check('handle', holder, instanceBytes(owner, 'h'.repeat(40)));
  }

  /** Stops counting every instance past its idle expiry (the timer runs it while any instance counts). */
  sweep(): void {
    for (const owner of [...this.#byOwner.keys()]) this.#prune(owner);
    if (this.#total === 0) this.#sweeper.disarm();
  }

  /** Stops the timer (it restarts with the next instance). */
  dispose(): void {
    this.#sweeper.disarm();
  }

  /** Live instances in this process. */
  get size(): number {
    return this.#total;
  }

  /** Whether `owner` may start one more instance: `owner` / `total` name the budget that is full. */
  check(owner: string): 'ok' | 'owner' | 'total' {
    if ((this.#prune(owner)?.size ?? 0) >= this.maxPerPrincipal) return 'owner';
    if (this.#total >= this.maxTotal) {
      for (const key of [...this.#byOwner.keys()]) this.#prune(key);
      if (this.#total >= this.maxTotal) return 'total';
    }
    return 'ok';
  }

  /** Counts (or refreshes the expiry of) one live instance. */
  hold(owner: string, handle: string, expiresAt: number, holder?: Holder): void {
    let mine = this.#byOwner.get(owner);
    if (mine === undefined) this.#byOwner.set(owner, (mine = new Map()));
    if (!mine.has(handle)) this.#total++;
    const id = `${owner}\n${handle}`;
    if (this.#ledger !== undefined && holder !== undefined && !this.#holds.has(id)) {
      // Checked by `refusal` when the instance was minted; a race lost since leaves it uncounted.
      const hold = this.#ledger.take('handle', holder, instanceBytes(owner, handle));
      if (!isRefusal(hold)) this.#holds.set(id, hold);
    }
    mine.set(handle, expiresAt);
    this.#sweeper.arm();
  }

  /** The instance finished (or is gone): it no longer counts. */
  drop(owner: string, handle: string): void {
    const mine = this.#byOwner.get(owner);
    if (mine?.delete(handle) !== true) return;
    this.#total--;
    const id = `${owner}\n${handle}`;
    this.#holds.get(id)?.release();
    this.#holds.delete(id);
    if (mine.size === 0) this.#byOwner.delete(owner);
  }

  #prune(owner: string): Map<string, number> | undefined {
    const mine = this.#byOwner.get(owner);
    if (mine === undefined) return undefined;
    const now = this.#now();
    for (const [handle, expiresAt] of mine) if (expiresAt <= now) this.drop(owner, handle);
    return this.#byOwner.get(owner);
  }
}

function instanceBytes(owner: string, handle: string): number {
  return Buffer.byteLength(owner) + Buffer.byteLength(handle) + SNAPSHOT_BYTES;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(Number.isInteger(value) && value > 0))
    throw new RangeError(`workflowHandles.${name} must be a positive integer (got ${String(value)}).`);
  return value;
}
