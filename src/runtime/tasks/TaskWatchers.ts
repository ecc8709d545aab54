import type { Clock } from '../../_internal/clock.js';
import type { DebugEvent } from '../../tracing/types.js';
import { isTerminal, type TaskRecord, type TaskStatus } from '../../tasks/types.js';

/**
 * Who hears a task change in this process: status listeners (legacy status notifications), the debug observer
 * (status changes and progress messages), and the waits of `tasks/result` and of input requests, which a change wakes early.
 */
export class TaskWatchers {
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #listeners = new Set<(record: TaskRecord) => void>();
  readonly #debug: ((event: DebugEvent) => void) | undefined;
  /** What the debug observer last heard of each active task: its status, message and session. */
  readonly #told = new Map<
    string,
    { status: TaskStatus; message: string | undefined; sessionId: string | undefined }
  >();
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

  /**
   * Tells everyone of the task's new `record` (nothing for a task that is gone); `sessionId`: the legacy
   * session that started it (given at its creation, remembered while it is active).
   */
  emit(record: TaskRecord | undefined, sessionId?: string): void {
    if (record === undefined) return;
    this.wake(record.id);
    if (this.#debug !== undefined) this.#tell(this.#debug, record, sessionId);
    for (const listener of this.#listeners) listener(record);
  }

  /** The debug observer hears each status change (`task`) and each new progress message (`task_progress`). */
  #tell(debug: (event: DebugEvent) => void, record: TaskRecord, given: string | undefined): void {
    const told = this.#told.get(record.id);
    const message = record.statusMessage;
    if (told !== undefined && told.status === record.status && told.message === message) return;
    const sessionId = given ?? told?.sessionId;
    if (isTerminal(record.status)) this.#told.delete(record.id);
    else this.#told.set(record.id, { status: record.status, message, sessionId });
    const attempt = (record as { attempt?: unknown }).attempt;
    const about = {
      tool: record.tool,
      taskId: record.id,
      ...(sessionId !== undefined ? { sessionId } : {}),
      ...(typeof attempt === 'number' ? { attempt } : {}),
    };
    if (told?.status === record.status) {
      if (message !== undefined) debug({ type: 'task_progress', ...about, progress: message });
      return;
    }
    debug({
      type: 'task',
      ...about,
      status: record.status,
      ...(message !== undefined ? { statusMessage: message } : {}),
    });
  }

  /**
   * Resolves after `ms` (at least 10) of the clock, when the task `id` changes, or when `signal` aborts, whichever
   * is first; at once when `signal` has aborted already (during the caller's previous await).
   */
  pause(id: string, ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted === true) return Promise.resolve();
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
