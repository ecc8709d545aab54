import { randomBytes } from 'node:crypto';
import {
  DEFAULT_EVENT_STORE_LIMITS,
  eventIdOf,
  parseEventId,
  type EventStore,
  type EventStoreLimits,
  type ReplayResult,
  type StoredEvent,
} from '../session/EventStore.js';
import { StreamHolds, type EventOwner } from '../session/StreamHolds.js';
import { redisCall } from './_internal/redisCall.js';
import { checkPrefix, hashTag, type RedisClient } from './_internal/redisClient.js';
import { luaScript, runScript } from './_internal/runScript.js';

/** Options of {@link RedisEventStore}. */
export interface RedisEventStoreOptions extends EventStoreLimits {
  /** A client you built (`new Redis(url, failFastRedisOptions())`, or a `Cluster`); the store never closes it. */
  client: RedisClient;
  /** Key prefix (default `fusion:events:`, no braces): three keys per stream, `<prefix>{<stream>}:m|e|k`. */
  prefix?: string;
}

// One stream: a hash of counters (m: epoch, seq, bytes, dropped), a list of entries "<seq> <key> <json>" (e)
// and a hash of event keys to sequence numbers (k). Appending, trimming to the budget and renewing the expiry
// is one script, so concurrent instances never interleave half an append. ARGV[7] '1': the ledger refused
// the event, so it only takes its sequence number and is counted as dropped. Returns the stream's bytes too.
const APPEND = luaScript(`
local epoch = redis.call('HGET', KEYS[1], 'epoch')
if not epoch then
  epoch = ARGV[6]
  redis.call('HSET', KEYS[1], 'epoch', epoch, 'seq', 0, 'bytes', 0, 'dropped', 0)
end
local seq
if ARGV[2] ~= '' then seq = redis.call('HGET', KEYS[3], ARGV[2]) end
if seq then
  seq = tonumber(seq)
elseif ARGV[7] == '1' then
  seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
  redis.call('HSET', KEYS[1], 'dropped', seq)
else
  seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
  redis.call('RPUSH', KEYS[2], seq .. ' ' .. ARGV[2] .. ' ' .. ARGV[1])
  local bytes = redis.call('HINCRBY', KEYS[1], 'bytes', string.len(ARGV[1]))
  if ARGV[2] ~= '' then redis.call('HSET', KEYS[3], ARGV[2], seq) end
  local count = redis.call('LLEN', KEYS[2])
  while count > 1 and (count > tonumber(ARGV[3]) or bytes > tonumber(ARGV[4])) do
    local old = redis.call('LPOP', KEYS[2])
    local a = string.find(old, ' ', 1, true)
    local b = string.find(old, ' ', a + 1, true)
    bytes = redis.call('HINCRBY', KEYS[1], 'bytes', -(string.len(old) - b))
    local gone = tonumber(string.sub(old, 1, a - 1))
    if gone > tonumber(redis.call('HGET', KEYS[1], 'dropped')) then redis.call('HSET', KEYS[1], 'dropped', gone) end
    if b > a + 1 then redis.call('HDEL', KEYS[3], string.sub(old, a + 1, b - 1)) end
    count = count - 1
  end
end
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
return { epoch, seq, tonumber(redis.call('HGET', KEYS[1], 'bytes')) }`);

const READ = luaScript(`
local m = redis.call('HMGET', KEYS[1], 'epoch', 'seq', 'dropped')
if not m[1] then return false end
return { m[1], m[2], m[3], redis.call('LRANGE', KEYS[2], 0, -1) }`);

/**
 * An {@link EventStore} in Redis: every instance that uses the same Redis and prefix sees the same streams,
 * so a client whose SSE stream dropped resumes on any instance with `Last-Event-ID`. Each stream is bounded
 * (events and bytes: the oldest go first) and expires `ttlMs` after its last event (`PEXPIRE`, so Redis
 * purges it without a read). One script per append and per replay, one round trip each; the keys of one
 * stream share a hash tag, so it works on a Redis Cluster. Given an owner, the instance that writes a stream
 * holds its bytes on that owner's ledger (kind `event`, see {@link StreamHolds}): each write reserves its size
 * first, then the hold is set to what the stream keeps after the script trimmed it (never more than this
 * instance reserved), and it ends `ttlMs` after this instance's last write, when Redis expires the stream.
 * @example
 * const redis = new Redis(process.env.REDIS_URL!, failFastRedisOptions());
 * startServer(registry, { eventStore: new RedisEventStore({ client: redis }), bus, sessionStore });
 * @see docs/scaling.md
 */
