import type { Clock, Timer } from '../../_internal/clock.js';
import type { TaskLedger } from '../../tasks/TaskLedger.js';
import { takeOver } from '../../tasks/transitions.js';
import type { TaskDeclaration, TaskRecord } from '../../tasks/types.js';

/** What {@link TaskTakeovers} works with: the service's ledger, clock and lease, and how to run a task again. */
export interface TaskTakeoverParts {
  readonly ledger: TaskLedger;
  readonly clock: Clock;
  readonly leaseMs: number;
  /** This instance's id (the `instance` of the tasks it runs). */
  readonly instance: string;
  /** The task declaration of a tool (its `onLost` policy); undefined for a tool this instance does not serve. */
  readonly policyOf: (tool: string) => TaskDeclaration | undefined;
  /** Runs a task this instance took over as its next attempt (here, or through the worker queue). */
  readonly rerun: (record: TaskRecord) => void;
  /** True when runs go to a worker queue: a taken-over task waits there unclaimed, without a lease. */
  readonly queued: boolean;
  /** Tells this process's watchers of a change. */
  readonly emit: (record: TaskRecord | undefined) => void;
}

/**
 * Notices tasks whose instance died (their lease ran out) and applies their tool's policy: a sweep every
 * quarter lease over the store's expired leases (when the store can list them and is shared), and every read
 * of a lost task. Of instances racing for one task, the compare-and-set lets exactly one take it.
 * @see docs/tasks.md#when-an-instance-dies
 */
export class TaskTakeovers {
  readonly #parts: TaskTakeoverParts;
  #sweep: Timer | undefined;
  #sweeping = false;

  constructor(parts: TaskTakeoverParts) {
    this.#parts = parts;
  }

  /** Starts the sweep (when the store lists expired leases). */
  start(): void {
    if (this.#parts.ledger.store.expiredLeases === undefined || this.#sweep !== undefined) return;
    const every = Math.max(10, Math.trunc(this.#parts.leaseMs / 4));
    this.#sweep = this.#parts.clock.setInterval(() => void this.sweep(), every);
  }

  stop(): void {
    this.#sweep?.cancel();
  }

  /** One sweep now: every lost task the store lists is taken over (or failed) per its policy. */
  async sweep(): Promise<void> {
    const { ledger } = this.#parts;
    if (this.#sweeping || ledger.store.expiredLeases === undefined) return;
    this.#sweeping = true;
    try {
      const ids = await ledger.store.expiredLeases(ledger.now(), 50);
      for (const id of ids) {
        const found = await ledger.store.get(id);
        if (found !== undefined) await this.lost(found.record);
      }
    } catch {
      // The store is unreachable: the next sweep tries again.
    } finally {
      this.#sweeping = false;
    }
  }

  /** Applies the policy of `record`'s tool to it (lost: its lease ran out); resolves the task as stored after. */
  async lost(record: TaskRecord): Promise<TaskRecord | undefined> {
    const { ledger, leaseMs, instance, queued } = this.#parts;
    const policy = this.#parts.policyOf(record.tool);
    const now = ledger.now();
    const after = await ledger.step(record.id, (r) =>
      takeOver(r, now, {
        onLost: policy?.onLost ?? 'fail',
        maxAttempts: policy?.maxAttempts ?? 1,
        instance: queued ? undefined : instance,
        leaseUntil: queued ? undefined : now + leaseMs,
      }),
    );
    // Taken over by this instance: the next attempt runs here (or goes to the queue; its job id is per attempt).
    const ours = queued ? after?.instance === undefined : after?.instance === instance;
    if (after?.status === 'working' && ours && (after.attempt ?? 1) > (record.attempt ?? 1)) this.#parts.rerun(after);
    this.#parts.emit(after);
    return after;
  }
}
