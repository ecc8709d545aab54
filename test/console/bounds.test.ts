import { describe, expect, it } from 'vitest';
import { createFusionApp } from '../../src/index.js';
import { ByteLedger } from '../../src/ledger/index.js';
import type { ConsoleEvent } from '../../src/console/types.js';
import { v2FetchClient } from '../_helpers/clients.js';
import { bulkyRegistry } from './fixtures/bulky.js';
import { consoleRequest, consoleStream, sseReader, type SeenEvent } from './stream.js';

const TOKEN = 'bounds-token';
const KiB = 1024;
const MiB = KiB * KiB;

const results = (events: SeenEvent[]) => events.filter((e) => e.type === 'result');

describe('the dev console, bounded in bytes', () => {
  it('keeps a 3.9 MB call cut to maxEventBytes with its size named, charges what it keeps, and serves the call', async () => {
    const ledger = new ByteLedger();
    const app = createFusionApp(bulkyRegistry(), {
      heldBytes: ledger,
      devConsole: { token: TOKEN, maxEventBytes: 16 * KiB },
    });
    try {
      await using client = await v2FetchClient(app);
      const blob = 'b'.repeat(3.9 * MiB);
      const answer = await client.callTool({ name: 'store', arguments: { blob } });
      expect(answer.content).toEqual([{ type: 'text', text: `stored ${blob.length} characters` }]);
      const stream = await consoleStream(app, TOKEN);
      const [stored] = results(stream.snapshot.events) as Array<SeenEvent & { args: unknown }>;
      await stream.close();
      // Its export says it cannot replay that step, and why.
      const session = (stored as { sessionId: string }).sessionId;
      const exported = (await (
        await app.fetch(consoleRequest(`/console/transcript?key=${session}`, TOKEN), { peer: '127.0.0.1' })
      ).json()) as { steps: unknown[]; incomplete?: string };
      expect(exported.steps).toHaveLength(1);
      expect(exported.incomplete).toBe(
        'step 1 was larger than the console keeps per event (devConsole.maxEventBytes) and recorded cut: its arguments are not the ones the agent sent, so the transcript cannot replay them',
      );
      // Cut: the arguments' beginning, and their whole size.
      expect(typeof stored!.args).toBe('string');
      const args = stored!.args as string;
      expect(args.length).toBeLessThan(5 * KiB);
      expect(args.slice(0, 12)).toBe('{"blob":"bbb');
      expect(args.slice(-60)).toMatch(
        new RegExp(`… \\[cut by the console: ${JSON.stringify({ blob }).length} bytes of JSON\\]$`),
      );
      // The envelope names the event's original size; what is kept is charged as the console's.
      const live = await app.fetch(consoleRequest('/console/events', TOKEN), { peer: '127.0.0.1' });
      const sse = sseReader(live.body!);
      await sse.next();
      const batch = JSON.parse((await sse.next()).data) as { events: ConsoleEvent[] };
      await sse.cancel();
      const entry = batch.events.find((e) => e.event.type === 'result')!;
      expect(entry.cut!.bytes).toBeGreaterThan(3.9 * MiB);
      expect(ledger.byKind().console).toBeGreaterThan(0);
      expect(ledger.byKind().console).toBeLessThan(20 * KiB);
      // Beside the console's, only the client's open session (its kept initialize params and the events its
      // stream stores for resumption) is held: the 3.9 MB body is released, and nothing else keeps the call.
      const { console: consoleBytes, session: sessionBytes, event } = ledger.byKind();
      expect(ledger.bytes).toBe(consoleBytes + sessionBytes + event);
      expect(sessionBytes).toBeLessThan(KiB);
      expect(event).toBeLessThan(KiB);
    } finally {
      await app.close();
    }
    // Closed: the console holds nothing.
    expect(ledger.byKind().console).toBe(0);
  });

  it('bounds its buffer by maxBytes (the oldest go first) and sheds events when the ledger is full, never a call', async () => {
    const ledger = new ByteLedger({ total: 512 * KiB, perPrincipal: 512 * KiB, perPeer: 512 * KiB });
    const app = createFusionApp(bulkyRegistry(), {
      heldBytes: ledger,
      devConsole: { token: TOKEN, maxBytes: 64 * KiB, maxEventBytes: 8 * KiB },
    });
    try {
      await using client = await v2FetchClient(app);
      for (let i = 0; i < 40; i++) await client.callTool({ name: 'report', arguments: { kib: 4 } });
      const stream = await consoleStream(app, TOKEN);
      const kept = results(stream.snapshot.events);
      await stream.close();
      // ~4.2 KiB per call: 15 fit in 64 KiB, the latest ones, numbered without gaps.
      expect(kept.length).toBeGreaterThan(10);
      expect(kept.length).toBeLessThan(16);
      expect(stream.snapshot.oldest).toBeGreaterThan(1);
      expect(stream.snapshot.events.at(-1)!.seq).toBe(stream.snapshot.latest);
      expect(ledger.byKind().console).toBeLessThanOrEqual(64 * KiB);

      // Another client now holds all the server's budget but 8 KiB: the console keeps within it, calls go on.
      const other = ledger.take('body', { principal: 'someone' }, 512 * KiB - ledger.bytes - 8 * KiB);
      expect('resize' in other).toBe(true);
      for (let i = 0; i < 10; i++)
        expect((await client.callTool({ name: 'report', arguments: { kib: 4 } })).isError).toBeFalsy();
      expect(ledger.bytes).toBeLessThanOrEqual(512 * KiB);
      const after = await consoleStream(app, TOKEN);
      expect(results(after.snapshot.events).at(-1)!.seq).toBe(after.snapshot.latest);
      await after.close();
    } finally {
      await app.close();
    }
  });

  it('drops (and counts) an event the ledger has no room for at all; the call is answered', async () => {
    const ledger = new ByteLedger({ total: 64 * KiB, perPrincipal: 64 * KiB, perPeer: 64 * KiB });
    ledger.take('body', { principal: 'someone' }, 63 * KiB);
    const app = createFusionApp(bulkyRegistry(), { heldBytes: ledger, devConsole: { token: TOKEN } });
    try {
      await using client = await v2FetchClient(app);
      const answer = await client.callTool({ name: 'report', arguments: { kib: 4 } });
      expect(answer.content).toEqual([{ type: 'text', text: 'r'.repeat(4 * KiB) }]);
      const stream = await consoleStream(app, TOKEN);
      expect(results(stream.snapshot.events)).toEqual([]);
      expect(stream.snapshot.dropped).toBeGreaterThan(0);
      await stream.close();
      expect(ledger.bytes).toBeLessThanOrEqual(64 * KiB);
    } finally {
      await app.close();
    }
  });

  it('sends a bounded snapshot in pages of at most 64 KiB, the latest events first chosen', async () => {
    const app = createFusionApp(bulkyRegistry(), {
      devConsole: { token: TOKEN, maxEvents: 10_000, maxBytes: 2 * MiB, snapshotBytes: 160 * KiB },
    });
    try {
      await using client = await v2FetchClient(app);
      for (let i = 0; i < 100; i++) await client.callTool({ name: 'report', arguments: { kib: 6 } });
      const response = await app.fetch(consoleRequest('/console/events', TOKEN), { peer: '127.0.0.1' });
      const sse = sseReader(response.body!);
      const snapshot = JSON.parse((await sse.next()).data) as { from: number; oldest: number; latest: number };
      expect(snapshot.oldest).toBe(1);
      expect(snapshot.from).toBeGreaterThan(snapshot.oldest);
      let sent = 0;
      let last = snapshot.from - 1;
      while (last < snapshot.latest) {
        const message = await sse.next();
        expect(message.name).toBe('message');
        expect(message.data.length).toBeLessThanOrEqual(64 * KiB + 8 * KiB);
        const { events } = JSON.parse(message.data) as { events: ConsoleEvent[] };
        expect(events[0]!.seq).toBe(last + 1);
        last = events.at(-1)!.seq;
        sent += message.data.length;
      }
      await sse.cancel();
      expect(sent).toBeLessThanOrEqual(160 * KiB + 8 * KiB);
      expect(sent).toBeGreaterThan(100 * KiB);
    } finally {
      await app.close();
    }
  });
});
