import { expect } from 'vitest';
import type { FusionApp } from '../../src/index.js';
import type { ConsoleEvent, ConsolePayload } from '../../src/console/types.js';

/** An entry as the page reads it: the payload with its number, time and instance. */
export type SeenEvent = ConsolePayload & { seq: number; at: number; instance: string };
const flat = ({ event, seq, at, instance }: ConsoleEvent): SeenEvent => ({ ...event, seq, at, instance });

/** A console request as the browser on this machine sends it. */
export const consoleRequest = (path: string, token: string): Request =>
  new Request(`http://127.0.0.1${path}${path.includes('?') ? '&' : '?'}token=${token}`, {
    headers: { host: '127.0.0.1' },
  });

/** One Server-Sent Events message: its `event:` name (`message` without one) and its data. */
export interface SseMessage {
  readonly name: string;
  readonly data: string;
}

/** Reads whole SSE messages from `body`, one at a time. */
export function sseReader(body: NonNullable<Response['body']>): {
  next(): Promise<SseMessage>;
  cancel(): Promise<void>;
} {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    async next() {
      while (!buffer.includes('\n\n')) {
        const { value, done } = await reader.read();
        if (done) throw new Error('the event stream ended');
        buffer += value;
      }
      const end = buffer.indexOf('\n\n');
      const lines = buffer.slice(0, end).split('\n');
      buffer = buffer.slice(end + 2);
      const name = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      return { name, data };
    },
    cancel: () => reader.cancel(),
  };
}

/** The snapshot message of a console stream. */
export interface Snapshot {
  hub: string;
  from: number;
  oldest: number;
  latest: number;
  dropped: number;
  sessions: Array<Record<string, unknown>>;
}

/**
 * The console's event stream of `app`: its snapshot with the events it sends first (up to the snapshot's
 * latest), then each event as it comes.
 */
export async function consoleStream(
  app: FusionApp,
  token: string,
): Promise<{
  snapshot: Snapshot & { events: SeenEvent[] };
  next(match: (e: SeenEvent) => boolean): Promise<SeenEvent>;
  close(): Promise<void>;
}> {
  const response = await app.fetch(consoleRequest('/console/events', token), { peer: '127.0.0.1' });
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const sse = sseReader(response.body!);
  const first = await sse.next();
  expect(first.name).toBe('snapshot');
  const snapshot = JSON.parse(first.data) as Snapshot;
  const queued: SeenEvent[] = [];
  const batch = async (): Promise<void> => {
    const message = await sse.next();
    if (message.name !== 'message') return;
    queued.push(...(JSON.parse(message.data) as { events: ConsoleEvent[] }).events.map(flat));
  };
  while ((queued.at(-1)?.seq ?? snapshot.from - 1) < snapshot.latest) await batch();
  const events = queued.splice(0, queued.findIndex((e) => e.seq === snapshot.latest) + 1);
  return {
    snapshot: { ...snapshot, events },
    async next(match) {
      for (;;) {
        while (queued.length === 0) await batch();
        const seen = queued.shift()!;
        if (match(seen)) return seen;
      }
    },
    close: () => sse.cancel(),
  };
}
