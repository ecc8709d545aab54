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
   * The session to evict when a budget is full: the oldest one that was never used (its handshake is pending
   * or it has had no request since), else the least recently used. `owner` limits the choice to that
   * owner's sessions; without it, the choice is among the sessions of the owner holding the most (every
   * session when none holds more than one), so that a flood pays for itself before a client holding one
   * session does, even one in the middle of its handshake.
   */
  evictionCandidate(owner?: string): string | undefined {
    let ids: ReadonlySet<string> | ReadonlyMap<string, unknown> | undefined =
      owner === undefined ? undefined : this.#owned.get(owner);
    if (owner === undefined) {
      for (const set of this.#owned.values()) if (ids === undefined || set.size > ids.size) ids = set;
      if (ids === undefined || ids.size <= 1) ids = this.#tracked;
    }
    return ids === undefined ? undefined : (this.#oldestUnused(ids.keys()) ?? first(ids.keys()));
  }

  #oldestUnused(ids: Iterable<string>): string | undefined {
    for (const id of ids) if (this.#tracked.get(id)?.record.phase === 'created') return id;
    return undefined;
  }
}

function first(ids: Iterator<string>): string | undefined {
  const next = ids.next();
  return next.done === true ? undefined : next.value;
}
