import type { EventOwner } from './StreamHolds.js';

/** One stored SSE event: its id (sent as the SSE `id` field) and the JSON-RPC message (`{}` for a priming event). */
export interface StoredEvent {
  readonly id: string;
  readonly message: object;
}

/** What a replay found: the stream the event id belongs to and the events after it, oldest first. */
export type ReplayResult =
  | { readonly found: true; readonly stream: string; readonly events: readonly StoredEvent[] }
  /**
   * `unknown`: no such stream (never stored, or expired); `evicted`: events after the id were dropped by a
   * budget (a stream's caps, or the ledger refusing to hold one: see {@link EventStore.append}).
   */
  | { readonly found: false; readonly reason: 'unknown' | 'evicted' | 'malformed' };

/**
 * Where SSE events wait for a client whose stream dropped: every event sent on a resumable stream is
 * appended here under its stream, and a client reconnecting with `Last-Event-ID` receives the events after
 * that id. Bounded (events and bytes per stream) and expiring. `MemoryEventStore` keeps them in this process;
 * `RedisEventStore` from `mcp-fusion/redis` shares them, so that a reconnect to any instance resumes.
 * @see docs/scaling.md
 */
export interface EventStore {
  /**
   * Appends `message` to `stream` and returns its event id (it names the stream, see {@link streamOfEventId}).
   * `key`: an identity of the event; appending the same key to the same stream again stores nothing and returns
   * the first id (several instances recording one event). Over the stream's budget, the oldest events go.
   * `owner`: the ledger and the stream's owner; the stream's stored bytes are held there (kind `event`) until
   * they expire or are evicted. When the ledger refuses the event it is not stored, but it still gets its id
   * (the live client receives it) and the stream counts it as evicted: a client resuming from before it is
   * told so (`after` answers `evicted`) instead of missing it silently. A custom store should do the same.
   */
  append(stream: string, message: object, key?: string, owner?: EventOwner): Promise<string>;
  /** The events of the stream of `eventId` after it, or why they cannot be replayed. */
  after(eventId: string): Promise<ReplayResult>;
  /**
   * Sets what an instance needs to serve `stream` again (a listen stream's request); it expires with the
   * stream. Held on `owner`'s ledger with the stream's events; refused there, nothing is set (another instance
   * cannot take the stream over then).
   */
  describe(stream: string, meta: object, owner?: EventOwner): Promise<void>;
  /** What {@link describe} set for `stream`, while the stream is stored. */
  descriptionOf(stream: string): Promise<object | undefined>;
}

/** Budgets of an event store. */
export interface EventStoreLimits {
  /** Events kept per stream (default 256); the oldest go first. */
  readonly maxEventsPerStream?: number;
  /** Bytes (JSON) kept per stream (default 1 MiB); the oldest go first. */
  readonly maxBytesPerStream?: number;
  /** A stream is forgotten this long after its last event (default 5 minutes). */
  readonly ttlMs?: number;
}

export const DEFAULT_EVENT_STORE_LIMITS: Required<EventStoreLimits> = {
  maxEventsPerStream: 256,
  maxBytesPerStream: 1024 * 1024,
  ttlMs: 5 * 60_000,
};

const SEPARATOR = '#';

/**
 * The event id of the `seq`-th event of `stream` in its incarnation `epoch` (a stream forgotten and written
 * again starts a new epoch, so that an id from before never names an event from after).
 */
export function eventIdOf(stream: string, epoch: string, seq: number): string {
  return `${stream}${SEPARATOR}${epoch}.${seq}`;
}

/** The stream, epoch and sequence number an event id names, or `undefined` when it is not one of ours. */
export function parseEventId(eventId: string): { stream: string; epoch: string; seq: number } | undefined {
  const at = eventId.lastIndexOf(SEPARATOR);
  const match = at > 0 ? /^([0-9a-z]+)\.([1-9][0-9]{0,15})$/.exec(eventId.slice(at + 1)) : null;
  if (match === null) return undefined;
  const seq = Number(match[2]);
  return Number.isSafeInteger(seq) ? { stream: eventId.slice(0, at), epoch: match[1]!, seq } : undefined;
}

/** The stream an event id belongs to (`undefined` for an id that is not one of ours). */
export function streamOfEventId(eventId: string): string | undefined {
  return parseEventId(eventId)?.stream;
}
