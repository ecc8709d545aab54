import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createFusionApp } from '../../src/index.js';
import { ByteLedger } from '../../src/ledger/index.js';
import type { ConsoleEvent } from '../../src/console/types.js';
import { v2FetchClient } from '../_helpers/clients.js';
import { clientFrom, startRuntimeChild } from '../abuse/_runtimeChild.js';
import { bulkyRegistry, CONSOLE_TOKEN } from './fixtures/bulky.js';
import { consoleRequest, sseReader } from './stream.js';

const KiB = 1024;
const MiB = KiB * KiB;

describe('a page that does not read', () => {
  it('has events skipped, not buffered, and gets a "N skipped" marker once it reads; every event is sent or counted', async () => {
    const ledger = new ByteLedger();
    const app = createFusionApp(bulkyRegistry(), {
      heldBytes: ledger,
      devConsole: { token: 't', pageQueueBytes: 16 * KiB },
    });
    try {
      const response = await app.fetch(consoleRequest('/console/events', 't'), { peer: '127.0.0.1' });
      const sse = sseReader(response.body!);
      const snapshot = JSON.parse((await sse.next()).data) as { latest: number };
      await using client = await v2FetchClient(app);
      // 60 events of ~4 KiB while the page reads nothing: 16 KiB may wait for it, the rest is skipped.
      for (let i = 0; i < 60; i++) await client.callTool({ name: 'report', arguments: { kib: 4 } });
      // What waits for the page is charged, and bounded (the queue, plus one message of at most 64 KiB).
      expect(ledger.byKind().console).toBeLessThan(4 * MiB + 16 * KiB + 64 * KiB);
      let seen = snapshot.latest;
      let skipped = 0;
      let sent = 0;
      let markers = 0;
      const last = (await (async () => {
        // The stream numbers events without gaps: each one was sent or counted as skipped.
        for (;;) {
          const message = await sse.next();
          if (message.name === 'skipped') {
            markers++;
            const n = (JSON.parse(message.data) as { skipped: number }).skipped;
            expect(n).toBeGreaterThan(0);
            skipped += n;
            seen += n;
            // Reading again: a call now reaches the page.
            await client.callTool({ name: 'ping', arguments: {} });
            continue;
          }
          const { events } = JSON.parse(message.data) as { events: ConsoleEvent[] };
          for (const entry of events) {
            expect(entry.seq).toBe(seen + 1);
            seen = entry.seq;
            sent++;
            if (entry.event.type === 'result' && entry.event.tool === 'ping') return entry;
          }
        }
      })())!;
      await sse.cancel();
      expect(markers).toBeGreaterThanOrEqual(1);
      expect(skipped).toBeGreaterThan(20);
      expect(sent).toBeGreaterThan(1);
      expect(last.seq).toBe(seen);
    } finally {
      await app.close();
    }
  });

  it('leaves a server at a 256 MiB heap bounded while a page never reads its stream, and others are served', async () => {
    await using child = await startRuntimeChild('../../console/fixtures/bulky');
    const { port } = new URL(child.url);
    // A page that opens the stream and never reads it (its socket paused: the kernel's buffers fill, then the server's).
    const reader: Socket = connect({ host: '127.0.0.1', port: Number(port) });
    await new Promise<void>((resolve) => reader.once('connect', resolve));
    let heard = '';
    reader.on('data', (chunk: Buffer) => void (heard = (heard + chunk.toString('utf8')).slice(-64 * KiB)));
    reader.write(
      `GET /console/events?token=${CONSOLE_TOKEN} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`,
    );
    await new Promise<void>((resolve) => reader.once('data', () => resolve()));
    reader.pause();
    const baseline = await child.heapMiB();
    await using client = await clientFrom(child.url, '127.0.0.1');
    // ~60 MiB of events (30 KiB each) for a page that reads none of them.
    for (let round = 0; round < 200; round++)
      await Promise.all(Array.from({ length: 10 }, () => client.callTool({ name: 'report', arguments: { kib: 30 } })));
    expect(child.alive()).toBe(true);
    expect((await child.heapMiB()) - baseline).toBeLessThan(24);
    {
      await using other = await clientFrom(child.url, '127.0.0.2');
      expect(await other.callTool({ name: 'ping', arguments: {} })).toMatchObject({
        content: [{ type: 'text', text: 'pong' }],
      });
    }
    // Once it reads, the page learns how many events it missed.
    reader.resume();
    const marker = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no "skipped" marker within 30 s')), 30_000);
      const look = (): void => {
        const found = /event: skipped\ndata: \{"skipped":(\d+),/.exec(heard);
        if (found === null) return;
        clearTimeout(timer);
        reader.off('data', look);
        resolve(Number(found[1]));
      };
      reader.on('data', look);
    });
    expect(marker).toBeGreaterThan(100);
    reader.destroy();
  }, 240_000);
});
