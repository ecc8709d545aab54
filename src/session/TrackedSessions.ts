import type { SessionRecord } from './types.js';

/** A session this process tracks: its record and when it was last used. */
export interface Tracked {
  record: SessionRecord;
  /** Milliseconds of the last request, kept in memory (the store is written on phase changes). */
  lastAccessAt: number;
}

/**
 * The sessions one process tracks, least recently used first, indexed by budget owner
 * (`SessionRecord.owner`): what {@link SessionManager} counts, evicts and sweeps.
 */
export class TrackedSessions {
  readonly #tracked = new Map<string, Tracked>();
  /** Tracked sessions per budget owner. */
  readonly #owned = new Map<string, Set<string>>();

  get size(): number {
    return this.#tracked.size;
  }

  get(id: string): Tracked | undefined {
    return this.#tracked.get(id);
  }

  /** Every tracked session, least recently used first. */
  entries(): IterableIterator<[string, Tracked]> {
    return this.#tracked.entries();
  }

  /** Sessions tracked for one budget owner (a principal key or a peer address). */
  countFor(owner: string): number {
    return this.#owned.get(owner)?.size ?? 0;
  }

  /** Tracks `id` as the most recently used session. */
  set(id: string, tracked: Tracked): void {
    this.delete(id);
    this.#tracked.set(id, tracked);
    const owner = tracked.record.owner;
    if (owner === undefined) return;
    let ids = this.#owned.get(owner);
    if (ids === undefined) this.#owned.set(owner, (ids = new Set()));
    ids.add(id);
  }

  /** Stops tracking `id`; false when it was not tracked. */
  delete(id: string): boolean {
    const tracked = this.#tracked.get(id);
    if (tracked === undefined) return false;
    this.#tracked.delete(id);
    const owner = tracked.record.owner;
    const ids = owner === undefined ? undefined : this.#owned.get(owner);
    if (ids !== undefined && ids.delete(id) && ids.size === 0) this.#owned.delete(owner!);
    return true;
  }

  clear(): void {
    this.#tracked.clear();
    this.#owned.clear();
  }

  /**
   * The session to evict when a budget is full: the oldest one that was never used after its handshake,
   * else the least recently used. A session still in its handshake (`initialize` answered, `notifications/
   * initialized` not yet received) is never taken: it leaves by the initialize deadline. `owner` limits the
   * choice to that owner's sessions; without it, the choice is among the sessions of the owner holding the
   * most (every session when none holds more than one, or when the largest holds only handshakes), so that a
   * flood pays for itself before a client holding one session does. `undefined` when none may be taken.
   */
  evictionCandidate(owner?: string): string | undefined {
    if (owner !== undefined) return this.#pick(this.#owned.get(owner)?.keys() ?? []);
    let largest: ReadonlySet<string> | undefined;
    for (const set of this.#owned.values()) if (largest === undefined || set.size > largest.size) largest = set;
    const fromLargest = largest !== undefined && largest.size > 1 ? this.#pick(largest.keys()) : undefined;
    return fromLargest ?? this.#pick(this.#tracked.keys());
  }

  /** Of `ids` (least recently used first): the oldest never used after its handshake, else the first not in one. */
  #pick(ids: Iterable<string>): string | undefined {
    let used: string | undefined;
    for (const id of ids) {
      const record = this.#tracked.get(id)?.record;
      if (record === undefined || inHandshake(record)) continue;
      if (record.phase === 'created') return id;
      used ??= id;
    }
    return used;
  }
}

/** True while `initialize` was answered but `notifications/initialized` has not arrived. */
function inHandshake(record: SessionRecord): boolean {
  return record.phase === 'created' && !record.initialized;
}
