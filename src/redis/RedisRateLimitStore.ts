import type { Redis } from 'ioredis';
import type { RateLimitCount, RateLimitStore } from '../limits/types.js';

/** Options of {@link RedisRateLimitStore}. */
export interface RedisRateLimitStoreOptions {
  /** A client you built (`new Redis(url, failFastRedisOptions())`, or a `Cluster`); the store never closes it. */
  client: Redis;
  /** Key prefix (default `fusion:ratelimit:`): each counter is one key, `<prefix><counter>`. */
  prefix?: string;
}

// INCR and the window's expiry in one script: Redis runs it atomically, so concurrent hits from several
// instances never lose a count nor leave a counter without expiry. One key per counter (Cluster-safe).
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end
return { count, ttl }`;

/**
 * A {@link RateLimitStore} in Redis: every instance that uses the same Redis and prefix counts the same hits,
 * so a limit holds for a principal however a load balancer spreads its calls. Each counter is a fixed
 * window: an integer key created by its first hit with a `PEXPIRE` of `windowMs`, incremented by one Lua
 * script. A Redis failure rejects the hit; the rate-limit stage then refuses the call and says to retry.
 * @example
 * const redis = new Redis(process.env.REDIS_URL!, failFastRedisOptions());
 * startServer(registry, { rateLimit: { max: 60, windowMs: 60_000 }, rateLimitStore: new RedisRateLimitStore({ client: redis }) });
 * @see docs/security.md#rate-limits
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #client: Redis;
  readonly #prefix: string;

  constructor(options: RedisRateLimitStoreOptions) {
    this.#client = options.client;
    this.#prefix = options.prefix ?? 'fusion:ratelimit:';
  }

  async hit(key: string, windowMs: number): Promise<RateLimitCount> {
    const window = String(Math.max(1, Math.ceil(windowMs)));
    const [count, ttl] = (await this.#client.eval(HIT, 1, this.#prefix + key, window)) as [number, number];
    return { count: Number(count), resetInMs: Number(ttl) };
  }
}
