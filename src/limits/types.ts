/** At most `max` calls in any window of `windowMs` milliseconds, counted per principal. */
export interface RateLimit {
  readonly max: number;
  readonly windowMs: number;
}

/** What a {@link RateLimitStore} reports after counting one hit. */
export interface RateLimitCount {
  /** Hits in the current window, this one included. */
  readonly count: number;
  /** Milliseconds until the current window ends and the count starts again from zero. */
  readonly resetInMs: number;
}

/**
 * Where rate-limit counters live: in memory for one process ({@link MemoryRateLimitStore}), in Redis for
 * several (`RedisRateLimitStore` from `mcp-fusion/redis`), so that every instance counts the same hits.
 * A counter is a fixed window that opens with its first hit and lasts `windowMs`.
 * @see docs/security.md#rate-limits
 */
export interface RateLimitStore {
  /** Counts one hit on `key` atomically and reports the window's count and when it resets. */
  hit(key: string, windowMs: number): Promise<RateLimitCount>;
}

/** A refused call: which limit, and when the caller may try again. */
export interface RateLimitRefusal {
  readonly limit: RateLimit;
  /** `tool` for a `.rateLimit()` of the tool itself, `server` for the attach option `rateLimit`. */
  readonly scope: 'tool' | 'server';
  readonly retryAfterMs: number;
}
