import type { ConsolePayload, ConsoleSession } from './types.js';

/**
 * The console's session list: a row per legacy session or workflow instance its events name, at most `max`
 * (the least recently seen goes first). Kept in the order last seen, so that each event costs O(1).
 */
export class SessionRows {
  readonly #rows = new Map<string, ConsoleSession>();

  constructor(readonly max: number) {}

  get size(): number {
    return this.#rows.size;
  }

  get(key: string): ConsoleSession | undefined {
    return this.#rows.get(key);
  }

  /** The rows, the most recently seen first. */
  latestFirst(): ConsoleSession[] {
    return [...this.#rows.values()].reverse();
  }

  /** Updates the row of the session or workflow instance `event` names (undefined: it names none). */
  track(event: ConsolePayload, at: number, instance: string): ConsoleSession | undefined {
    const workflowKey = 'workflowKey' in event && typeof event.workflowKey === 'string' ? event.workflowKey : undefined;
    const sessionId = 'sessionId' in event && typeof event.sessionId === 'string' ? event.sessionId : undefined;
    const key = workflowKey ?? sessionId;
    if (key === undefined || event.type === 'list_changed') return undefined;
    let row = this.#rows.get(key);
    if (row === undefined) {
      if (this.#rows.size >= this.max) this.#rows.delete(this.#rows.keys().next().value!);
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
        instance,
      };
    } else this.#rows.delete(key);
    // Last seen, last in the map.
    this.#rows.set(key, row);
    row.lastSeen = at;
    row.instance = instance;
    if (event.type === 'result') {
      row.principal = event.principal;
      row.scopes = event.scopes;
      row.calls++;
    } else if (event.type === 'transition') row.state = event.to;
    else if (event.type === 'session') row.phase = event.phase;
    return row;
  }
}
