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

/** The console's event stream of `app`: its snapshot, then each event as it comes. */
export async function consoleStream(
  app: FusionApp,
  token: string,
): Promise<{
  snapshot: { events: SeenEvent[]; sessions: Array<Record<string, unknown>> };
  next(match: (e: SeenEvent) => boolean): Promise<SeenEvent>;
  close(): Promise<void>;
}> {
  const response = await app.fetch(consoleRequest('/console/events', token), { peer: '127.0.0.1' });
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const message = async (): Promise<string> => {
    while (!buffer.includes('\n\n')) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the event stream ended');
      buffer += value;
    }
    const end = buffer.indexOf('\n\n');
    const raw = buffer.slice(0, end);
    buffer = buffer.slice(end + 2);
    return raw
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => l.slice(6))
      .join('\n');
  };
  const raw = JSON.parse(await message()) as { events: ConsoleEvent[]; sessions: Array<Record<string, unknown>> };
  const snapshot = { events: raw.events.map(flat), sessions: raw.sessions };
  return {
    snapshot,
    async next(match) {
      for (;;) {
        const seen = flat((JSON.parse(await message()) as { event: ConsoleEvent }).event);
        if (match(seen)) return seen;
      }
    },
    close: () => reader.cancel(),
  };
}
