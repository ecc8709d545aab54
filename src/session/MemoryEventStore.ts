import { randomBytes } from 'node:crypto';
import {
  DEFAULT_EVENT_STORE_LIMITS,
  eventIdOf,
  parseEventId,
  type EventStore,
  type EventStoreLimits,
  type ReplayResult,
  type StoredEvent,
} from './EventStore.js';
import { StreamHolds, type EventOwner } from './StreamHolds.js';

/** Options of {@link MemoryEventStore}. */
export interface MemoryEventStoreOptions extends EventStoreLimits {
  /** Events kept in this process for every stream together (default 65,536); the least recently written stream loses its oldest first. */
  readonly maxEvents?: number;
  /** Bytes (JSON) kept for every stream together (default 64 MiB), evicted the same way. */
  readonly maxBytes?: number;
  /** The clock (epoch milliseconds) of the expiry. */
  readonly now?: () => number;
}

interface Entry {
  readonly seq: number;
  readonly key: string | undefined;
  readonly message: object;
  readonly bytes: number;
}

interface Stream {
  readonly epoch: string;
  seq: number;
  /** Highest sequence number dropped by a budget or refused by the ledger (0: none). */
  dropped: number;
  readonly entries: Entry[];
  readonly keys: Map<string, number>;
  meta?: object;
  bytes: number;
  expiresAt: number;
}

/**
 * An {@link EventStore} in this process: enough for one instance (a client that reconnects to another
 * instance needs `RedisEventStore`). Bounded per stream and in total by events and bytes, and expiring:
 * a stream is forgotten `ttlMs` after its last event (swept on writes, so memory stays flat without reads).
 * Given an owner, each stream's events and description are held on its ledger (kind `event`) until the
 * stream expires or they are evicted; an event the ledger refuses is not kept (see {@link EventStore.append}).
 */
