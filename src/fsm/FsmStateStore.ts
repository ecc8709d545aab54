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
}
