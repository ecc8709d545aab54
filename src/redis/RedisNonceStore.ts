import { clockOf } from '../_internal/clock.js';
import type { NonceStore } from '../runtime/request-state/NonceStore.js';
import { redisCall } from './_internal/redisCall.js';
import { checkPrefix, hashTag, type RedisClient } from './_internal/redisClient.js';

/** Options of {@link RedisNonceStore}. */
export interface RedisNonceStoreOptions {
  /** A client you built (`new Redis(url, failFastRedisOptions())` or a `Cluster`); the store never closes it. */
  client: RedisClient;
  /** Key prefix (default `fusion:nonce:`, no braces): a used nonce lives at `<prefix>{<nonce>}`. */
  prefix?: string;
  /**
   * How much longer than the state's own expiry a used nonce is kept (60,000 ms), so that an instance whose
   * clock runs behind, and still finds the state unexpired, finds it used as well.
   */
  clockSkewMs?: number;
  /** The clock of expiries (default `Date.now`); a test passes `createClock().now` of `mcp-fusion/testing`. */
  now?: () => number;
}

/**
 * A {@link NonceStore} in Redis (single node or cluster) that makes a sealed `requestState` once-only across
 * every instance: one `SET <prefix>{nonce} 1 NX PX <ttl>` per opened state, which Redis forgets once the
 * state has expired (no sweeping, no per-process budget: the keys live at most the state's TTL plus
 * `clockSkewMs`, and only states the server sealed for a caller can be opened).
 * @example
 * startServer(registry, { requestState: { key: process.env.STATE_KEY, nonces: new RedisNonceStore({ client: redis }) } });
 * @see docs/scaling.md
 */
export class RedisNonceStore implements NonceStore {
  readonly #client: RedisClient;
  readonly #prefix: string;
  readonly #skewMs: number;
  readonly #now: () => number;

  constructor(options: RedisNonceStoreOptions) {
    this.#client = options.client;
    this.#prefix = checkPrefix(options.prefix ?? 'fusion:nonce:', 'RedisNonceStore');
    this.#skewMs = options.clockSkewMs ?? 60_000;
    this.#now = clockOf(options.now).now;
    if (!(Number.isFinite(this.#skewMs) && this.#skewMs >= 0))
      throw new RangeError(
        `RedisNonceStore: clockSkewMs must be a number of milliseconds >= 0 (got ${String(options.clockSkewMs)}).`,
      );
  }

  async claim(nonce: string, expiresAt: number): Promise<boolean> {
    const ttl = Math.max(1, Math.ceil(expiresAt - this.#now() + this.#skewMs));
    const done = await redisCall(this.#client, () =>
      this.#client.set(this.#prefix + hashTag(nonce), '1', 'PX', ttl, 'NX'),
    );
    return done === 'OK';
  }
}
