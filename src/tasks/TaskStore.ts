import type { TaskRecord, VersionedTask } from './types.js';

/** One page of a principal's tasks ({@link TaskStore.list}). */
export interface TaskPage {
  readonly records: readonly TaskRecord[];
  /** The position of the last record, when more may follow. */
  readonly next?: string;
}

/**
 * Where a task sits in its owner's listing: its creation time (zero-padded, so positions sort as strings)
 * and its id, which breaks ties.
 */
export function taskPosition(record: Pick<TaskRecord, 'createdAt' | 'id'>): string {
  return `${String(Math.max(0, Math.trunc(record.createdAt))).padStart(15, '0')}:${record.id}`;
}

/** How {@link TaskStore.compareAndSet} ended. */
export type TaskWrite =
  /** Written. */
  | 'ok'
  /** Not written: the stored version moved on (another writer came first); read again and retry. */
  | 'conflict'
  /** Not written: the task is already terminal (or gone); terminal tasks never change. */
  | 'final';

/**
 * Where tasks live (`MemoryTaskStore`, `RedisTaskStore` from `mcp-fusion/redis`). A dumb, versioned
 * record store: the transitions (once-only terminal states, input, leases) are computed outside it and
 * written with {@link TaskStore.compareAndSet}, so every backend behaves the same under races.
 * @see docs/tasks.md
 */
export interface TaskStore {
  /**
   * Stores a new task (version 1), removed once `createdAt + ttlMs` has passed. Refuses with `'busy'`
   * when its owner already has `maxActivePerOwner` active tasks in this store.
   */
  create(record: TaskRecord, options: { maxActivePerOwner: number }): Promise<'ok' | 'busy'>;
  /** The task and its version; undefined when unknown or expired. */
  get(id: string): Promise<VersionedTask | undefined>;
  /**
   * Replaces the task with `next` only if its version is still `version` and it is not terminal: of two
   * writers racing from one version, exactly one gets `'ok'`. The expiry stays that of the creation.
   */
  compareAndSet(id: string, version: number, next: TaskRecord): Promise<TaskWrite>;
  /**
   * Counts a result of `bytes` for task `id` against its owner until `expiresAt` (when the task, and its
   * result, expire). Resolves false, counting nothing, when the owner's stored results would exceed `maxBytes`.
   */
  reserveResult(
    owner: string,
    id: string,
    bytes: number,
    options: { expiresAt: number; maxBytes: number },
  ): Promise<boolean>;
  /**
   * One page of `owner`'s tasks (terminal ones included, expired ones not), oldest first: at most `limit`,
   * starting after the {@link taskPosition} `after`; `next` is the position to continue after, when more
   * remain. Optional: a store without it makes `tasks/list` answer that listing is unavailable.
   */
  list?(owner: string, options: { after?: string | undefined; limit: number }): Promise<TaskPage>;
  /**
   * Ids of active tasks whose lease ran out by `now` (at most `limit`), so that a live instance takes them over
   * without waiting for a reader. Optional: without it, a lost task is noticed when it is next read.
   */
  expiredLeases?(now: number, limit: number): Promise<string[]>;
  /** Releases the timers and connections the store owns (not a client it was given). */
  close?(): void;
}
