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
}
