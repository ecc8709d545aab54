import type { SessionRecord } from './types.js';

/**
 * Where legacy session metadata lives: protocol version, client info and capabilities, log level and
 * workflow snapshots. The in-memory store is the default; a persistent store lets a client keep its
 * `Mcp-Session-Id` across restarts and instances.
 * @see docs/protocol-lifecycle.md
 */
export interface SessionStore {
  get(id: string): Promise<SessionRecord | undefined>;
  /** Writes the record; `ttlMs` is how long it may live from now (stores with key expiry use it). */
  set(record: SessionRecord, ttlMs: number): Promise<void>;
  delete(id: string): Promise<void>;
  /**
   * Optional compare-and-set, for data several instances write: writes `record` only when the stored record's
   * `version` (0 when there is none, or no record) equals `expected`, in one atomic step; false otherwise.
   * Per-session data (`extra.session`) uses it, when present, so that no instance's write is lost.
   */
  compareAndSet?(record: SessionRecord, ttlMs: number, expected: number): Promise<boolean>;
}
