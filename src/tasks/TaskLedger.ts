import { randomUUID } from 'node:crypto';
import type { ByteLedger, Hold } from '../ledger/ByteLedger.js';
import type { Holder } from '../ledger/types.js';
import { holdTaskArguments, settleHold } from './taskHolds.js';
import type { TaskStore } from './TaskStore.js';
import { leaseExpired, leaseLost } from './transitions.js';
import { decodeTaskCursor, encodeTaskCursor } from './taskCursor.js';
import { taskTexts } from './taskTexts.js';
import { isTerminal, type TaskBudgets, type TaskRecord, type TaskRun } from './types.js';

/** Options of {@link TaskLedger}. */
export interface TaskLedgerOptions {
  readonly store: TaskStore;
  readonly budgets?: TaskBudgets | undefined;
  /** The clock (epoch ms). Default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /** Where each task's arguments and stored outcome are counted (kind `task`): the runtime's ledger. */
  readonly held?: ByteLedger | undefined;
  /**
   * Applies the takeover policy to a task found past its lease (resolving it as stored after); default: it
   * fails as not safe to repeat. The task service passes its own (the tool's policy, a run again here).
   */
  readonly lost?: ((record: TaskRecord) => Promise<TaskRecord | undefined>) | undefined;
}

/** What a new task is made of. */
export interface NewTask {
  readonly owner: string;
  readonly tool: string;
  readonly requiredScopes?: readonly string[];
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly leaseUntil?: number;
  /** The instance that runs it (its first attempt). */
  readonly instance?: string;
  /** The call, kept for a run again elsewhere (tools declared `onLost: 'retry'`). */
  readonly run?: TaskRun;
  /** Whose bytes the task holds (the ledger's holder of the request that started it). */
  readonly holder?: Holder;
  /** The call's arguments, counted on the ledger while the task lives. */
  readonly arguments?: unknown;
}

/** A task could not be started: `message` says which budget and what to do. */
export class TaskRefused extends Error {
  override readonly name = 'TaskRefused';
}

const DEFAULTS: Required<TaskBudgets> = {
  maxActivePerPrincipal: 16,
  maxActivePerProcess: 256,
  maxResultBytes: 1024 * 1024,
  maxStoredBytesPerPrincipal: 16 * 1024 * 1024,
  maxTtlMs: 24 * 60 * 60 * 1000,
};

/**
 * The tasks of one process over a {@link TaskStore}: creation within the budgets, reads that honour
 * ownership (another principal's task is "not found") and leases (an active task whose instance is gone
 * becomes `failed` when read), and state steps written by compare-and-set, retried on conflict.
 */
export class TaskLedger {
  readonly store: TaskStore;
  readonly budgets: Required<TaskBudgets>;
  readonly now: () => number;
  readonly #held: ByteLedger | undefined;
  readonly #lost: (record: TaskRecord) => Promise<TaskRecord | undefined>;
  /** The ledger hold of each task this process runs, until its work has settled. */
  readonly #holds = new Map<string, Hold>();
  #active = 0;

  constructor(options: TaskLedgerOptions) {
    this.store = options.store;
    this.budgets = { ...DEFAULTS, ...definedOnly(options.budgets ?? {}) };
    this.now = options.now ?? Date.now;
    this.#held = options.held;
    this.#lost = options.lost ?? ((r) => this.step(r.id, (x) => leaseExpired(x, this.now())));
  }

  /** Tasks this process runs now. */
  get active(): number {
    return this.#active;
  }

