import type { RateLimitCount, RateLimitStore } from './types.js';

const SWEEP_AT = 10_000;

/**
 * Rate-limit counters in this process's memory: right for one instance; several instances behind a load
 * balancer each count only their own hits (use `RedisRateLimitStore` there). Expired windows are swept
 * once the map grows past 10,000 counters, so memory follows the number of active principals.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows = new Map<string, { count: number; resetAt: number }>();
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** Counters held now (for leak checks). */
  get size(): number {
    return this.#windows.size;
  }

  async hit(key: string, windowMs: number): Promise<RateLimitCount> {
    const now = this.#now();
    let window = this.#windows.get(key);
    if (window === undefined || window.resetAt <= now) {
      if (window === undefined && this.#windows.size >= SWEEP_AT) this.#sweep(now);
      window = { count: 0, resetAt: now + windowMs };
      this.#windows.set(key, window);
    }
    window.count++;
    return { count: window.count, resetInMs: window.resetAt - now };
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
  }
}
