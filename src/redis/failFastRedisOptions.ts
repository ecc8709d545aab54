import type { RedisOptions } from 'ioredis';

/**
 * ioredis options for a server that must fail fast when Redis is unreachable and recover by itself:
 * no offline queue (a command while disconnected rejects at once instead of waiting), one retry per
 * command, a 1 s command timeout (a stalled server cannot hang a request), a 2 s connect timeout, and
 * reconnection with a backoff capped at 1 s. Pass your own values in `overrides`.
 * @example
 * const redis = new Redis(process.env.REDIS_URL!, failFastRedisOptions());
 * @see docs/scaling.md
 */
export function failFastRedisOptions(overrides: RedisOptions = {}): RedisOptions {
  return {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1_000,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(50 * times, 1_000),
    ...overrides,
  };
}
