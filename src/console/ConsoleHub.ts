import type { SessionBus } from '../session/SessionBus.js';
import type { ConsoleEvent, ConsolePayload, ConsoleSession } from './types.js';

/** The bus key console events travel under (no legacy session has it: session ids are visible ASCII). */
export const CONSOLE_CHANNEL = '\u0000mcp-fusion:console';
const METHOD = 'fusion/console';
const MAX_SESSIONS = 500;

/** What {@link ConsoleHub} needs. */
export interface ConsoleHubOptions {
  /** Events kept (the oldest go first). */
  maxEvents: number;
  /** This process's short id, shown beside its events. */
  instance: string;
  /** Carries events to the consoles of the other instances (and back from them). */
  bus?: SessionBus | undefined;
  now?: () => number;
}

/**
 * The console's memory: a ring buffer of the latest events (of every instance when a bus is shared), the
 * sessions and workflow instances they name, and the pages listening now.
 */
export class ConsoleHub {
  readonly #events: Array<ConsoleEvent | undefined>;
  #next = 0;
  #seq = 0;
  readonly #sessions = new Map<string, ConsoleSession>();
  readonly #listeners = new Set<(event: ConsoleEvent, session: ConsoleSession | undefined) => void>();
  readonly #options: ConsoleHubOptions;
  readonly #now: () => number;
  readonly #stop: Array<() => void> = [];

  constructor(options: ConsoleHubOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#events = new Array<ConsoleEvent | undefined>(Math.max(1, options.maxEvents));
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

  /** Records an event seen here: straight into the buffer, or onto the bus (which hands it back at once). */
  record(payload: ConsolePayload, visible?: readonly string[]): void {
    const entry: ConsoleEvent = { seq: 0, at: this.#now(), instance: this.#options.instance, event: payload };
    if (visible !== undefined) entry.visible = visible;
    if (this.#options.bus === undefined) this.#append(entry);
    else
      this.#options.bus.publish(CONSOLE_CHANNEL, {
        method: METHOD,
        params: entry as unknown as Record<string, unknown>,
      });
  }

  /** The buffered events, oldest first. */
  events(): ConsoleEvent[] {
    const size = this.#events.length;
    const out: ConsoleEvent[] = [];
    for (let i = 0; i < size; i++) {
      const event = this.#events[(this.#next + i) % size];
      if (event !== undefined) out.push(event);
    }
    return out;
  }

  /** The sessions and workflow instances seen, latest first. */
  sessions(): ConsoleSession[] {
    return [...this.#sessions.values()].sort((a, b) => b.lastSeen - a.lastSeen);
  }

  session(key: string): ConsoleSession | undefined {
    return this.#sessions.get(key);
  }

  /** Hears every new event with the session row it changed; returns unsubscribe. */
  listen(listener: (event: ConsoleEvent, session: ConsoleSession | undefined) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    for (const stop of this.#stop.splice(0)) stop();
    this.#listeners.clear();
  }

  #append(entry: ConsoleEvent): void {
    entry.seq = ++this.#seq;
    this.#events[this.#next] = entry;
    this.#next = (this.#next + 1) % this.#events.length;
    const session = this.#track(entry.event, entry.at);
    for (const listener of this.#listeners) listener(entry, session);
  }

  /** Updates the row of the session or workflow instance the event names. */
  #track(event: ConsolePayload, at: number): ConsoleSession | undefined {
    const workflowKey = 'workflowKey' in event ? event.workflowKey : undefined;
    const sessionId = 'sessionId' in event ? event.sessionId : undefined;
    const key = workflowKey ?? sessionId;
    if (key === undefined || event.type === 'list_changed') return undefined;
    let row = this.#sessions.get(key);
    if (row === undefined) {
      if (this.#sessions.size >= MAX_SESSIONS) this.#sessions.delete(this.sessions().at(-1)!.key);
      row = {
        key,
        kind: workflowKey === undefined ? 'session' : 'workflow',
        principal: undefined,
        scopes: [],
        firstSeen: at,
        lastSeen: at,
        state: undefined,
        phase: undefined,
        calls: 0,
      };
      this.#sessions.set(key, row);
    }
    row.lastSeen = at;
    if (event.type === 'result') {
      row.principal = event.principal;
      row.scopes = event.scopes;
      row.calls++;
    } else if (event.type === 'transition') row.state = event.to;
    else if (event.type === 'session') row.phase = event.phase;
    return row;
  }
}
