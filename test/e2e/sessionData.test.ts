import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion, MemorySessionStore, type FusionApp } from '../../src/index.js';
import { createTestClient } from '../../src/testing/index.js';
import { texts } from '../_helpers/clients.js';
import { prefsRegistry } from '../_helpers/prefs.js';
import { openSession, request } from '../_helpers/raw.js';

async function modernClientAs(app: FusionApp, clientId?: string): Promise<Client & AsyncDisposable> {
  const client = new Client({ name: 'modern', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
    fetch: (url, init) => {
      const req = new Request(url, init);
      req.headers.set('host', '127.0.0.1');
      return app.fetch(req, clientId === undefined ? {} : { authInfo: { token: 't', clientId, scopes: [] } });
    },
  });
  await client.connect(transport);
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

describe('per-session data for handlers (extra.session)', () => {
  it('legacy era: each session has its own data, capped in size with a clear refusal', async () => {
    await using a = await createTestClient(prefsRegistry, { sessionDataMaxBytes: 1_000 });
    await using b = await createTestClient(prefsRegistry, { sessionDataMaxBytes: 1_000 });
    expect((await a.call('prefs.set', { locale: 'pt-BR' })).content).toEqual(['saved pt-BR']);
    expect(String((await a.call('prefs.get')).content[0])).toMatch(/^locale=pt-BR key=s:/);
    expect(String((await b.call('prefs.get')).content[0])).toMatch(/^locale=unset key=s:/);
    const big = await a.call('prefs.big', { bytes: 2_000 });
    expect(big.isError).toBe(true);
    expect(String(big.content[0])).toMatch(
      /Session data of "s:[^"]+" would be \d+ bytes with "blob", over the cap of 1000; store less/,
    );
    expect((await a.call('prefs.big', { bytes: 100 })).content).toEqual(['stored']);
    expect(String((await a.call('prefs.get')).content[0])).toMatch(/^locale=pt-BR/);
  });

  it('legacy era over HTTP: the data lives in the session store and survives a restart of the server', async () => {
    const store = new MemorySessionStore();
    const first = createFusionApp(prefsRegistry, { sessionStore: store });
    const sid = await openSession(first);
    await request(first, sid, 1, 'tools/call', { name: 'prefs.set', arguments: { locale: 'fr' } });
    await first.close();
    const second = createFusionApp(prefsRegistry, { sessionStore: store });
    const got = await request(second, sid, 2, 'tools/call', { name: 'prefs.get', arguments: {} });
    expect(got.message.result.content[0].text).toBe(`locale=fr key=s:${sid}`);
    await second.close();
  });

  it('modern era: data is kept per authenticated principal; an anonymous call outside a workflow is told what to do', async () => {
    const app = createFusionApp(prefsRegistry, {});
    await using alice = await modernClientAs(app, 'alice-app');
    await using again = await modernClientAs(app, 'alice-app');
    await using bob = await modernClientAs(app, 'bob-app');
    await using anonymous = await modernClientAs(app);
    expect(alice.getProtocolEra()).toBe('modern');
    await alice.callTool({ name: 'prefs.set', arguments: { locale: 'de' } });
    expect(texts(await again.callTool({ name: 'prefs.get', arguments: {} }))[0]).toBe(
      'locale=de key=c:["","alice-app"]',
    );
    expect(texts(await bob.callTool({ name: 'prefs.get', arguments: {} }))[0]).toBe(
      'locale=unset key=c:["","bob-app"]',
    );
    const refused = await anonymous.callTool({ name: 'prefs.set', arguments: { locale: 'it' } });
    expect(refused.isError).toBe(true);
    expect(texts(refused)[0]).toMatch(
      /no session, workflow instance or authenticated principal to keep data for: authenticate the client/,
    );
    await app.close();
  });

  it('modern era: a workflow-bound tool keeps data per workflow instance', async () => {
    const g = initFusion();
    const gate = g.fsm({
      id: 'trip',
      initial: 'planning',
      states: { planning: { on: { BOOK: 'booked' } }, booked: {} },
    });
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
        .handle(async (_i, _c, extra) => `booked with note ${(await extra.session!.get<string>('note')) ?? 'none'}`),
    );
    const app = createFusionApp(registry, { fsm: gate });
    await using c = await modernClientAs(app);
    const first = await c.callTool({ name: 'trip.note', arguments: { note: 'window seat' } });
    const handle = /trip_id: (tri_[\w-]+)/.exec(texts(first).join('\n'))?.[1];
    expect(handle).toBeDefined();
    const other = await c.callTool({ name: 'trip.book', arguments: {} });
    expect(texts(other)[0]).toBe('booked with note none');
    const booked = await c.callTool({ name: 'trip.book', arguments: { trip_id: handle } });
    expect(texts(booked)[0]).toBe('booked with note window seat');
    await app.close();
  });
});
