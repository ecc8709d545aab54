import type { Redis } from 'ioredis';
import type { SessionStore } from '../session/SessionStore.js';
import type { SessionRecord } from '../session/types.js';
import { redisCall } from './_internal/redisCall.js';

/** Options of {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions {
  /** A client you built (`new Redis(url, failFastRedisOptions())`); the store never closes it. */
  client: Redis;
  /** Key prefix (default `fusion:session:`): a record lives at `<prefix><Mcp-Session-Id>`. */
  prefix?: string;
}

/**
 * A {@link SessionStore} in Redis: each legacy session record is one JSON string whose lifetime is the
 * key's expiry (`SET … PX ttl`), so Redis forgets sessions past their TTL by itself. With it, any server
 * instance can restore any session by replaying its `initialize`.
 * @example
 * startServer(registry, { sessionStore: new RedisSessionStore({ client: redis, prefix: 'app:session:' }) });
 * @see docs/scaling.md
 */
export class RedisSessionStore implements SessionStore {
  readonly #client: Redis;
  readonly #prefix: string;

  constructor(options: RedisSessionStoreOptions) {
    this.#client = options.client;
    this.#prefix = options.prefix ?? 'fusion:session:';
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const json = await redisCall(this.#client, () => this.#client.get(this.#prefix + id));
    return json === null ? undefined : (JSON.parse(json) as SessionRecord);
  }

  async set(record: SessionRecord, ttlMs: number): Promise<void> {
    await redisCall(this.#client, () => this.#client.set(this.#prefix + record.id, JSON.stringify(record), 'PX', Math.max(1, Math.ceil(ttlMs))));
  }

  async delete(id: string): Promise<void> {
    await redisCall(this.#client, () => this.#client.del(this.#prefix + id));
  }
}
