import type { Clock, Timer } from '../_internal/clock.js';

/**
 * The debounced `list_changed` of {@link WorkflowSessions}: a burst of transitions of one key within `delayMs`
 * yields one `notify(key)` on its trailing edge, with one timer per burst (a pending timer is restarted, not
 * replaced). Failures of `notify`, thrown or rejected, go to `onError`.
 */
export class ListChangedDebounce {
  readonly #timers = new Map<string, Timer>();
  readonly #clock: Clock;
  readonly #delayMs: number;
  readonly #notify: ((key: string) => void | Promise<void>) | undefined;
  readonly #onError: (error: unknown) => void;

  constructor(
    clock: Clock,
    delayMs: number,
    notify: ((key: string) => void | Promise<void>) | undefined,
    onError: (error: unknown) => void,
  ) {
    this.#clock = clock;
    this.#delayMs = delayMs;
    this.#notify = notify;
    this.#onError = onError;
  }

  /** Starts the key's countdown, or restarts the pending one. */
  schedule(key: string): void {
    const pending = this.#timers.get(key);
    if (pending !== undefined) {
      pending.refresh();
      return;
    }
    const timer = this.#clock.setTimeout(() => {
      this.#timers.delete(key);
      try {
        const sent = this.#notify?.(key);
        if (sent !== undefined) void Promise.resolve(sent).catch(this.#onError);
      } catch (error) {
        this.#onError(error);
      }
    }, this.#delayMs);
    this.#timers.set(key, timer);
  }

  /** Cancels the key's pending notification. */
  cancel(key: string): void {
    this.#timers.get(key)?.cancel();
    this.#timers.delete(key);
  }

  /** Cancels every pending notification. */
  dispose(): void {
    for (const timer of this.#timers.values()) timer.cancel();
    this.#timers.clear();
  }

  /** The keys with a pending notification. */
  keys(): IterableIterator<string> {
    return this.#timers.keys();
  }
}
