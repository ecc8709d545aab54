/**
 * The in-process lock of one key of {@link WorkflowSessions}: the holder runs, later runs wait in arrival order.
 * Taking a free lock costs nothing asynchronous; a waiter costs one promise, resolved when the lock is
 * handed to it (the hand-over is a resolution, never a nested call, so long queues cannot grow the stack).
 */
export class KeyLock {
  /** Created with the first waiter: most locks are taken and freed with nobody waiting. */
  #waiting: Array<() => void> | undefined;
  #onIdle: Array<() => void> | undefined;

  /** Resolves when the lock is handed to this caller. */
  wait(): Promise<void> {
    return new Promise<void>((resolve) => (this.#waiting ??= []).push(resolve));
  }

  /** Hands the lock to the next waiter; false when nobody waits (the lock is then free). */
  handOver(): boolean {
    const next = this.#waiting?.shift();
    if (next === undefined) return false;
    next();
    return true;
  }

  /** Runs `fn` once the lock is free with nobody waiting (after every run queued so far, and any queued meanwhile). */
  whenIdle(fn: () => void): void {
    (this.#onIdle ??= []).push(fn);
  }

  /** Called by the owner when the lock became free: runs the `whenIdle` callbacks. */
  idle(): void {
    const callbacks = this.#onIdle;
    this.#onIdle = undefined;
    if (callbacks !== undefined) for (const fn of callbacks) fn();
  }
}
