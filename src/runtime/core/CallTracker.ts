import type { RequestContext } from '../../surface/types.js';
import { requestPrincipal } from '../../principal/requestPrincipal.js';
import { carriedClock, monotonicClock } from '../../_internal/clock.js';
import { Deadlines } from './Deadlines.js';

/**
 * The calls running now: how many (for graceful drain), how many per principal (for the
 * `maxConcurrentCalls` stage), and the deadlines of their handlers (aborted when a drain runs out of time).
 */
export class CallTracker {
  /** The handlers' timeouts and abort signals. */
  readonly deadlines: Deadlines;
  readonly #running = new Map<string, number>();
  #inFlight = 0;
  #drained: (() => void) | undefined;

  /** `now`: the attach option; a test clock's `now` drives the deadlines, else they run on monotonic time. */
  constructor(now?: () => number) {
    this.deadlines = new Deadlines(carriedClock(now) ?? monotonicClock);
  }

  /** Tool calls running now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Counts one call as running until the promise `run(arg)` returns settles. */
  track<A, T>(run: (arg: A) => Promise<T>, arg: A): Promise<T> {
    this.#inFlight++;
    let pending: Promise<T>;
    try {
      pending = run(arg);
    } catch (error) {
      this.#left();
      return Promise.reject(error);
    }
    return pending.then(this.#settled, this.#failed);
  }

  readonly #settled = <T>(value: T): T => {
    this.#left();
    return value;
  };

  readonly #failed = (error: unknown): never => {
    this.#left();
    throw error;
  };

  #left(): void {
    if (--this.#inFlight === 0) this.#drained?.();
  }

  /** Who a concurrency limit counts against: the request's principal (an anonymous legacy caller is its session). */
  static ownerOf(rctx: RequestContext): string {
    return requestPrincipal(rctx).key;
  }

  /** Takes one of `limit` slots of `owner`; false when all are taken. Release with {@link release}. */
  acquire(owner: string, limit: number): boolean {
    const running = this.#running.get(owner) ?? 0;
    if (running >= limit) return false;
    this.#running.set(owner, running + 1);
    return true;
  }

  /** Gives back a slot taken with {@link acquire}. */
  release(owner: string): void {
    const left = this.#running.get(owner)! - 1;
    if (left === 0) this.#running.delete(owner);
    else this.#running.set(owner, left);
  }

  /**
   * Graceful shutdown: waits up to `deadlineMs` for running calls to finish, then aborts the rest
   * (their handlers see an aborted signal).
   */
  async drain(deadlineMs: number): Promise<void> {
    if (this.#inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = this.deadlines.clock.setTimeout(resolve, deadlineMs);
        this.#drained = () => {
          timer.cancel();
          resolve();
        };
      });
    }
    this.#drained = undefined;
    if (this.#inFlight > 0) this.deadlines.abortAll(new Error('server shutting down'));
  }
}
