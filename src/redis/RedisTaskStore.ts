import { clockOf } from '../_internal/clock.js';
import { taskPosition, type TaskPage, type TaskStore, type TaskWrite } from '../tasks/TaskStore.js';
import { isTerminal, type TaskRecord, type VersionedTask } from '../tasks/types.js';
import { redisCall } from './_internal/redisCall.js';
import { checkPrefix, hashTag, type RedisClient } from './_internal/redisClient.js';
import { runScript } from './_internal/runScript.js';
import { ADMIT, CAS, RESERVE } from './_internal/taskScripts.js';

/** Options of {@link RedisTaskStore}. */
export interface RedisTaskStoreOptions {
  /** A client you built (`new Redis(url, failFastRedisOptions())` or a `Cluster`); the store never closes it. */
  client: RedisClient;
  /**
   * Key prefix (default `fusion:tasks:`, no braces): a task lives in the hash `<prefix>task:{<id>}` (one
   * cluster slot per task), its owner's active tasks in the sorted set `<prefix>owner:{<principal>}`, all
   * its owner's tasks (for `tasks/list`) in `<prefix>list:{<principal>}` and its owner's stored result sizes
   * in `<prefix>results:{<principal>}`, and the leases of all active tasks (for takeover) in `<prefix>leases`.
   */
  prefix?: string;
  /** The clock of expiries (default `Date.now`); a test passes `createClock().now` of `mcp-fusion/testing`. */
  now?: () => number;
}

/**
 * A {@link TaskStore} in Redis (single node or cluster), shared by every instance: a task started on one
 * is polled, answered and cancelled on another, and survives a restart of either. A read is one round
 * trip (`HMGET`); a write is one Lua script that compares the version and refuses terminal tasks, so a
 * cancel racing a completion from two instances lands exactly once. Expiry is Redis's own (`PEXPIREAT`
 * at `createdAt + ttlMs`).
 * @example
 * const tasks = new RedisTaskStore({ client: new Redis(process.env.REDIS_URL!, failFastRedisOptions()) });
 * startServer(registry, { tasks: { store: tasks } });
 * @see docs/tasks.md
 */
export class RedisTaskStore implements TaskStore {
  readonly #client: RedisClient;
  readonly #prefix: string;
  readonly #now: () => number;

  constructor(options: RedisTaskStoreOptions) {
    this.#client = options.client;
    this.#now = clockOf(options.now).now;
    this.#prefix = checkPrefix(options.prefix ?? 'fusion:tasks:', 'RedisTaskStore');
  }

  async create(record: TaskRecord, options: { maxActivePerOwner: number }): Promise<'ok' | 'busy'> {
    const expiresAt = record.createdAt + record.ttlMs;
    const admitted = await redisCall(this.#client, () =>
      runScript(
        this.#client,
        ADMIT,
        [this.#owner(record.owner), this.#listing(record.owner)],
        [this.#now(), options.maxActivePerOwner, record.id, expiresAt, taskPosition(record)],
      ),
    );
    if (admitted !== 1) return 'busy';
    const key = this.#task(record.id);
    await Promise.all([
      redisCall(this.#client, () =>
        this.#client
          .multi()
          .hset(key, 'v', '1', 's', record.status, 'd', JSON.stringify(record))
          .pexpireat(key, expiresAt)
          .exec(),
      ),
      record.leaseUntil === undefined ? undefined : this.#lease(record),
    ]);
    return 'ok';
  }

  async get(id: string): Promise<VersionedTask | undefined> {
    const [version, data] = await redisCall(this.#client, () => this.#client.hmget(this.#task(id), 'v', 'd'));
    if (version == null || data == null) return undefined;
    const record = JSON.parse(data) as TaskRecord;
    // Redis expires the hash at its deadline; this hides it in the last millisecond before.
    if (record.createdAt + record.ttlMs <= this.#now()) return undefined;
    return { record, version: Number(version) };
  }

  async compareAndSet(id: string, version: number, next: TaskRecord): Promise<TaskWrite> {
    const written = (await redisCall(this.#client, () =>
      runScript(this.#client, CAS, [this.#task(id)], [String(version), next.status, JSON.stringify(next)]),
    )) as TaskWrite;
    if (written !== 'ok') return written;
    if (isTerminal(next.status))
      await Promise.all([
        redisCall(this.#client, () => this.#client.zrem(this.#owner(next.owner), id)),
        redisCall(this.#client, () => this.#client.zrem(this.#leases(), id)),
      ]);
    else await this.#lease(next);
    return written;
  }

  async expiredLeases(now: number, limit: number): Promise<string[]> {
    const ids = await redisCall(this.#client, () =>
      this.#client.zrangebyscore(this.#leases(), '-inf', now, 'LIMIT', 0, limit),
    );
    const found = await Promise.all(ids.map((id) => this.get(id)));
    // Expired (or vanished) tasks leave their lease behind: drop it on the way.
    const gone = ids.filter((_, i) => found[i] === undefined);
    if (gone.length > 0) await redisCall(this.#client, () => this.#client.zrem(this.#leases(), ...gone));
    return ids.filter((_, i) => found[i] !== undefined);
  }

  /** Indexes the task's lease (only an active task with one has it; an unchanged lease costs nothing but the call). */
  async #lease(record: TaskRecord): Promise<void> {
    if (record.leaseUntil === undefined) return;
    await redisCall(this.#client, () => this.#client.zadd(this.#leases(), record.leaseUntil!, record.id));
  }

  #leases(): string {
    return `${this.#prefix}leases`;
  }

  async list(owner: string, options: { after?: string | undefined; limit: number }): Promise<TaskPage> {
    const key = this.#listing(owner);
    const records: TaskRecord[] = [];
    let from = options.after === undefined ? '-' : `(${options.after}`;
    for (;;) {
      const want = options.limit + 1 - records.length;
      const members = await redisCall(this.#client, () => this.#client.zrangebylex(key, from, '+', 'LIMIT', 0, want));
      const found = await Promise.all(members.map((m) => this.get(m.slice(m.indexOf(':') + 1))));
      const gone = members.filter((_, i) => found[i] === undefined || found[i]!.record.owner !== owner);
      // Expired tasks leave their listing entry behind: drop it on the way.
      if (gone.length > 0) await redisCall(this.#client, () => this.#client.zrem(key, ...gone));
      for (const f of found) if (f !== undefined && f.record.owner === owner) records.push(f.record);
      if (records.length > options.limit) {
        const page = records.slice(0, options.limit);
        return { records: page, next: taskPosition(page[page.length - 1]!) };
      }
      if (members.length < want) return { records };
      from = `(${members[members.length - 1]}`;
    }
  }

  async reserveResult(
    owner: string,
    id: string,
    bytes: number,
    options: { expiresAt: number; maxBytes: number },
  ): Promise<boolean> {
    const key = `${this.#prefix}results:${hashTag(owner)}`;
    const member = `${id}:${Math.max(0, Math.trunc(bytes))}`;
    return (
      (await redisCall(this.#client, () =>
        runScript(this.#client, RESERVE, [key], [this.#now(), options.maxBytes, member, options.expiresAt]),
      )) === 1
    );
  }

  #task(id: string): string {
    return `${this.#prefix}task:${hashTag(id)}`;
  }

  #listing(owner: string): string {
    return `${this.#prefix}list:${hashTag(owner)}`;
  }

  #owner(owner: string): string {
    return `${this.#prefix}owner:${hashTag(owner)}`;
  }
}
