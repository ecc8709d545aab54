import type { ByteLedger, Hold } from '../ledger/ByteLedger.js';
import { SERVER_HOLDER } from '../ledger/types.js';
import type { SessionBus } from '../session/SessionBus.js';
import { boundPayload, jsonBytes } from './eventBytes.js';
import { SessionRows } from './SessionRows.js';
import { TaskRows, type ConsoleTask } from './TaskRows.js';
import type { ConsoleEvent, ConsolePayload, ConsoleSession } from './types.js';

/** The bus key console events travel under (no legacy session has it: session ids are visible ASCII). */
export const CONSOLE_CHANNEL = '\u0000mcp-fusion:console';
const METHOD = 'fusion/console';
/** What an envelope adds to its payload's JSON (seq, at, instance, keys). */
const ENVELOPE_BYTES = 96;

/** What {@link ConsoleHub} needs. */
export interface ConsoleHubOptions {
  /** Events kept at most (the oldest go first). */
  maxEvents: number;
  /** Bytes of events kept at most (the oldest go first). */
  maxBytes: number;
  /** Bytes one event may keep; a larger one is kept cut, its original size named. */
  maxEventBytes: number;
  /** Sessions and workflow instances listed at most (the least recently seen go first). */
  maxSessions?: number;
  /** Tasks listed at most (the least recently changed go first; default 500). */
  maxTasks?: number;
  /** The ledger the kept bytes are charged to (as the server's own, kind `console`). */
  ledger?: ByteLedger | undefined;
  /** This process's short id, shown beside its events. */
  instance: string;
  /** Carries events to the consoles of the other instances (and back from them). */
  bus?: SessionBus | undefined;
  now?: () => number;
}

/** A new event as the hub's listeners hear it: the entry, the row it changed and the bytes it keeps. */
export type HubListener = (event: ConsoleEvent, session: ConsoleSession | undefined, bytes: number) => void;

interface Kept {
  readonly entry: ConsoleEvent;
  readonly bytes: number;
}

/**
 * The console's memory: the latest events (of every instance when a bus is shared), bounded in count and in
 * bytes and charged to the ledger; the sessions and workflow instances they name; the pages listening now.
 * Events are numbered without gaps (`seq`), so that a page's stream reads them by number.
 */
export class ConsoleHub {
  readonly #kept: Kept[] = [];
  #head = 0;
  #bytes = 0;
  #seq = 0;
  #dropped = 0;
  readonly #hold: Hold | undefined;
  readonly #rows: SessionRows;
  readonly #tasks: TaskRows;
  readonly #listeners = new Set<HubListener>();
  readonly #options: ConsoleHubOptions;
  readonly #now: () => number;
  readonly #stop: Array<() => void> = [];

  constructor(options: ConsoleHubOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#rows = new SessionRows(options.maxSessions ?? 500);
    this.#tasks = new TaskRows(options.maxTasks ?? 500);
    const hold = options.ledger?.take('console', SERVER_HOLDER, 0);
    this.#hold = hold !== undefined && 'resize' in hold ? hold : undefined;
    const bus = options.bus;
    if (bus !== undefined) {
      // A copy: in-process listeners of one bus share the published object.
      this.#stop.push(
        bus.subscribe(
          (key, n) =>
            key === CONSOLE_CHANNEL &&
            n.method === METHOD &&
            this.#append({ ...(n.params as unknown as ConsoleEvent) }),
        ),
      );
      void bus.watch?.(CONSOLE_CHANNEL).then((unwatch) => this.#stop.push(unwatch));
    }
  }

  /**
   * Records an event seen here, cut to `maxEventBytes` first (never refused: a call goes on whatever the console
   * keeps of it): straight into the buffer, or onto the bus (which hands it back at once).
   */
  record(payload: ConsolePayload, visible?: readonly string[]): void {
    const bounded = boundPayload(payload, this.#options.maxEventBytes);
    const entry: ConsoleEvent = { seq: 0, at: this.#now(), instance: this.#options.instance, event: bounded.payload };
    if (bounded.originalBytes !== undefined) entry.cut = { bytes: bounded.originalBytes };
    if (visible !== undefined) entry.visible = visible;
    if (this.#options.bus === undefined) this.#append(entry, bounded.bytes);
    else
      this.#options.bus.publish(CONSOLE_CHANNEL, {
        method: METHOD,
        params: entry as unknown as Record<string, unknown>,
      });
  }