  /**
   * Creates a `working` task owned by `spec.owner`, or throws {@link TaskRefused} naming the budget hit (or
   * the ledger's JSON-RPC error when its arguments do not fit the holder's held bytes).
   */
  async create(spec: NewTask): Promise<TaskRecord> {
    if (this.#active >= this.budgets.maxActivePerProcess)
      throw new TaskRefused(taskTexts.busyProcess(spec.tool, this.budgets.maxActivePerProcess));
    const now = this.now();
    const record: TaskRecord = {
      id: randomUUID(),
      owner: spec.owner,
      tool: spec.tool,
      ...(spec.requiredScopes !== undefined && spec.requiredScopes.length > 0
        ? { requiredScopes: [...spec.requiredScopes] }
        : {}),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: Math.min(Math.max(1, Math.trunc(spec.ttlMs)), this.budgets.maxTtlMs),
      pollIntervalMs: Math.max(1, Math.trunc(spec.pollIntervalMs)),
      ...(spec.leaseUntil !== undefined ? { leaseUntil: spec.leaseUntil } : {}),
      ...(spec.instance !== undefined ? { instance: spec.instance, attempt: 1 } : {}),
      ...(spec.run !== undefined ? { run: spec.run } : {}),
    };
    const expiresAt = record.createdAt + record.ttlMs;
    const hold = this.#held && holdTaskArguments(this.#held, spec.holder ?? { principal: spec.owner }, spec, expiresAt);
    this.#active++;
    try {
      const created = await this.store.create(record, { maxActivePerOwner: this.budgets.maxActivePerPrincipal });
      if (created === 'busy')
        throw new TaskRefused(taskTexts.busyPrincipal(spec.tool, this.budgets.maxActivePerPrincipal));
    } catch (error) {
      this.#active--;
      hold?.release();
      throw error;
    }
    if (hold !== undefined) this.#holds.set(record.id, hold);
    return record;
  }

  /** Counts a task this process took over from a lost instance as one it runs (until {@link release}). */
  adopt(): void {
    this.#active++;
  }

  /**
   * Called once when the work of a task this process created has settled (its hold then lives on in the
   * ledger until the record expires).
   */
  release(id?: string): void {
    this.#active = Math.max(0, this.#active - 1);
    if (id !== undefined) this.#holds.delete(id);
  }

  /** The ledger hold of task `id` while this process runs it (undefined without a ledger, or once settled). */
  holdOf(id: string): Hold | undefined {
    return this.#holds.get(id);
  }

  /** The task `id` as `owner` may see it; undefined when unknown, expired or another principal's. */
  async get(id: string, owner: string): Promise<TaskRecord | undefined> {
    const found = await this.store.get(id);
    if (found === undefined || found.record.owner !== owner) return undefined;
    if (!leaseLost(found.record, this.now())) return found.record;
    return this.#lost(found.record);
  }

  /**
   * One page of `owner`'s tasks (`limit` at most), after the opaque `cursor` of the previous page; `nextCursor`
   * when more remain. Throws `TaskCursorError` for a cursor not issued to `owner`, and a plain error when the
   * store cannot list.
   */
  async list(
    owner: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ records: TaskRecord[]; nextCursor?: string }> {
    if (this.store.list === undefined)
      throw new Error('This server keeps its tasks in a store that cannot list them (TaskStore.list is missing).');
    const after = cursor === undefined ? undefined : decodeTaskCursor(owner, cursor);
    const page = await this.store.list(owner, { after, limit });
    const now = this.now();
    const records = await Promise.all(
      page.records.map(async (r) => (leaseLost(r, now) ? ((await this.#lost(r)) ?? r) : r)),
    );
    return page.next === undefined ? { records } : { records, nextCursor: encodeTaskCursor(owner, page.next) };
  }

  /**
   * Applies `step` to the stored task with compare-and-set, retrying on a conflict. Resolves the record as
   * stored afterwards (unchanged when the step did not apply), or undefined when the task is gone.
   */
  async step(id: string, step: (record: TaskRecord) => TaskRecord | undefined): Promise<TaskRecord | undefined> {
    for (;;) {
      const found = await this.store.get(id);
      if (found === undefined) return undefined;
      const next = step(found.record);
      if (next === undefined) return found.record;
      const written = await this.store.compareAndSet(id, found.version, next);
      if (written === 'ok') return this.#settled(id, next);
      if (written === 'final') return this.#settled(id, (await this.store.get(id))?.record);
    }
  }

  /** A terminal (or vanished) record: its hold counts the record as stored. */
  #settled(id: string, record: TaskRecord | undefined): TaskRecord | undefined {
    if (record === undefined || isTerminal(record.status)) settleHold(this.#holds.get(id), record);
    return record;
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
