import { clockOf, type Timer } from '../_internal/clock.js';
import { deepFreeze, MemorySessionStore } from './MemorySessionStore.js';
import type { SessionStore } from './SessionStore.js';
import { TrackedSessions, type Tracked } from './TrackedSessions.js';
import type { SessionEvent, SessionPhase, SessionRecord, SessionTimeouts } from './types.js';

const DEFAULTS: Required<SessionTimeouts> = {
  initializeMs: 30_000,
  neverUsedMs: 5 * 60_000,
  idleMs: 30 * 60_000,
  ttlMs: 24 * 60 * 60_000,
  sweepIntervalMs: 1_000,
};

/** Options of {@link SessionManager}. */
export interface SessionManagerOptions {
  store?: SessionStore;
  timeouts?: SessionTimeouts;
  /** The clock of timeouts and of the sweep's timer (default `Date.now`, real timers); see `createClock()`. */
  now?: () => number;
  /** Every lifecycle transition. */
  onEvent?: (event: SessionEvent) => void;
  /** Called when a session leaves memory (idle) or ends (closed/destroyed): release its server. */
  onRelease?: (id: string, phase: 'idle' | 'destroyed') => void;
  onError?: (error: unknown) => void;
}

/**
 * The legacy session lifecycle — created → active ⇄ idle → closed → destroyed — with a never-used
 * timeout, an idle timeout, an absolute TTL and an initialize deadline, over a pluggable store.
 * Idle sessions leave memory but stay in the store; a request for one resumes it.
 * @see docs/protocol-lifecycle.md
 */
export class SessionManager {
  readonly store: SessionStore;
  readonly timeouts: Required<SessionTimeouts>;
  readonly #now: () => number;
  readonly #onEvent: (event: SessionEvent) => void;
  readonly #onRelease: NonNullable<SessionManagerOptions['onRelease']>;
  readonly #onError: (error: unknown) => void;
  readonly #tracked = new TrackedSessions();
  #sweeper: Timer | undefined;

