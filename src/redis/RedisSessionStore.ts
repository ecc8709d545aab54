import type { SessionStore } from '../session/SessionStore.js';
import type { SessionRecord } from '../session/types.js';
import { redisCall } from './_internal/redisCall.js';
import { checkPrefix, hashTag, type RedisClient } from './_internal/redisClient.js';
import { runScript } from './_internal/runScript.js';
import { COMPARE_AND_SET } from './_internal/sessionScripts.js';

/** Options of {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions {
  /** A client you built (`new Redis(url, failFastRedisOptions())` or a `Cluster`); the store never closes it. */
  client: RedisClient;
  /**
   * Key prefix (default `fusion:session:`, no braces): a record lives at `<prefix>{<Mcp-Session-Id>}` — the
   * hash tag puts it in the cluster slot of the session's workflow state and notification channel.
   */
  prefix?: string;
}

/**
 * A {@link SessionStore} in Redis (single node or cluster): each legacy session record is one JSON string
 * whose lifetime is the key's expiry (`SET … PX ttl`), so Redis forgets sessions past their TTL by itself.
 * With it, any server instance can restore any session by replaying its `initialize`. Per-session data
 * (`extra.session`) is written with compare-and-set on the record's `version` (one script), so concurrent
 * writes from several instances are all kept.
 * @example
 * startServer(registry, { sessionStore: new RedisSessionStore({ client: redis, prefix: 'app:session:' }) });
 * @see docs/scaling.md
 */
export class RedisSessionStore implements SessionStore {
  readonly #client: RedisClient;
  readonly #prefix: string;

  constructor(options: RedisSessionStoreOptions) {
    this.#client = options.client;
    this.#prefix = checkPrefix(options.prefix ?? 'fusion:session:', 'RedisSessionStore');
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const json = await redisCall(this.#client, () => this.#client.get(this.#key(id)));
    return json === null ? undefined : (JSON.parse(json) as SessionRecord);
  }

  async set(record: SessionRecord, ttlMs: number): Promise<void> {
    await redisCall(this.#client, () =>
      this.#client.set(this.#key(record.id), JSON.stringify(record), 'PX', Math.max(1, Math.ceil(ttlMs))),
    );
  }

  async compareAndSet(record: SessionRecord, ttlMs: number, expected: number): Promise<boolean> {
    const args = [expected, JSON.stringify(record), Math.max(1, Math.ceil(ttlMs))];
    return (
      (await redisCall(this.#client, () => runScript(this.#client, COMPARE_AND_SET, [this.#key(record.id)], args))) ===
      1
    );
  }

  async delete(id: string): Promise<void> {
    await redisCall(this.#client, () => this.#client.del(this.#key(id)));
  }

  #key(id: string): string {
    return this.#prefix + hashTag(id);
  }
}
