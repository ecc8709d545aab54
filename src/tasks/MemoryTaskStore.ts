import { clockOf } from '../_internal/clock.js';
import { Sweeper } from '../_internal/Sweeper.js';
import { taskPosition, type TaskPage, type TaskStore, type TaskWrite } from './TaskStore.js';
import { isTerminal, type TaskRecord, type VersionedTask } from './types.js';

/** Options of {@link MemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /** The clock (epoch ms) and of the sweep's timer; tests pass `createClock().now`. Default `Date.now`. */
  now?: () => number;
  /** How often expired tasks are removed, in ms (one unref'd timer, while any task is held). Default 10,000. */
  sweepIntervalMs?: number;
}

interface Entry {
  record: TaskRecord;
  version: number;
}

/**
 * Tasks in this process's memory: for one instance, and for tests. Expired tasks are invisible at once
 * and removed by one unref'd sweep timer (running while any is held). Records are copied in and out, as a
 * remote store would.
 */
export class MemoryTaskStore implements TaskStore {
  readonly #tasks = new Map<string, Entry>();
  /** Per owner: the stored results counted against it, by task id. */
  readonly #results = new Map<string, Map<string, { bytes: number; expiresAt: number }>>();
  readonly #now: () => number;
  readonly #sweeper: Sweeper;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#sweeper = new Sweeper(() => this.sweep(), options.sweepIntervalMs ?? 10_000, clockOf(options.now));
  }

  async create(record: TaskRecord, options: { maxActivePerOwner: number }): Promise<'ok' | 'busy'> {
    let active = 0;
    for (const [id, entry] of this.#tasks) {
      if (this.#expired(entry)) this.#tasks.delete(id);
      else if (entry.record.owner === record.owner && !isTerminal(entry.record.status)) active++;
    }
    if (active >= options.maxActivePerOwner) return 'busy';
    this.#tasks.set(record.id, { record: structuredClone(record), version: 1 });
    this.#sweeper.arm();
    return 'ok';
  }

  async get(id: string): Promise<VersionedTask | undefined> {
    const entry = this.#live(id);
    return entry === undefined ? undefined : { record: structuredClone(entry.record), version: entry.version };
  }

  async compareAndSet(id: string, version: number, next: TaskRecord): Promise<TaskWrite> {
    const entry = this.#live(id);
    if (entry === undefined || isTerminal(entry.record.status)) return 'final';
    if (entry.version !== version) return 'conflict';
    entry.record = structuredClone({ ...next, createdAt: entry.record.createdAt, ttlMs: entry.record.ttlMs });
    entry.version++;
    return 'ok';
  }

  async list(owner: string, options: { after?: string | undefined; limit: number }): Promise<TaskPage> {
    const mine: Array<{ position: string; record: TaskRecord }> = [];
    for (const entry of this.#tasks.values()) {
      if (entry.record.owner !== owner || this.#expired(entry)) continue;
      const position = taskPosition(entry.record);
      if (options.after === undefined || position > options.after) mine.push({ position, record: entry.record });
    }
    mine.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
    const page = mine.slice(0, options.limit);
    const records = page.map((p) => structuredClone(p.record));
    return mine.length > options.limit ? { records, next: page[page.length - 1]!.position } : { records };
  }

  async expiredLeases(now: number, limit: number): Promise<string[]> {
    const lost: string[] = [];
    for (const [id, entry] of this.#tasks) {
      const { status, leaseUntil } = entry.record;
      if (lost.length >= limit) break;
      if (!this.#expired(entry) && !isTerminal(status) && leaseUntil !== undefined && leaseUntil <= now) lost.push(id);
    }
    return lost;
  }

  async reserveResult(
    owner: string,
    id: string,
    bytes: number,
    options: { expiresAt: number; maxBytes: number },
  ): Promise<boolean> {
    const now = this.#now();
    const held = this.#results.get(owner) ?? new Map<string, { bytes: number; expiresAt: number }>();
    let total = 0;
    for (const [task, r] of held) {
      if (r.expiresAt <= now) held.delete(task);
      else total += r.bytes;
    }
    if (total + bytes > options.maxBytes) return false;
    held.set(id, { bytes, expiresAt: options.expiresAt });
    this.#results.set(owner, held);
    this.#sweeper.arm();
    return true;
  }

  /** Removes every expired task now (the timer calls it). */
  sweep(): void {
    for (const [id, entry] of this.#tasks) if (this.#expired(entry)) this.#tasks.delete(id);
    const now = this.#now();
    for (const [owner, held] of this.#results) {
      for (const [task, r] of held) if (r.expiresAt <= now) held.delete(task);
      if (held.size === 0) this.#results.delete(owner);
    }
    if (this.#tasks.size === 0 && this.#results.size === 0) this.#sweeper.disarm();
  }

  /** Tasks held, expired ones not yet swept included (for leak checks). */
  get size(): number {
    return this.#tasks.size;
  }

  /** Stops the sweep timer (a later write restarts it). */
  close(): void {
    this.#sweeper.disarm();
  }

  #live(id: string): Entry | undefined {
    const entry = this.#tasks.get(id);
    if (entry === undefined) return undefined;
    if (!this.#expired(entry)) return entry;
    this.#tasks.delete(id);
    return undefined;
  }

  #expired(entry: Entry): boolean {
    return entry.record.createdAt + entry.record.ttlMs <= this.#now();
  }
}
