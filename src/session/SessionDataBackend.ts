import type { ByteLedger } from '../ledger/ByteLedger.js';
import type { Holder } from '../ledger/types.js';
import type { DataBudgetExcess, SessionDataLimits } from './DataBudget.js';
import type { VersionedData } from './updateData.js';

/** What a write tells its backend besides the data: whom it counts against, its size, and how long it may live. */
export interface SessionDataWrite {
  /** The budget owner: the principal, or the peer (else the session) of an anonymous caller. */
  readonly owner: string;
  /** The size of the data as JSON, in bytes. */
  readonly bytes: number;
  /** How long the data may live from now (a workflow instance's data: the workflow's idle TTL); the backend's own TTL otherwise. */
  readonly ttlMs?: number | undefined;
  /** Whose bytes they are on the runtime's held-bytes ledger (principal and network peer). */
  readonly holder?: Holder | undefined;
}

/** Where per-session handler data lives, one JSON object per key (`s:<session>`, a workflow or a principal key). */
export interface SessionDataBackend {
  load(key: string): Promise<Record<string, unknown> | undefined>;
  save(key: string, data: Record<string, unknown>, write?: SessionDataWrite): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Optional, with `saveIf`, for backends that several instances share: the data with its version (0: none).
   * With both, a write saves only over the version it read and retries otherwise, so no instance's write is lost.
   */
  loadVersioned?(key: string): Promise<VersionedData>;
  /** Optional: saves `data` only when the stored version is still `version`; false when another writer came first. */
  saveIf?(key: string, data: Record<string, unknown>, version: number, write?: SessionDataWrite): Promise<boolean>;
  /**
   * Optional budget check before a write (the built-in backends count bytes per owner and in total): the
   * budget `key` holding `bytes` for `owner` would exceed, or `undefined` when it fits.
   */
  exceeds?(key: string, owner: string, bytes: number, holder?: Holder): DataBudgetExcess | undefined;
  /**
   * Optional: charge the data's bytes to the runtime's held-bytes ledger too (kind `sessionData`); the
   * runtime calls it once. The built-in backends do.
   * @see docs/security.md#the-ledger
   */
  useLedger?(ledger: ByteLedger): void;
  /** Optional: stops the backend's timers when its app closes; it keeps working, and a later write restarts them. */
  dispose?(): void;
}

/** Options of the built-in data backends. */
export interface SessionDataBackendOptions {
  /** Budgets of the data per principal and in total (see {@link SessionDataLimits}). */
  limits?: SessionDataLimits;
  /** The clock of expiries (default `Date.now`). */
  now?: () => number;
}