export class RedisEventStore implements EventStore {
  readonly #client: RedisClient;
  readonly #prefix: string;
  readonly #limits: Required<EventStoreLimits>;
  readonly #holds = new StreamHolds();

  constructor(options: RedisEventStoreOptions) {
    this.#client = options.client;
    this.#prefix = checkPrefix(options.prefix ?? 'fusion:events:', 'RedisEventStore');
    this.#limits = {
      maxEventsPerStream: options.maxEventsPerStream ?? DEFAULT_EVENT_STORE_LIMITS.maxEventsPerStream,
      maxBytesPerStream: options.maxBytesPerStream ?? DEFAULT_EVENT_STORE_LIMITS.maxBytesPerStream,
      ttlMs: options.ttlMs ?? DEFAULT_EVENT_STORE_LIMITS.ttlMs,
    };
  }

  async append(stream: string, message: object, key?: string, owner?: EventOwner): Promise<string> {
    const l = this.#limits;
    const json = JSON.stringify(message);
    const size = Buffer.byteLength(json);
    // Refused by the ledger: sent but not kept, so a resume from before it is told it was evicted.
    const refused = this.#holds.reserve(stream, owner, size, l.ttlMs) !== undefined;
    const args = [
      refused ? '' : json,
      key?.replace(/ /g, '_') ?? '',
      l.maxEventsPerStream,
      l.maxBytesPerStream,
      Math.max(1, Math.ceil(l.ttlMs)),
      randomBytes(4).toString('hex'),
      refused ? '1' : '0',
    ];
    const [epoch, seq, bytes] = (await redisCall(this.#client, () =>
      runScript(this.#client, APPEND, this.#keys(stream), args),
    ).catch((error: unknown) => {
      if (!refused) this.#holds.unreserve(stream, size);
      throw error;
    })) as [string, number, number];
    if (!refused) this.#holds.settle(stream, Number(bytes));
    return eventIdOf(stream, epoch, Number(seq));
  }

  async after(eventId: string): Promise<ReplayResult> {
    const id = parseEventId(eventId);
    if (id === undefined) return { found: false, reason: 'malformed' };
    const read = (await redisCall(this.#client, () =>
      runScript(this.#client, READ, this.#keys(id.stream).slice(0, 2), []),
    )) as [string, string, string, string[]] | null;
    if (read === null || read[0] !== id.epoch || id.seq > Number(read[1])) return { found: false, reason: 'unknown' };
    if (id.seq < Number(read[2])) return { found: false, reason: 'evicted' };
    const events: StoredEvent[] = [];
    for (const entry of read[3]) {
      const a = entry.indexOf(' ');
      const b = entry.indexOf(' ', a + 1);
      const seq = Number(entry.slice(0, a));
      if (seq > id.seq)
        events.push({ id: eventIdOf(id.stream, id.epoch, seq), message: JSON.parse(entry.slice(b + 1)) as object });
    }
    return { found: true, stream: id.stream, events };
  }

  async describe(stream: string, meta: object, owner?: EventOwner): Promise<void> {
    const [m] = this.#keys(stream);
    const json = JSON.stringify(meta);
    if (this.#holds.describe(stream, owner, Buffer.byteLength(json), this.#limits.ttlMs) !== undefined) return;
    const ttl = Math.max(1, Math.ceil(this.#limits.ttlMs));
    await redisCall(this.#client, () => this.#client.hset(m, 'meta', json).then(() => this.#client.pexpire(m, ttl)));
  }

  async descriptionOf(stream: string): Promise<object | undefined> {
    const [m] = this.#keys(stream);
    const raw = await redisCall(this.#client, () => this.#client.hget(m, 'meta'));
    return raw === null ? undefined : (JSON.parse(raw) as object);
  }

  #keys(stream: string): [string, string, string] {
    const base = this.#prefix + hashTag(stream);
    return [`${base}:m`, `${base}:e`, `${base}:k`];
  }
}