  constructor(options: SessionManagerOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.store = options.store ?? new MemorySessionStore({ now: this.#now });
    this.timeouts = { ...DEFAULTS, ...options.timeouts };
    this.#onEvent = options.onEvent ?? (() => {});
    this.#onRelease = options.onRelease ?? (() => {});
    this.#onError = options.onError ?? (() => {});
  }

  /** Sessions this process tracks (created, active or idle; idle ones hold no server). */
  get count(): number {
    return this.#tracked.size;
  }

  /** Sessions this process tracks for one budget owner (a principal key or a peer address). */
  countFor(owner: string): number {
    return this.#tracked.countFor(owner);
  }

  /**
   * The session to evict when a budget is full: the oldest one that was never used (its handshake is pending
   * or it has had no request since), else the least recently used. `owner` limits the choice to that
   * owner's sessions; without it, the choice is among the sessions of the owner holding the most (every
   * session when none holds more than one), so that a flood pays for itself before a client holding one
   * session does, even one in the middle of its handshake.
   */
  evictionCandidate(owner?: string): string | undefined {
    return this.#tracked.evictionCandidate(owner);
  }

  /** The tracked record of a session (undefined when unknown here). */
  get(id: string): SessionRecord | undefined {
    return this.#tracked.get(id)?.record;
  }

  /** Records a session opened by `initialize`. */
  async create(
    id: string,
    init: Pick<SessionRecord, 'protocolVersion' | 'clientInfo' | 'clientCapabilities' | 'principal' | 'owner'>,
  ): Promise<SessionRecord> {
    const now = this.#now();
    // The initialize parameters never change: frozen, they are shared with the in-memory store, not copied.
    const record: SessionRecord = {
      id,
      createdAt: now,
      lastAccessAt: now,
      phase: 'created',
      initialized: false,
      ...init,
      clientInfo: deepFreeze(init.clientInfo),
      clientCapabilities: deepFreeze(init.clientCapabilities),
    };
    this.#tracked.set(id, { record, lastAccessAt: now });
    this.#startSweeping();
    try {
      await this.#persist(record);
    } catch (error) {
      this.#tracked.delete(id);
      throw error;
    }
    this.#emit(id, undefined, 'created', 'initialize');
    return record;
  }

  /** The client completed the handshake (`notifications/initialized`). */
  async initialized(id: string): Promise<void> {
    const tracked = this.#tracked.get(id);
    if (tracked === undefined || tracked.record.initialized) return;
    tracked.record.initialized = true;
    await this.#persist(tracked.record);
  }

  /**
   * A request arrived for a live session; `use` is false for handshake messages. The session becomes the
   * most recently used (tracking order is least recently used first).
   */
  touch(id: string, use: boolean): void {
    const tracked = this.#tracked.get(id);
    if (tracked === undefined) return;
    tracked.lastAccessAt = this.#now();
    this.#tracked.set(id, tracked);
    if (use && tracked.record.phase === 'created') this.#setPhase(tracked, 'active', 'first-use');
  }

  /**
   * A request for a session that is not live in this process: loads it from the store and marks it
   * active. Resolves `undefined` when it is unknown, destroyed or past its TTL (the caller answers 404).
   */
  async resume(id: string): Promise<SessionRecord | undefined> {
    const record = this.#tracked.get(id)?.record ?? (await this.store.get(id));
    if (record === undefined || record.phase === 'closed' || record.phase === 'destroyed') return undefined;
    if (this.#now() - record.createdAt >= this.timeouts.ttlMs) {
      await this.destroy(id, 'ttl');
      return undefined;
    }
    const tracked = { record, lastAccessAt: this.#now() };
    this.#tracked.set(id, tracked);
    this.#startSweeping();
    if (record.phase !== 'active') this.#setPhase(tracked, 'active', 'resume');
    return record;
  }

  /** Writes a changed record (workflow state, log level) to the store. */
  async save(record: SessionRecord): Promise<void> {
    await this.store.set(record, Math.max(1, record.createdAt + this.timeouts.ttlMs - this.#now()));
  }

  /** Ends a session for good: released, deleted from the store, its id answered with 404 from now on. */
  async destroy(id: string, reason: SessionEvent['reason']): Promise<void> {
    const tracked = this.#tracked.get(id);
    this.#tracked.delete(id);
    const from = tracked?.record.phase;
    // Every end passes through closed from the phase the session was really in (a TTL may end an idle or active session, never-used a created one).
    if (from !== 'closed' && from !== 'destroyed') this.#emit(id, from, 'closed', reason);
    this.#onRelease(id, 'destroyed');
    try {
      await this.store.delete(id);
    } catch (error) {
      this.#onError(error);
    }
    this.#emit(id, 'closed', 'destroyed', reason);
    if (this.#tracked.size === 0) this.#stopSweeping();
  }

  /** Applies every timeout due now. Runs on an interval; tests with fake clocks call it directly. */
  async sweep(): Promise<void> {
    const now = this.#now();
    const t = this.timeouts;
    for (const [id, tracked] of [...this.#tracked.entries()]) {
      const { record } = tracked;
      if (now - record.createdAt >= t.ttlMs) await this.destroy(id, 'ttl');
      else if (record.phase === 'created' && !record.initialized && now - record.createdAt >= t.initializeMs) {
        if (!(await this.#advancedElsewhere(tracked, (r) => r.initialized)))
          await this.destroy(id, 'handshake-timeout');
      } else if (record.phase === 'created' && now - tracked.lastAccessAt >= t.neverUsedMs) {
        if (!(await this.#advancedElsewhere(tracked, (r) => r.phase !== 'created')))
          await this.destroy(id, 'never-used');
      } else if (record.phase === 'active' && now - tracked.lastAccessAt >= t.idleMs) {
        this.#setPhase(tracked, 'idle', 'idle');
        this.#onRelease(id, 'idle');
      }
    }
    if (this.#tracked.size === 0) this.#stopSweeping();
  }

  /**
   * Another process ended the session (its DELETE landed there): drops it from this process and
   * releases its server, without touching the store or emitting lifecycle events.
   */
  forget(id: string): void {
    if (!this.#tracked.delete(id)) return;
    this.#onRelease(id, 'idle');
    if (this.#tracked.size === 0) this.#stopSweeping();
  }

  /**
   * Several processes may serve one session (a shared store): before a handshake or never-used timeout
   * destroys it, check whether another process completed the handshake or used it, and adopt that record.
   * A store that cannot be read postpones the decision to the next sweep.
   */
  async #advancedElsewhere(tracked: Tracked, advanced: (stored: SessionRecord) => boolean): Promise<boolean> {
    let stored: SessionRecord | undefined;
    try {
      stored = await this.store.get(tracked.record.id);
    } catch (error) {
      this.#onError(error);
      return true;
    }
    if (stored === undefined || !advanced(stored)) return false;
    tracked.record = { ...stored, phase: stored.phase === 'created' ? 'created' : 'active' };
    return true;
  }

  /**
   * Shutdown: releases every live session's server and stops the sweeper, but keeps the records, so
   * that with a persistent store clients continue with the same `Mcp-Session-Id` after a restart.
   */
  stop(): void {
    for (const [id, tracked] of this.#tracked.entries())
      if (tracked.record.phase !== 'idle') this.#onRelease(id, 'idle');
    this.#tracked.clear();
    this.#stopSweeping();
    if (this.store instanceof MemorySessionStore) this.store.dispose();
  }

  #setPhase(tracked: Tracked, to: SessionPhase, reason: SessionEvent['reason']): void {
    const from = tracked.record.phase;
    tracked.record.phase = to;
    tracked.record.lastAccessAt = tracked.lastAccessAt;
    this.#emit(tracked.record.id, from, to, reason);
    void this.#persist(tracked.record).catch(this.#onError);
  }

  async #persist(record: SessionRecord): Promise<void> {
    await this.save(record);
  }

  #emit(id: string, from: SessionPhase | undefined, to: SessionPhase, reason: SessionEvent['reason']): void {
    try {
      this.#onEvent({ id, from, to, reason, at: this.#now() });
    } catch (error) {
      this.#onError(error);
    }
  }

  #startSweeping(): void {
    if (this.#sweeper !== undefined) return;
    this.#sweeper = clockOf(this.#now).setInterval(
      () => void this.sweep().catch(this.#onError),
      this.timeouts.sweepIntervalMs,
    );
  }

  #stopSweeping(): void {
    this.#sweeper?.cancel();
    this.#sweeper = undefined;
  }
}
