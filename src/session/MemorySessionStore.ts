import type { SessionStore } from './SessionStore.js';
import type { SessionRecord } from './types.js';

/** The default {@link SessionStore}: a map in this process, honouring each record's TTL on read. */
export class MemorySessionStore implements SessionStore {
  readonly #data = new Map<string, { record: SessionRecord; expiresAt: number }>();
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const entry = this.#data.get(id);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#data.delete(id);
      return undefined;
    }
    return structuredClone(entry.record);
  }

  async set(record: SessionRecord, ttlMs: number): Promise<void> {
    this.#data.set(record.id, { record: structuredClone(record), expiresAt: this.#now() + ttlMs });
  }

  async delete(id: string): Promise<void> {
    this.#data.delete(id);
  }

  get size(): number {
    return this.#data.size;
  }
}
