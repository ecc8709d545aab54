import type { Clock, Timer } from '../../_internal/clock.js';
import type { HandlerExtra } from '../../protocol/types.js';
import type { TaskLedger } from '../../tasks/TaskLedger.js';
import { claimOutcome, finish, renewLease } from '../../tasks/transitions.js';
import { taskTexts } from '../../tasks/taskTexts.js';
import { isTerminal, type TaskRecord } from '../../tasks/types.js';
import { attemptOf, keptOutcome, taskOutcome, type Settled } from './taskOutcome.js';
import type { TaskWatchers } from './TaskWatchers.js';

/**
 * The runs of tasks in this process: each one's lease renewals, its abort (cancel, takeover elsewhere,
 * shutdown), and its outcome stored once, only while its attempt is the task's current one.
 */
export class TaskRuns {
  readonly #ledger: TaskLedger;
  readonly #watchers: TaskWatchers;
  readonly #clock: Clock;
  readonly #leaseMs: number;
  readonly #running = new Map<string, AbortController>();
  /** The tasks of this process whose outcome is not in the store yet (running, or being written). */
  readonly #outcomes = new Set<Promise<void>>();

  constructor(parts: { ledger: TaskLedger; watchers: TaskWatchers; clock: Clock; leaseMs: number }) {
    this.#ledger = parts.ledger;
    this.#watchers = parts.watchers;
    this.#clock = parts.clock;
    this.#leaseMs = parts.leaseMs;
  }

  /** True while task `id` runs in this process. */
  has(id: string): boolean {
    return this.#running.has(id);
  }

  /** Aborts the run of task `id` here, when it runs here. */
  abort(id: string, reason: Error): void {
    this.#running.get(id)?.abort(reason);
  }

  /** Aborts every run here (shutdown). */
  abortAll(reason: Error): void {
    for (const controller of this.#running.values()) controller.abort(reason);
  }

  /** Follows the run of `record`: renewals, cancel, its outcome stored once; resolves once stored (or given up). */
  drive(
    record: TaskRecord,
    controller: AbortController,
    extra: HandlerExtra,
    running: Promise<Settled>,
    sessionId?: string,
  ): Promise<void> {
    const attempt = attemptOf(record);
    this.#running.set(record.id, controller);
    this.#watchers.emit(record, sessionId);
    const renewEvery = Math.max(10, this.#leaseMs / 3);
    const renew = this.#clock.setInterval(() => void this.#renew(record.id, controller, attempt), renewEvery);
    // The run's own signal aborts on timeout, on cancel (the task's controller) and on shutdown (after the drain).
    const shutDown = (settled: Settled): boolean =>
      settled.ok &&
      settled.result.isError === true &&
      settled.result._meta?.['fusion/timeout'] === undefined &&
      !controller.signal.aborted &&
      extra.signal.aborted;
    const outcome = running
      .then((settled) =>
        this.#settle(
          record,
          attempt,
          shutDown(settled) ? { ok: false, error: new Error(taskTexts.shutDown(record.id, record.tool)) } : settled,
        ),
      )
      .finally(() => {
        renew.cancel();
        this.#running.delete(record.id);
        this.#outcomes.delete(outcome);
        this.#ledger.release(record.id);
      });
    this.#outcomes.add(outcome);
    return outcome;
  }

  /**
   * The work (its run `attempt`) returned: keep its result only if the task is still active on that attempt,
   * and from now on refuse cancels.
   */
  async claim(id: string, attempt: number): Promise<boolean> {
    const after = await this.#ledger.step(id, (r) => (attemptOf(r) === attempt ? claimOutcome(r) : undefined));
    return after !== undefined && !isTerminal(after.status) && attemptOf(after) === attempt;
  }

  /** Resolves once every run here has its outcome in the store, or after `ms` of the clock. */
  async stored(ms: number): Promise<void> {
    let timer: Timer | undefined;
    await Promise.race([
      Promise.allSettled([...this.#outcomes]),
      new Promise((resolve) => (timer = this.#clock.setTimeout(() => resolve(undefined), ms))),
    ]);
    timer?.cancel();
  }

  async #settle(record: TaskRecord, attempt: number, settled: Settled): Promise<void> {
    const ledger = this.#ledger;
    try {
      const outcome = await keptOutcome(ledger, record, taskOutcome(record, settled));
      const end = (r: TaskRecord): TaskRecord | undefined =>
        attemptOf(r) === attempt ? finish(r, ledger.now(), outcome) : undefined;
      this.#watchers.emit(await ledger.step(record.id, end));
    } catch {
      // The store is unreachable: the lease runs out and another instance applies the tool's policy.
    }
  }

  async #renew(id: string, controller: AbortController, attempt: number): Promise<void> {
    try {
      const until = this.#ledger.now() + this.#leaseMs;
      const after = await this.#ledger.step(id, (r) => renewLease(r, until, attempt));
      // Cancelled (or gone, or taken over) through another instance: stop the work here.
      if (after === undefined || isTerminal(after.status) || attemptOf(after) !== attempt)
        controller.abort(new Error(`task ${id} ended elsewhere`));
      else this.#watchers.wake(id);
    } catch {
      // The store is unreachable; the next tick tries again.
    }
  }
}
