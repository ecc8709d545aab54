import { clockOf } from '../_internal/clock.js';
import { Sweeper } from '../_internal/Sweeper.js';
import type { SessionStore } from './SessionStore.js';
import type { SessionRecord } from './types.js';

/**
 * The default {@link SessionStore}: a map in this process, honouring each record's TTL on read and dropping
 * expired records by itself (an unref'd timer every `sweepEveryMs`, 30 s, while it holds any). The
 * `initialize` parameters (`clientInfo`, `clientCapabilities`) are never changed after the handshake, so
 * they are frozen and shared with the caller instead of copied: a session costs one copy of them.
 */
export class MemorySessionStore implements SessionStore {
  readonly #data = new Map<string, { record: SessionRecord; expiresAt: number }>();
  readonly #now: () => number;
  readonly #sweeper: Sweeper;

  constructor(options: { now?: () => number; sweepEveryMs?: number } = {}) {
    this.#now = options.now ?? Date.now;
    this.#sweeper = new Sweeper(() => this.purgeExpired(), options.sweepEveryMs ?? 30_000, clockOf(options.now));
  }

  /** Drops every record past its TTL (the timer runs it; reads drop an expired record as well). */
  purgeExpired(): void {
    const now = this.#now();
    for (const [id, entry] of this.#data) if (entry.expiresAt <= now) this.#data.delete(id);
    if (this.#data.size === 0) this.#sweeper.disarm();
  }

  /** Stops the timer (it restarts with the next write). */
  dispose(): void {
    this.#sweeper.disarm();
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const entry = this.#data.get(id);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#data.delete(id);
      return undefined;
    }
    return copy(entry.record);
  }

  async set(record: SessionRecord, ttlMs: number): Promise<void> {
    this.#data.set(record.id, { record: copy(record), expiresAt: this.#now() + ttlMs });
    this.#sweeper.arm();
  }

  async compareAndSet(record: SessionRecord, ttlMs: number, expected: number): Promise<boolean> {
    const entry = this.#data.get(record.id);
    const current = entry === undefined || entry.expiresAt <= this.#now() ? 0 : (entry.record.version ?? 0);
    if (current !== expected) return false;
    await this.set(record, ttlMs);
    return true;
  }

  async delete(id: string): Promise<void> {
    this.#data.delete(id);
  }

  get size(): number {
    return this.#data.size;
  }
}

/** A copy of a record that shares its (deep-frozen) initialize parameters and clones the rest. */
function copy(record: SessionRecord): SessionRecord {
  const { clientInfo, clientCapabilities, fsm, ...rest } = record;
  return {
    ...rest,
    clientInfo: deepFreeze(clientInfo),
    clientCapabilities: deepFreeze(clientCapabilities),
    ...(fsm === undefined ? {} : { fsm: structuredClone(fsm) }),
  };
}

/** Freezes a JSON value and everything in it (iteratively: the depth was bounded at the HTTP entry, but never trust it). */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next !== 'object' || next === null || Object.isFrozen(next)) continue;
    Object.freeze(next);
    for (const child of Object.values(next)) stack.push(child);
  }
  return value;
}
