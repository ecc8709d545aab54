import type { FsmSnapshot } from '../fsm/types.js';

/** Phases of a legacy session: created → active ⇄ idle → closed → destroyed. */
export type SessionPhase = 'created' | 'active' | 'idle' | 'closed' | 'destroyed';

/** What a session store keeps about one legacy session. */
export interface SessionRecord {
  readonly id: string;
  readonly createdAt: number;
  lastAccessAt: number;
  phase: SessionPhase;
  /** True once the client sent `notifications/initialized`. */
  initialized: boolean;
  /** The `initialize` request's params, replayed to restore the session on another process or after a restart. */
  protocolVersion: string;
  clientInfo: { name: string; version: string; [key: string]: unknown };
  clientCapabilities: Record<string, unknown>;
  /**
   * The principal key of whoever opened the session (`principalOf`): a request presenting this session id
   * as another principal is refused. Absent on records written before binding existed.
   */
  principal?: string;
  /** What the session counts against in the per-principal budget (the principal, or the peer address of an anonymous opener). */
  owner?: string;
  logLevel?: string;
  /** Workflow state per machine key, when the FSM gate keeps it in the session. */
  fsm?: Record<string, FsmSnapshot>;
  /** Handler data (`extra.session`), on the store's own `fusion-data:` records. */
  data?: Record<string, unknown>;
  /** The record's version for `SessionStore.compareAndSet` (absent: 0). */
  version?: number;
}

/** One lifecycle transition, for logs and metrics. */
export interface SessionEvent {
  readonly id: string;
  readonly from: SessionPhase | undefined;
  readonly to: SessionPhase;
  readonly reason:
    | 'initialize'
    | 'initialized'
    | 'first-use'
    | 'idle'
    | 'resume'
    | 'handshake-timeout'
    | 'never-used'
    | 'ttl'
    | 'delete'
    | 'shutdown'
    | 'evicted';
  readonly at: number;
}

/** Timeouts of the session lifecycle, all in milliseconds. */
export interface SessionTimeouts {
  /** A session whose client never sends `notifications/initialized` is closed after this (30 s). */
  initializeMs?: number;
  /** A session never used after its handshake is destroyed after this (5 min). */
  neverUsedMs?: number;
  /** An active session without requests becomes idle (its server is released) after this (30 min). */
  idleMs?: number;
  /** Absolute lifetime from creation (24 h). */
  ttlMs?: number;
  /** How often expiry is checked (1 s). */
  sweepIntervalMs?: number;
}
