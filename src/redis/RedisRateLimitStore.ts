import type { RateLimitCount, RateLimitStore } from '../limits/types.js';
import { redisCall } from './_internal/redisCall.js';
import { checkPrefix, type RedisClient } from './_internal/redisClient.js';
import { luaScript, runScript } from './_internal/runScript.js';

/** Options of {@link RedisRateLimitStore}. */
export interface RedisRateLimitStoreOptions {
  /** A client you built (`new Redis(url, failFastRedisOptions())`, or a `Cluster`); the store never closes it. */
  client: RedisClient;
  /** Key prefix (default `fusion:ratelimit:`, no braces): each counter is one key, `<prefix><counter>`, so counters spread over a cluster's slots. */
  prefix?: string;
}

// INCR and the window's expiry in one script: Redis runs it atomically, so concurrent hits from several
// instances never lose a count nor leave a counter without expiry. One key per counter (Cluster-safe).
const HIT = luaScript(`
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end
return { count, ttl }`);

/**
 * A {@link RateLimitStore} in Redis: every instance that uses the same Redis and prefix counts the same hits,
 * so a limit holds for a principal however a load balancer spreads its calls. Each counter is a fixed
 * window: an integer key created by its first hit with a `PEXPIRE` of `windowMs`, incremented by one Lua
 * script (one round trip, `EVALSHA`). Works on one Redis and on a Redis Cluster (`Cluster` client): the
 * script touches one key. A Redis failure rejects the hit; the rate-limit stage then refuses the call and says to retry.
 * @example
 * const redis = new Redis(process.env.REDIS_URL!, failFastRedisOptions());
 * startServer(registry, { rateLimit: { max: 60, windowMs: 60_000 }, rateLimitStore: new RedisRateLimitStore({ client: redis }) });
 * @see docs/security.md#rate-limits
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #client: RedisClient;
  readonly #prefix: string;

  constructor(options: RedisRateLimitStoreOptions) {
    this.#client = options.client;
    this.#prefix = checkPrefix(options.prefix ?? 'fusion:ratelimit:', 'RedisRateLimitStore');
  }

  async hit(key: string, windowMs: number): Promise<RateLimitCount> {
    const window = String(Math.max(1, Math.ceil(windowMs)));
    const [count, ttl] = (await redisCall(this.#client, () =>
      runScript(this.#client, HIT, [this.#prefix + key], [window]),
    )) as [number, number];
    return { count: Number(count), resetInMs: Number(ttl) };
  }
}
