import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion, MemoryFsmStore, MemorySessionStore, type FusionApp } from '../../src/index.js';
import { openSession, request } from '../_helpers/raw.js';
import { createTestClient } from '../../src/testing/index.js';
import { texts } from '../_helpers/clients.js';
import { statechart } from '../fsm/fixtures.js';

function orderServer() {
  const f = initFusion();
  const gate = f.fsm(statechart);
  const registry = f.registry().registerAll(
    f
      .action('order.pay')
      .bindState('browsing', 'PAY')
      .handle(() => 'paying'),
    f
      .action('order.review')
      .bindState('browsing', 'REVIEW')
      .handle(() => 'reviewing'),
    f
      .action('pay.card')
      .bindState('payment.card', 'PAID')
      .handle(() => 'paid by card'),
    f
      .action('pay.switch')
      .bindState('payment', 'SWITCH')
      .handle(() => 'switched'),
    f
      .action('pay.cancel')
      .bindState('payment', 'CANCEL')
      .handle(() => 'cancelled'),
    f
      .action('legal.approve')
      .bindState('review.legal.open', 'APPROVE_LEGAL')
      .handle(() => 'legal ok'),
    f
      .action('tech.approve')
      .bindState('review.tech.open', 'APPROVE_TECH')
      .handle(() => 'tech ok'),
    f.query('order.view').handle(() => 'order'),
  );
  return { gate, registry };
}

async function modernClient(app: FusionApp): Promise<Client & AsyncDisposable> {
  const client = new Client({ name: 'modern', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
    fetch: (url, init) => {
      const req = new Request(url, init);
      req.headers.set('host', '127.0.0.1');
      return app.fetch(req);
    },
  });
  await client.connect(transport);
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

describe('nested and parallel workflow states through the SDK client', () => {
  it('legacy era: lists by the full state value, a parent binding covers its children', async () => {
    const { gate, registry } = orderServer();
    const store = new MemoryFsmStore();
    await using t = await createTestClient(registry, { fsm: gate, fsmStore: store, listChangedDebounceMs: 1 });
    expect(await t.listToolNames()).toEqual(['order.pay', 'order.review', 'order.view']);
    await t.call('order.pay');
    expect(await t.state()).toEqual({ payment: 'card' });
    expect(await t.listToolNames()).toEqual(['pay.card', 'pay.switch', 'pay.cancel', 'order.view']);
    const switched = await t.call('pay.switch');
    expect(switched.content.at(-1)).toBe(
      'Workflow "order" is now in state "payment.wallet". Next: pay.switch, pay.cancel, order.view.',
    );
    expect(await t.listToolNames()).toEqual(['pay.switch', 'pay.cancel', 'order.view']);
    const refused = await t.call('pay.card');
    expect(refused.isError).toBe(true);
    expect(String(refused.content[0])).toBe(
      'Tool "pay.card" is not available in the current workflow state "payment.wallet" (workflow "order"). It works in: payment.card. Available now: pay.switch, pay.cancel, order.view.',
    );
    expect(await t.state()).toEqual({ payment: 'wallet' });
    await t.call('pay.cancel');
    await t.call('order.review');
    await t.call('legal.approve');
    expect(await t.state()).toEqual({ review: { legal: 'ok', tech: 'open' } });
    expect(await t.listToolNames()).toEqual(['tech.approve', 'order.view']);
  });

  it('modern era: the handle-keyed instance carries the nested value', async () => {
    const { gate, registry } = orderServer();
    const app = createFusionApp(registry, { fsm: gate });
    await using c = await modernClient(app);
    const started = await c.callTool({ name: 'order.pay', arguments: {} });
    const handle = /order_id: (ord_[\w-]+)/.exec(texts(started).join('\n'))?.[1];
    expect(handle).toBeDefined();
    expect((started._meta as Record<string, { state: unknown }>)['fusion/workflow']!.state).toEqual({
      payment: 'card',
    });
    const switched = await c.callTool({ name: 'pay.switch', arguments: { order_id: handle } });
    expect(texts(switched)).toContain(
      'Workflow "order" is now in state "payment.wallet". Next: pay.switch, pay.cancel, order.view.',
    );
    const refused = await c.callTool({ name: 'pay.card', arguments: { order_id: handle } });
    expect(refused.isError).toBe(true);
    expect(texts(refused)[0]).toMatch(
      /^Tool "pay.card" is not available in the current workflow state "payment.wallet"/,
    );
    expect(texts(await c.callTool({ name: 'pay.cancel', arguments: { order_id: handle } }))[0]).toBe('cancelled');
    await app.close();
  });

  it('legacy over HTTP: the session record keeps the nested value across a restart of the server', async () => {
    const sessionStore = new MemorySessionStore();
    const first = orderServer();
    const a = createFusionApp(first.registry, { fsm: first.gate, sessionStore });
    const sid = await openSession(a);
    await request(a, sid, 1, 'tools/call', { name: 'order.pay', arguments: {} });
    await request(a, sid, 2, 'tools/call', { name: 'pay.switch', arguments: {} });
    expect((await sessionStore.get(sid))?.fsm?.workflow?.state).toEqual({ payment: 'wallet' });
    await a.close();
    const second = orderServer();
    const b = createFusionApp(second.registry, { fsm: second.gate, sessionStore });
    const listed = await request(b, sid, 3, 'tools/list');
    expect(listed.message.result.tools.map((t: { name: string }) => t.name)).toEqual([
      'pay.switch',
      'pay.cancel',
      'order.view',
    ]);
    await b.close();
  });
});
