interface Window {
  startedAt: number;
  count: number;
  suppressed: number;
}

/** How many refusal records one key may produce per window. */
export interface RefusalThrottleOptions {
  /** Records per key and window (5). */
  limit?: number;
  /** The window in ms (60,000). */
  windowMs?: number;
  /** Keys remembered at most (1,000); past it the oldest is forgotten. */
  maxKeys?: number;
  now?: () => number;
}

/**
 * Keeps a flood of refusals (rate limits, budgets) from flooding the log: at most `limit` records per key
 * in each window; the rest are counted, and the first record of a later window reports how many were
 * suppressed. Keys are low-cardinality (reason and tool), so memory stays bounded.
 */
export class RefusalThrottle {
  readonly #windows = new Map<string, Window>();
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #maxKeys: number;
  readonly #now: () => number;

  constructor(options: RefusalThrottleOptions = {}) {
    this.#limit = options.limit ?? 5;
    this.#windowMs = options.windowMs ?? 60_000;
    this.#maxKeys = options.maxKeys ?? 1_000;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Whether a record for `key` may be written now: `undefined` when it is suppressed, else the number of
   * records of this key suppressed since the last one written (to report with it).
   */
  admit(key: string): number | undefined {
    const now = this.#now();
    const window = this.#windows.get(key);
    if (window === undefined) {
      if (this.#windows.size >= this.#maxKeys) this.#windows.delete(this.#windows.keys().next().value!);
      this.#windows.set(key, { startedAt: now, count: 1, suppressed: 0 });
      return 0;
    }
    if (now - window.startedAt >= this.#windowMs) {
      const suppressed = window.suppressed;
      window.startedAt = now;
      window.count = 1;
      window.suppressed = 0;
      return suppressed;
    }
    if (window.count < this.#limit) {
      window.count++;
      return 0;
    }
    window.suppressed++;
    return undefined;
  }
}
