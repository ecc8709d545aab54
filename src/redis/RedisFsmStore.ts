import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { FsmStateStore } from '../fsm/FsmStateStore.js';
import type { FsmSnapshot } from '../fsm/types.js';
import { redisCall } from './_internal/redisCall.js';
import { luaScript, runScript } from './_internal/runScript.js';

/** Options of {@link RedisFsmStore}. */
export interface RedisFsmStoreOptions {
  /** A client you built (`new Redis(url, failFastRedisOptions())`); the store never closes it. */
  client: Redis;
  /** Key prefix (default `fusion:fsm:`): snapshots live at `<prefix>state:<key>`, locks at `<prefix>lock:<key>`. */
  prefix?: string;
  /** Expiry of snapshots that carry no `expiresAt` (session-keyed state), in ms. Default: none. */
  ttlMs?: number;
  /** Lease of the cross-process lock in ms, renewed while held; a crashed holder frees it after this (5,000). */
  lockLeaseMs?: number;
}

// One script writes every snapshot, so that a write and its expiry are applied together and a
// compare-and-set checks and writes in one step on the server: Redis runs a script atomically.
const WRITE = luaScript(`
if ARGV[1] == '1' and (redis.call('HGET', KEYS[1], 'v') or '') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[3], 'd', ARGV[4])
if ARGV[5] ~= '' then redis.call('PEXPIREAT', KEYS[1], ARGV[5])
elseif ARGV[6] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[6])
else redis.call('PERSIST', KEYS[1]) end
return 1`);
const RENEW = luaScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`);
const RELEASE = luaScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`);

/**
 * An {@link FsmStateStore} in Redis for session-keyed and handle-keyed workflow state shared by several
 * server processes.
 *
 * Atomicity: each snapshot is a hash `{ v: version, d: JSON }`. `compareAndSet` is one Lua script that
 * compares `v` with the expected version and writes only when they match — Redis runs scripts atomically,
 * so of two instances saving over the same version exactly one wins, on one round trip and without
 * `WATCH`/`MULTI` (which would need a connection per transaction). A gated call additionally holds a
 * per-key lock (`SET NX PX` with a renewed lease, released by a token-checked script) while the tool runs,
 * so a concurrent call on another instance waits and then sees the new state instead of running in the
 * old one; the compare-and-set still fences a save whose lease expired. `expiresAt` becomes `PEXPIREAT`.
 * @example
 * const redis = new Redis(process.env.REDIS_URL!, failFastRedisOptions());
 * startServer(registry, { fsm, fsmStore: new RedisFsmStore({ client: redis, prefix: 'app:fsm:session:' }) });
 * @see docs/scaling.md
 */
export class RedisFsmStore implements FsmStateStore {
  readonly #client: Redis;
  readonly #prefix: string;
  readonly #ttlMs: number | undefined;
  readonly #leaseMs: number;

  constructor(options: RedisFsmStoreOptions) {
    this.#client = options.client;
    this.#prefix = options.prefix ?? 'fusion:fsm:';
    this.#ttlMs = options.ttlMs;
    this.#leaseMs = options.lockLeaseMs ?? 5_000;
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
    const lockKey = `${this.#prefix}lock:${key}`;
    const token = randomUUID();
    const deadline = Date.now() + options.waitMs;
    for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
      if ((await redisCall(this.#client, () => this.#client.set(lockKey, token, 'PX', this.#leaseMs, 'NX'))) === 'OK') break;
      if (Date.now() >= deadline) throw new Error(`another call held the lock of "${key}" for more than ${options.waitMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
    const renew = setInterval(() => void runScript(this.#client, RENEW, [lockKey], [token, this.#leaseMs]).catch(() => {}), Math.max(10, this.#leaseMs / 3));
    renew.unref?.();
    return async () => {
      clearInterval(renew);
      await redisCall(this.#client, () => runScript(this.#client, RELEASE, [lockKey], [token]));
    };
  }

  async #write(key: string, compare: boolean, expected: number | undefined, snapshot: FsmSnapshot): Promise<boolean> {
    const args = [
      compare ? '1' : '0',
      expected === undefined ? '' : String(expected),
      snapshot.version === undefined ? '' : String(snapshot.version),
      JSON.stringify(snapshot),
      snapshot.expiresAt === undefined ? '' : String(Math.ceil(snapshot.expiresAt)),
      this.#ttlMs === undefined ? '' : String(Math.max(1, Math.ceil(this.#ttlMs))),
    ];
    return (await redisCall(this.#client, () => runScript(this.#client, WRITE, [this.#state(key)], args))) === 1;
  }

  #state(key: string): string {
    return `${this.#prefix}state:${key}`;
  }
}
