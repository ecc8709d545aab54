import type { ConsolePayload } from './types.js';

/** A row of the console's task list: what the latest `task` and `task_progress` events said of one task. */
export interface ConsoleTask {
  id: string;
  tool: string;
  /** The legacy session that started it (undefined: a modern request, or a task another instance started). */
  sessionId: string | undefined;
  status: string;
  /** The latest progress message of the work (`done/total` or its own text). */
  progress: string | undefined;
  /** Why it failed or was cancelled. */
  statusMessage: string | undefined;
  /** Which run of the work, when the task store counts runs. */
  attempt: number | undefined;
  /** The instance whose events told of it. */
  instance: string;
  firstSeen: number;
  lastSeen: number;
}

/**
 * The console's task list: a row per task its events name, at most `max` (the least recently changed goes
 * first). Kept in the order last changed, so that each event costs O(1).
 */
export class TaskRows {
  readonly #rows = new Map<string, ConsoleTask>();

  constructor(readonly max: number) {}

  get(id: string): ConsoleTask | undefined {
    return this.#rows.get(id);
  }

  /** The rows, the most recently changed first. */
  latestFirst(): ConsoleTask[] {
    return [...this.#rows.values()].reverse();
  }

  /** Updates the row of the task `event` tells of (undefined: it tells of none). */
  track(event: ConsolePayload, at: number, instance: string): ConsoleTask | undefined {
    if (event.type !== 'task' && event.type !== 'task_progress') return undefined;
    let row = this.#rows.get(event.taskId);
    if (row === undefined) {
      if (this.#rows.size >= this.max) this.#rows.delete(this.#rows.keys().next().value!);
      row = {
        id: event.taskId,
        tool: event.tool,
        sessionId: undefined,
        status: 'working',
        progress: undefined,
        statusMessage: undefined,
        attempt: undefined,
        instance,
        firstSeen: at,
        lastSeen: at,
      };
    } else this.#rows.delete(event.taskId);
    this.#rows.set(event.taskId, row);
    row.lastSeen = at;
    row.instance = instance;
    row.sessionId = event.sessionId ?? row.sessionId;
    row.attempt = event.attempt ?? row.attempt;
    if (event.type === 'task_progress') row.progress = event.progress;
    else {
      row.status = event.status;
      row.statusMessage = event.statusMessage;
    }
    return row;
  }
}
