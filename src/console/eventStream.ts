import { systemClock, type Clock, type Timer } from '../_internal/clock.js';
import type { ByteLedger, Hold } from '../ledger/ByteLedger.js';
import { SERVER_HOLDER } from '../ledger/types.js';
import type { ConsoleHub } from './ConsoleHub.js';
import type { ConsoleMachine } from './machineOf.js';
import type { ConsoleTask } from './TaskRows.js';
import type { ConsoleEvent, ConsoleSession } from './types.js';

/** What one page's event stream reads from. */
export interface EventStreamParts {
  readonly hub: ConsoleHub;
  /** The hub's id: a page that reconnects to another (a restart) keeps what it showed. */
  readonly hubId: string;
  readonly machine: ConsoleMachine | undefined;
  /** Bytes of the latest events sent on connect. */
  readonly snapshotBytes: number;
  /** Bytes that may wait for this page; past them, events are skipped. */
  readonly queueBytes: number;
  readonly ledger?: ByteLedger | undefined;
  readonly clock?: Clock | undefined;
}

/** Bytes of events in one message (a page of the snapshot, or a burst of live events). */
const PAGE_BYTES = 64 * 1024;
/** Live events go out in batches, every FLUSH_MS at most: one write for a burst of calls. */
const FLUSH_MS = 25;
const encoder = new TextEncoder();

/**
 * One page's Server-Sent Events: a `snapshot` (the machine, the sessions, where its events start), then the
 * events in messages of at most 64 KiB — the latest `snapshotBytes` first, then live ones as they come. The
 * stream keeps no events of its own: it reads the hub's by number, so what waits for the page is only its
 * queue of written messages, at most `queueBytes` (charged to the ledger). A page that does not read while
 * events come falls behind; once it reads again, what it missed beyond the latest `queueBytes` of events is
 * skipped, and a `skipped` message names how many, before the latest events.
 */
export function eventStream(parts: EventStreamParts, ended: () => void): EventStream {
  const { hub } = parts;
  const clock = parts.clock ?? systemClock;
  const from = hub.firstWithin(parts.snapshotBytes);
  const snapshotEnd = hub.latestSeq;
  let cursor = from - 1;
  let live = cursor >= snapshotEnd;
  let skipped = 0;
  let unsent = 0;
  let timer: Timer | undefined;
  let done = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let hold: Hold | undefined;
  let pumping = false;

  const send = (text: string): void => {
    controller.enqueue(encoder.encode(text));
    charge();
  };
  // The ledger counts what waits in the queue: the server's bytes, kind `console`.
  const charge = (): void => void hold?.resize(Math.max(0, parts.queueBytes - (controller.desiredSize ?? 0)));
  const room = (): boolean => !done && (controller.desiredSize ?? 0) > 0;
  const pump = (): void => {
    // Enqueueing may ask for more at once (the stream's pull): the loop below already does.
    if (pumping) return;
    pumping = true;
    try {
      fill();
    } finally {
      pumping = false;
    }
  };
  const fill = (): void => {
    timer?.cancel();
    timer = undefined;
    unsent = 0;
    charge();
    while (room()) {
      // Events the hub let go before they were sent are skipped; so is a live backlog larger than the queue
      // (the page fell behind: it gets the latest events, and how many it missed).
      const oldest = live ? Math.max(hub.oldestSeq, hub.firstWithin(parts.queueBytes)) : hub.oldestSeq;
      if (cursor < oldest - 1) {
        skipped += oldest - 1 - cursor;
        cursor = oldest - 1;
      }
      if (skipped > 0) {
        // With the session rows as they stand: the skipped events may have changed any of them.
        const marker = `event: skipped\ndata: ${safeJson({ skipped, sessions: hub.sessions(), tasks: hub.tasks() })}\n\n`;
        skipped = 0;
        send(marker);
        continue;
      }
      const batch = hub.since(cursor, PAGE_BYTES);
      if (batch.length === 0) break;
      cursor = batch.at(-1)!.seq;
      send(
        `data: ${safeJson({ events: batch.map(lean), sessions: rowsOf(hub, batch), tasks: tasksOf(hub, batch) })}\n\n`,
      );
    }
    if (cursor >= snapshotEnd) live = true;
  };
  const stop = hub.listen((_event, _session, bytes) => {
    // Not live yet, or the page does not read: it reads on from its cursor when it reads again.
    if (!live || !room()) return;
    unsent += bytes;
    // A burst that never yields to timers (in-process calls) still goes out, in large writes.
    if (unsent > PAGE_BYTES) pump();
    else timer ??= clock.setTimeout(pump, FLUSH_MS);
  });
  const end = (): void => {
    if (done) return;
    done = true;
    stop();
    timer?.cancel();
    hold?.release();
    ended();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        const taken = parts.ledger?.take('console', SERVER_HOLDER, 0);
        hold = taken !== undefined && 'resize' in taken ? taken : undefined;
        const snapshot = {
          hub: parts.hubId,
          from,
          oldest: hub.oldestSeq,
          latest: snapshotEnd,
          dropped: hub.dropped,
          maxSessions: hub.maxSessions,
          sessions: hub.sessions(),
          tasks: hub.tasks(),
          machine: parts.machine ?? null,
        };
        // `retry`: after a restart, the page's EventSource comes back within half a second.
        send(`retry: 500\nevent: snapshot\ndata: ${safeJson(snapshot)}\n\n`);
      },
      // The page read: send what waits (the snapshot's next pages, or the skipped marker).
      pull: () => pump(),
      cancel: end,
    },
    { highWaterMark: parts.queueBytes, size: (chunk) => chunk.byteLength },
  );
  return {
    body,
    close() {
      if (done) return;
      end();
      controller.close();
    },
  };
}

/** A page's stream: its body, and how the server ends it (closing). */
export interface EventStream {
  readonly body: ReadableStream<Uint8Array>;
  close(): void;
}

/** The rows the events of `batch` name, once each. */
function rowsOf(hub: ConsoleHub, batch: readonly ConsoleEvent[]): ConsoleSession[] {
  const rows = new Map<string, ConsoleSession>();
  for (const { event } of batch) {
    const key =
      ('workflowKey' in event ? event.workflowKey : undefined) ?? ('sessionId' in event ? event.sessionId : undefined);
    const row = typeof key === 'string' ? hub.session(key) : undefined;
    if (row !== undefined) rows.set(row.key, row);
  }
  return [...rows.values()];
}

/** The task rows the events of `batch` name, once each. */
function tasksOf(hub: ConsoleHub, batch: readonly ConsoleEvent[]): ConsoleTask[] {
  const rows = new Map<string, ConsoleTask>();
  for (const { event } of batch) {
    const row = event.type === 'task' || event.type === 'task_progress' ? hub.task(event.taskId) : undefined;
    if (row !== undefined) rows.set(row.id, row);
  }
  return [...rows.values()];
}

/** An entry as the page gets it: without the `visible` list of a call (the transcript export reads it here). */
function lean(entry: ConsoleEvent): ConsoleEvent {
  if (entry.visible === undefined) return entry;
  const { visible: _, ...rest } = entry;
  return rest;
}

/** JSON, with a BigInt as its digits (arguments may hold one). */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    // A BigInt in arguments (or a cycle): the slow path.
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'null';
  }
}