export class MemoryEventStore implements EventStore {
  readonly #streams = new Map<string, Stream>();
  readonly #limits: Required<EventStoreLimits> & { maxEvents: number; maxBytes: number };
  readonly #now: () => number;
  readonly #holds = new StreamHolds();
  #events = 0;
  #bytes = 0;
  #nextSweep = 0;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.#limits = {
      maxEventsPerStream: options.maxEventsPerStream ?? DEFAULT_EVENT_STORE_LIMITS.maxEventsPerStream,
      maxBytesPerStream: options.maxBytesPerStream ?? DEFAULT_EVENT_STORE_LIMITS.maxBytesPerStream,
      ttlMs: options.ttlMs ?? DEFAULT_EVENT_STORE_LIMITS.ttlMs,
      maxEvents: options.maxEvents ?? 65_536,
      maxBytes: options.maxBytes ?? 64 * 1024 * 1024,
    };
    this.#now = options.now ?? Date.now;
  }

  async append(stream: string, message: object, key?: string, owner?: EventOwner): Promise<string> {
    const now = this.#now();
    this.#sweep(now);
    let s = this.#streams.get(stream);
    if (s === undefined || s.expiresAt <= now) {
      if (s !== undefined) this.#forget(stream, s);
      s = {
        epoch: randomBytes(4).toString('hex'),
        seq: 0,
        dropped: 0,
        entries: [],
        keys: new Map(),
        bytes: 0,
        expiresAt: 0,
      };
    }
    // Most recently written last: the total budget evicts from the front.
    this.#streams.delete(stream);
    this.#streams.set(stream, s);
    s.expiresAt = now + this.#limits.ttlMs;
    const known = key === undefined ? undefined : s.keys.get(key);
    if (known !== undefined) {
      this.#holds.reserve(stream, owner, 0, this.#limits.ttlMs); // renews the hold's expiry with the stream's
      return eventIdOf(stream, s.epoch, known);
    }
    const bytes = Buffer.byteLength(JSON.stringify(message));
    if (this.#holds.reserve(stream, owner, bytes - this.#trimmed(s, bytes), this.#limits.ttlMs) !== undefined) {
      // Refused by the ledger: sent but not kept, so a resume from before it is told it was evicted.
      s.dropped = ++s.seq;
      return eventIdOf(stream, s.epoch, s.seq);
    }
    const entry: Entry = { seq: ++s.seq, key, message, bytes };
    s.entries.push(entry);
    if (key !== undefined) s.keys.set(key, entry.seq);
    s.bytes += entry.bytes;
    this.#events++;
    this.#bytes += entry.bytes;
    const l = this.#limits;
    while (s.entries.length > 1 && (s.entries.length > l.maxEventsPerStream || s.bytes > l.maxBytesPerStream))
      this.#drop(s);
    this.#evictTotal(s);
    this.#holds.settle(stream, s.bytes);
    return eventIdOf(stream, s.epoch, entry.seq);
  }

  async after(eventId: string): Promise<ReplayResult> {
    const id = parseEventId(eventId);
    if (id === undefined) return { found: false, reason: 'malformed' };
    const s = this.#streams.get(id.stream);
    if (s === undefined || s.expiresAt <= this.#now() || s.epoch !== id.epoch || id.seq > s.seq)
      return { found: false, reason: 'unknown' };
    if (id.seq < s.dropped) return { found: false, reason: 'evicted' };
    const events: StoredEvent[] = s.entries
      .filter((e) => e.seq > id.seq)
      .map((e) => ({ id: eventIdOf(id.stream, s.epoch, e.seq), message: e.message }));
    return { found: true, stream: id.stream, events };
  }

  async describe(stream: string, meta: object, owner?: EventOwner): Promise<void> {
    const now = this.#now();
    let s = this.#streams.get(stream);
    if (s === undefined || s.expiresAt <= now) {
      await this.append(stream, {}, undefined, owner);
      s = this.#streams.get(stream)!;
    }
    const bytes = Buffer.byteLength(JSON.stringify(meta));
    if (this.#holds.describe(stream, owner, bytes, this.#limits.ttlMs) === undefined) s.meta = meta;
  }

  async descriptionOf(stream: string): Promise<object | undefined> {
    const s = this.#streams.get(stream);
    return s === undefined || s.expiresAt <= this.#now() ? undefined : s.meta;
  }

  /** Events held, for every stream together. */
  get size(): number {
    return this.#events;
  }

  /** Bytes held, for every stream together. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Streams held. */
  get streams(): number {
    return this.#streams.size;
  }

  /** Bytes the stream's caps would drop for an event of `bytes` (the oldest first, never the new one). */
  #trimmed(s: Stream, bytes: number): number {
    const l = this.#limits;
    let [count, kept, trimmed] = [s.entries.length + 1, s.bytes + bytes, 0];
    for (let i = 0; count > 1 && (count > l.maxEventsPerStream || kept > l.maxBytesPerStream); i++, count--) {
      kept -= s.entries[i]!.bytes;
      trimmed += s.entries[i]!.bytes;
    }
    return trimmed;
  }

  #drop(s: Stream): void {
    const gone = s.entries.shift()!;
    if (gone.key !== undefined) s.keys.delete(gone.key);
    s.bytes -= gone.bytes;
    s.dropped = Math.max(s.dropped, gone.seq);
    this.#events--;
    this.#bytes -= gone.bytes;
  }

  /** Over the total budget: the least recently written streams lose their oldest events (the current one last). */
  #evictTotal(current: Stream): void {
    for (const [name, s] of this.#streams) {
      if (this.#events <= this.#limits.maxEvents && this.#bytes <= this.#limits.maxBytes) return;
      while (
        s.entries.length > (s === current ? 1 : 0) &&
        (this.#events > this.#limits.maxEvents || this.#bytes > this.#limits.maxBytes)
      )
        this.#drop(s);
      if (s.entries.length === 0 && s !== current) this.#forget(name, s);
      else this.#holds.settle(name, s.bytes);
    }
  }

  #forget(name: string, s: Stream): void {
    this.#streams.delete(name);
    this.#holds.release(name);
    this.#events -= s.entries.length;
    this.#bytes -= s.bytes;
  }

  /** Drops expired streams, at most once per second of the clock. */
  #sweep(now: number): void {
    if (now < this.#nextSweep) return;
    this.#nextSweep = now + 1000;
    for (const [name, s] of this.#streams) if (s.expiresAt <= now) this.#forget(name, s);
  }
}