  /** Bytes of events kept now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Events not kept because the ledger's total was full even with the buffer empty. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The number of the oldest event kept (one more than {@link latestSeq} when none is). */
  get oldestSeq(): number {
    return this.#seq - (this.#kept.length - this.#head) + 1;
  }

  /** The number of the latest event (0 before any). */
  get latestSeq(): number {
    return this.#seq;
  }

  /** The buffered events, oldest first. */
  events(): ConsoleEvent[] {
    return this.#kept.slice(this.#head).map((k) => k.entry);
  }

  /** The kept events numbered after `seq`, oldest first, up to `maxBytes` (at least one when there is one). */
  since(seq: number, maxBytes: number): ConsoleEvent[] {
    const out: ConsoleEvent[] = [];
    let bytes = 0;
    for (let i = this.#head + Math.max(0, seq + 1 - this.oldestSeq); i < this.#kept.length; i++) {
      const kept = this.#kept[i]!;
      if (out.length > 0 && bytes + kept.bytes > maxBytes) break;
      bytes += kept.bytes;
      out.push(kept.entry);
    }
    return out;
  }

  /** The number of the oldest event such that it and every later one fit in `maxBytes` together. */
  firstWithin(maxBytes: number): number {
    let bytes = 0;
    let i = this.#kept.length;
    while (i > this.#head && bytes + this.#kept[i - 1]!.bytes <= maxBytes) bytes += this.#kept[--i]!.bytes;
    return this.oldestSeq + (i - this.#head);
  }

  /** Rows the session list holds at most. */
  get maxSessions(): number {
    return this.#rows.max;
  }

  /** The sessions and workflow instances seen, latest first. */
  sessions(): ConsoleSession[] {
    return this.#rows.latestFirst();
  }

  session(key: string): ConsoleSession | undefined {
    return this.#rows.get(key);
  }

  /** The tasks seen, the most recently changed first. */
  tasks(): ConsoleTask[] {
    return this.#tasks.latestFirst();
  }

  task(id: string): ConsoleTask | undefined {
    return this.#tasks.get(id);
  }

  /** Hears every new event kept, with the session row it changed; returns unsubscribe. */
  listen(listener: HubListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    for (const stop of this.#stop.splice(0)) stop();
    this.#listeners.clear();
    this.#kept.length = 0;
    this.#head = 0;
    this.#bytes = 0;
    this.#hold?.release();
  }

  #append(entry: ConsoleEvent, payloadBytes?: number): void {
    let bytes = payloadBytes;
    if (bytes === undefined) {
      // From the bus: another instance cut it to its own bound; this one's applies here.
      const bounded = boundPayload(entry.event, this.#options.maxEventBytes);
      entry.event = bounded.payload;
      if (bounded.originalBytes !== undefined) entry.cut ??= { bytes: bounded.originalBytes };
      bytes = bounded.bytes;
    }
    bytes += ENVELOPE_BYTES + (entry.visible === undefined ? 0 : jsonBytes(entry.visible));
    if (!this.#makeRoom(bytes)) {
      this.#dropped++;
      return;
    }
    entry.seq = ++this.#seq;
    this.#kept.push({ entry, bytes });
    this.#bytes += bytes;
    const session = this.#rows.track(entry.event, entry.at, entry.instance);
    this.#tasks.track(entry.event, entry.at, entry.instance);
    for (const listener of this.#listeners) listener(entry, session, bytes);
  }

  /** Evicts the oldest events until `bytes` more fit the bounds and the ledger; false when they never do. */
  #makeRoom(bytes: number): boolean {
    const { maxBytes, maxEvents } = this.#options;
    while (this.#kept.length > this.#head && (this.#bytes + bytes > maxBytes || this.#count() >= maxEvents))
      this.#evict();
    if (this.#hold === undefined) return bytes <= maxBytes;
    while (this.#hold.resize(this.#bytes + bytes) !== undefined) {
      if (this.#kept.length === this.#head) {
        this.#hold.resize(this.#bytes);
        return false;
      }
      this.#evict();
    }
    return true;
  }

  #count(): number {
    return this.#kept.length - this.#head;
  }

  #evict(): void {
    this.#bytes -= this.#kept[this.#head]!.bytes;
    this.#kept[this.#head++] = undefined as unknown as Kept;
    // Compacts now and then: O(1) per event over time.
    if (this.#head > 1_024 && this.#head * 2 > this.#kept.length) {
      this.#kept.splice(0, this.#head);
      this.#head = 0;
    }
  }
}
