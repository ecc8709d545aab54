import type { FsmSnapshot } from './types.js';

/**
 * Persistence for per-session FSM state (`attachToServer(server, { fsm, fsmStore })`).
 * `load` runs before each `tools/list`/`tools/call` of a session, `save` after a changing transition.
 * @see docs/fsm-state-gate.md
 */
export interface FsmStateStore {
  load(sessionId: string): Promise<FsmSnapshot | undefined>;
  save(sessionId: string, snapshot: FsmSnapshot): Promise<void>;
  /**
   * Optional atomic write: stores `snapshot` only if the stored version is still `expectedVersion`
   * (`undefined` = nothing stored yet). Resolves `false` when another writer got there first.
   */
  compareAndSet?(sessionId: string, expectedVersion: number | undefined, snapshot: FsmSnapshot): Promise<boolean>;
  /** Optional: forget a session's state when the session ends. */
  delete?(sessionId: string): Promise<void>;
  /**
   * Optional mutual exclusion across processes, for stores shared by several server instances: held while
   * a bound tool runs and its transition is saved, so that a concurrent call on another instance waits and
   * then sees the new state (in-process calls are already serialized). Resolves a release function, or
   * rejects when the lock cannot be taken within `waitMs` (the call is then refused without running).
   */
  lock?(sessionId: string, options: { waitMs: number }): Promise<() => Promise<void>>;
  /**
   * Optional combined operation for shared stores: takes the key's cross-process lock and loads its
   * snapshot in one step (one round trip in Redis), and {@link FsmLease.end} saves and releases in one
   * more. A gated call then costs two store operations instead of four or five. Rejects when the lock
   * cannot be taken within `waitMs` (the call is then refused without running) or the store fails.
   * Stores without it are driven through `lock`, `load` and `compareAndSet`.
   */
  acquire?(sessionId: string, options: { waitMs: number }): Promise<FsmLease>;
}

/** How an {@link FsmLease} ended. */
export type FsmLeaseEnd =
  /** `next` was stored and the lock released. */
  | 'saved'
  /** Released without writing (no `next`). */
  | 'released'
  /** Not written: the stored version is no longer the one the lease loaded (another writer came first). */
  | 'conflict'
  /** Not written: the lease ran out before the save (the holder or the store stalled); another call may hold the key. */
  | 'expired';

/** A key held by {@link FsmStateStore.acquire}, with the snapshot stored when it was taken. */
export interface FsmLease {
  /** The stored snapshot when the lock was taken (`undefined`: nothing stored, or expired in the store). */
  readonly snapshot: FsmSnapshot | undefined;
  /**
   * Ends the lease once: with `next`, stores it only if the lease is still held and the stored version is
   * still `snapshot?.version` (compare-and-set, fenced by the lease); the lock is released in every case.
   * Later calls resolve `'released'` and do nothing.
   */
  end(next?: FsmSnapshot): Promise<FsmLeaseEnd>;
}
