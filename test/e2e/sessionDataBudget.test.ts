import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion, type FusionApp } from '../../src/index.js';
import { texts } from '../_helpers/clients.js';

/** A modern client whose every request comes from the loopback peer `peer`, unauthenticated. */
async function modernFrom(app: FusionApp, peer: string): Promise<Client & AsyncDisposable> {
  const client = new Client({ name: 'modern', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
    fetch: (url, init) => {
      const req = new Request(url, init);
      req.headers.set('host', '127.0.0.1');
      return app.fetch(req, { peer });
    },
  });
  await client.connect(transport);
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

const g = initFusion();
const gate = g.fsm({ id: 'trip', initial: 'planning', states: { planning: { on: { BOOK: 'booked' } }, booked: {} } });
const registry = g.registry().registerAll(
  g
    .action('trip.note')
    .bindState('planning')
    .withString('note')
    .handle(async (input, _c, extra) => {
      await extra.session!.set('note', input.note);
      return 'noted';
    }),
  g
    .action('trip.book')
    .bindState('planning', 'BOOK')
    .handle(() => 'booked'),
);
const note = 'n'.repeat(60_000);

describe('workflow data (extra.session) is budgeted per principal and in total', () => {
  it('refuses the peer that filled its share with a precise message, and still stores another peer’s data', async () => {
    const app = createFusionApp(registry, {
      fsm: gate,
      sessionDataLimits: { maxBytesPerPrincipal: 250_000, maxBytesTotal: 400_000 },
    });
    await using mallory = await modernFrom(app, '127.0.0.2');
    await using alice = await modernFrom(app, '127.0.0.3');
    const results: string[] = [];
    for (let i = 0; i < 5; i++)
      results.push(texts(await mallory.callTool({ name: 'trip.note', arguments: { note } })).join('\n'));
    expect(results.slice(0, 4).every((t) => t.startsWith('noted'))).toBe(true);
    expect(results[4]).toContain(
      'Session data "note" was not stored: your data would pass its budget of 250000 bytes for one caller (sessions and workflow instances together); delete values no longer needed or finish open workflows, then try again.',
    );
    expect(texts(await alice.callTool({ name: 'trip.note', arguments: { note } }))[0]).toMatch(/^noted/);
    // 300,000 of the total 400,000 are held: a third peer fits once, then is told that the server is full.
    await using eve = await modernFrom(app, '127.0.0.4');
    expect(texts(await eve.callTool({ name: 'trip.note', arguments: { note } }))[0]).toMatch(/^noted/);
    const full = texts(await eve.callTool({ name: 'trip.note', arguments: { note } })).join('\n');
    expect(full).toContain(
      'Session data "note" was not stored: the server holds its most session data (400000 bytes) for all clients',
    );
    await app.close();
  });
});
