import type { Clock } from '../_internal/clock.js';
import type { DebugEvent } from '../tracing/types.js';
import { isTerminal, type TaskRecord, type TaskStatus } from '../tasks/types.js';

/**
 * Who hears a task change in this process: status listeners (legacy status notifications), the debug observer
 * (status changes only), and the waits of `tasks/result` and of input requests, which a change wakes early.
 */
export class TaskWatchers {
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #listeners = new Set<(record: TaskRecord) => void>();
  readonly #debug: ((event: DebugEvent) => void) | undefined;
  readonly #statuses = new Map<string, TaskStatus>();
  readonly #clock: Clock;

  /** `clock`: the timers of the waits (the runtime's: real, unref'd ones, or a test clock). */
  constructor(clock: Clock, debug?: (event: DebugEvent) => void) {
    this.#clock = clock;
    this.#debug = debug;
  }

  /** Hears every change of a task this process sees; returns unsubscribe. */
  onStatus(listener: (record: TaskRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells everyone of the task's new `record` (nothing for a task that is gone). */
  emit(record: TaskRecord | undefined): void {
    if (record === undefined) return;
    this.wake(record.id);
    // The debug observer hears status changes, not every progress message.
    if (this.#debug !== undefined && this.#statuses.get(record.id) !== record.status) {
      if (isTerminal(record.status)) this.#statuses.delete(record.id);
      else this.#statuses.set(record.id, record.status);
      this.#debug({
        type: 'task',
        tool: record.tool,
        taskId: record.id,
        status: record.status,
        ...(record.statusMessage !== undefined ? { statusMessage: record.statusMessage } : {}),
      });
    }
    for (const listener of this.#listeners) listener(record);
  }

  /** Resolves after `ms` (at least 10) of the clock, when the task `id` changes, or when `signal` aborts, whichever is first. */
  pause(id: string, ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(id) ?? new Set();
      this.#waiters.set(id, waiters);
      const done = (): void => {
        timer.cancel();
        signal?.removeEventListener('abort', done);
        waiters.delete(done);
        if (waiters.size === 0) this.#waiters.delete(id);
        resolve();
      };
      const timer = this.#clock.setTimeout(done, Math.max(10, ms));
      signal?.addEventListener('abort', done, { once: true });
      waiters.add(done);
    });
  }

  /** Ends the pauses on task `id` now (it changed, here or, as a lease renewal saw, elsewhere). */
  wake(id: string): void {
    for (const waiter of [...(this.#waiters.get(id) ?? [])]) waiter();
  }
}
