import { clockOf } from '../_internal/clock.js';
import { Sweeper } from '../_internal/Sweeper.js';
import type { RateLimitCount, RateLimitStore } from './types.js';

const SWEEP_AT = 10_000;

/**
 * Rate-limit counters in this process's memory: right for one instance; several instances behind a load
 * balancer each count only their own hits (use `RedisRateLimitStore` there). Expired windows are dropped by
 * an unref'd timer (every `sweepEveryMs`, 60 s, while any counter is held) and at once when the map grows past
 * 10,000 counters, so memory follows the number of active principals, also for principals that never return.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows = new Map<string, { count: number; resetAt: number }>();
  readonly #now: () => number;
  readonly #sweeper: Sweeper;

  /** `now`: the clock of windows and of the sweep's timer (`createClock().now` in tests). */
  constructor(options: { now?: () => number; sweepEveryMs?: number } = {}) {
    this.#now = options.now ?? Date.now;
    this.#sweeper = new Sweeper(() => this.purgeExpired(), options.sweepEveryMs ?? 60_000, clockOf(options.now));
  }

  /** Counters held now (for leak checks). */
  get size(): number {
    return this.#windows.size;
  }

  async hit(key: string, windowMs: number): Promise<RateLimitCount> {
    const now = this.#now();
    let window = this.#windows.get(key);
    if (window === undefined || window.resetAt <= now) {
      if (window === undefined && this.#windows.size >= SWEEP_AT) this.purgeExpired(now);
      window = { count: 0, resetAt: now + windowMs };
      this.#windows.set(key, window);
      this.#sweeper.arm();
    }
    window.count++;
    return { count: window.count, resetInMs: window.resetAt - now };
  }

  /** Drops every counter whose window has passed (the timer runs it); the timer stops once none is left. */
  purgeExpired(now = this.#now()): void {
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
    if (this.#windows.size === 0) this.#sweeper.disarm();
  }

  /** Stops the timer (it restarts with the next counter). */
  dispose(): void {
    this.#sweeper.disarm();
  }
}
