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
   * else the least recently used. `owner` limits the choice to that owner's sessions, and then a session still
   * in its handshake (`initialize` answered, `notifications/initialized` not yet received) is never taken: it
   * may be another client behind the same address, and it leaves by the initialize deadline. Without `owner`
   * (the total budget), the choice is among the sessions of the owner holding the most: when that owner holds
   * more than one, even its handshakes may go (a flood of half-open sessions pays for itself, and cannot lock
   * out everyone else until its deadline); when nobody holds more than one, any session but a handshake.
   * `undefined` when none may be taken.
   */
  evictionCandidate(owner?: string): string | undefined {
    if (owner !== undefined) return this.#pick(this.#owned.get(owner)?.keys() ?? [], false);
    let largest: ReadonlySet<string> | undefined;
    for (const set of this.#owned.values()) if (largest === undefined || set.size > largest.size) largest = set;
    const fromLargest = largest !== undefined && largest.size > 1 ? this.#pick(largest.keys(), true) : undefined;
    return fromLargest ?? this.#pick(this.#tracked.keys(), false);
  }

  /**
   * Of `ids` (least recently used first): the oldest never used after its handshake, else the first used one;
   * a session in its handshake only with `handshakes`, and only when no other may go.
   */
  #pick(ids: Iterable<string>, handshakes: boolean): string | undefined {
    let used: string | undefined;
    let halfOpen: string | undefined;
    for (const id of ids) {
      const record = this.#tracked.get(id)?.record;
      if (record === undefined) continue;
      if (inHandshake(record)) {
        if (handshakes) halfOpen ??= id;
        continue;
      }
      if (record.phase === 'created') return id;
      used ??= id;
    }
    return used ?? halfOpen;
  }
}

/** True while `initialize` was answered but `notifications/initialized` has not arrived. */
function inHandshake(record: SessionRecord): boolean {
  return record.phase === 'created' && !record.initialized;
}
