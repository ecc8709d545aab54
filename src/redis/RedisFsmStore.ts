import { randomUUID } from 'node:crypto';
import { clockOf, type Clock } from '../_internal/clock.js';
import type { FsmLease, FsmLeaseEnd, FsmStateStore } from '../fsm/FsmStateStore.js';
import type { FsmSnapshot } from '../fsm/types.js';
import { redisCall } from './_internal/redisCall.js';
import { checkPrefix, hashTag, type RedisClient } from './_internal/redisClient.js';
import { runScript } from './_internal/runScript.js';
import { ACQUIRE, END, RELEASE, RENEW, WRITE, writeArgs } from './_internal/fsmScripts.js';

/** Options of {@link RedisFsmStore}. */
export interface RedisFsmStoreOptions {
  /**
   * A client you built: `new Redis(url, failFastRedisOptions())`, or a `new Cluster(nodes, …)` for Redis
   * Cluster / Valkey cluster. The store never closes it.
   */
  client: RedisClient;
  /**
   * Key prefix (default `fusion:fsm:`, no braces): a snapshot lives at `<prefix>state:{<key>}`, its lock at
   * `<prefix>lock:{<key>}` — one hash tag, so both are in one cluster slot.
   */
  prefix?: string;
  /** Expiry of snapshots that carry no `expiresAt` (session-keyed state), in ms. Default: none. */
  ttlMs?: number;
  /** Lease of the cross-process lock in ms, renewed while held; a crashed holder frees it after this (5,000). */
  lockLeaseMs?: number;
  /**
   * The clock of the lock wait's deadline, its retry delays and the lease's renewal (default `Date.now` with
   * real, unref'd timers); a test passes `createClock().now` of `mcp-fusion/testing`.
   */
  now?: () => number;
}

/**
 * An {@link FsmStateStore} in Redis (single node or cluster) for session-keyed and handle-keyed workflow
 * state shared by several server processes.
 *
 * Each snapshot is a hash `{ v: version, d: JSON }`; the lock of its key is a string holding a random
 * token. A gated call costs two round trips: {@link RedisFsmStore.acquire} takes the lock (`SET NX PX`) and
 * reads the snapshot in one script, and the lease's `end` compares the version, writes the new snapshot
 * with its expiry and deletes the lock in another — Redis runs each script atomically, so of two instances
 * racing on one key exactly one runs the once-only step. The lock is renewed while a slow tool runs; a
 * save whose lease expired (a stalled holder) is fenced: the end script writes only while the lock still
 * holds this call's token. A lock command that timed out is followed by a release with the same token, so a
 * lock Redis applies late (after a stall) is freed as soon as Redis answers again, not after the lease.
 * @example
 * const redis = new Redis(process.env.REDIS_URL!, failFastRedisOptions());
 * startServer(registry, { fsm, fsmStore: new RedisFsmStore({ client: redis, prefix: 'app:fsm:session:' }) });
 * @see docs/scaling.md
 */
export class RedisFsmStore implements FsmStateStore {
  readonly #client: RedisClient;
  readonly #prefix: string;
  readonly #ttlMs: number | undefined;
  readonly #leaseMs: number;
  readonly #clock: Clock;

  constructor(options: RedisFsmStoreOptions) {
    this.#client = options.client;
    this.#prefix = checkPrefix(options.prefix ?? 'fusion:fsm:', 'RedisFsmStore');
    this.#ttlMs = options.ttlMs;
    this.#leaseMs = options.lockLeaseMs ?? 5_000;
    this.#clock = clockOf(options.now);
  }

  async load(key: string): Promise<FsmSnapshot | undefined> {
    const data = await redisCall(this.#client, () => this.#client.hget(this.#state(key), 'd'));
    return data === null ? undefined : (JSON.parse(data) as FsmSnapshot);
  }

  async save(key: string, snapshot: FsmSnapshot): Promise<void> {
    await this.#write(key, false, undefined, snapshot);
  }

  async compareAndSet(key: string, expectedVersion: number | undefined, snapshot: FsmSnapshot): Promise<boolean> {
    return this.#write(key, true, expectedVersion, snapshot);
  }

  async delete(key: string): Promise<void> {
    await redisCall(this.#client, () => this.#client.del(this.#state(key)));
  }

  async lock(key: string, options: { waitMs: number }): Promise<() => Promise<void>> {
    const lease = await this.#take(key, options.waitMs, false);
    return async () => void (await lease.end());
  }

  async acquire(key: string, options: { waitMs: number }): Promise<FsmLease> {
    return this.#take(key, options.waitMs, true);
  }

  async #take(key: string, waitMs: number, load: boolean): Promise<FsmLease> {
    const keys = [this.#state(key), this.#lock(key)];
    const token = randomUUID();
    const deadline = this.#clock.now() + waitMs;
    let data: string | null = null;
    for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
      let reply: [number, string | null];
      try {
        reply = (await redisCall(this.#client, () =>
          runScript(this.#client, ACQUIRE, keys, [token, this.#leaseMs, load ? '1' : '0']),
        )) as [number, string | null];
      } catch (error) {
        // The script may still run once Redis answers (a stall): queue a release with the same token behind it.
        void runScript(this.#client, RELEASE, keys, [token]).catch(() => {});
        throw error;
      }
      if (reply[0] === 1) {
        data = reply[1];
        break;
      }
      if (this.#clock.now() >= deadline)
        throw new Error(`another call held the lock of "${key}" for more than ${waitMs} ms`);
      const pause = Math.min(delay, Math.max(1, Number(reply[1])));
      await new Promise((resolve) => this.#clock.setTimeout(() => resolve(undefined), pause));
    }
    const snapshot = data === null ? undefined : (JSON.parse(data) as FsmSnapshot);
    const renew = this.#clock.setInterval(
      () => void runScript(this.#client, RENEW, keys, [token, this.#leaseMs]).catch(() => {}),
      Math.max(10, this.#leaseMs / 3),
    );
    let ended = false;
    return {
      snapshot,
      end: async (next?: FsmSnapshot): Promise<FsmLeaseEnd> => {
        if (ended) return 'released';
        ended = true;
        renew.cancel();
        const args =
          next === undefined ? [token, '0'] : [token, '1', ...writeArgs(true, snapshot?.version, next, this.#ttlMs)];
        let code: unknown;
        try {
          code = await redisCall(this.#client, () => runScript(this.#client, END, keys, args));
        } catch (error) {
          void runScript(this.#client, RELEASE, keys, [token]).catch(() => {});
          throw error;
        }
        if (next === undefined) return 'released';
        return code === 1 ? 'saved' : code === -1 ? 'expired' : 'conflict';
      },
    };
  }

  async #write(key: string, compare: boolean, expected: number | undefined, snapshot: FsmSnapshot): Promise<boolean> {
    const args = writeArgs(compare, expected, snapshot, this.#ttlMs);
    return (await redisCall(this.#client, () => runScript(this.#client, WRITE, [this.#state(key)], args))) === 1;
  }

  #state(key: string): string {
    return `${this.#prefix}state:${hashTag(key)}`;
  }

  #lock(key: string): string {
    return `${this.#prefix}lock:${hashTag(key)}`;
  }
}
