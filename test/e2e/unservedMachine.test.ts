import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { AttachError, createFusionApp, initFusion, serveStdio, startServer } from '../../src/index.js';
import { createTestClient } from '../../src/testing/index.js';
import { httpServer, v2HttpClient } from '../_helpers/clients.js';

const f = initFusion();
const checkout = f.fsm({
  id: 'checkout',
  initial: 'empty',
  states: { empty: { on: { ADD: 'has_items' } }, has_items: { on: { PAY: 'paid' } }, paid: {} },
});

/** Two tools bound to the checkout's states (tagged `cart`) and one that is not. */
function shop() {
  return f.registry().registerAll(
    f
      .mutation('cart.add')
      .tags('cart')
      .bindState(['empty', 'has_items'], 'ADD')
      .handle(() => 'added'),
    f
      .mutation('cart.pay')
      .tags('cart')
      .bindState('has_items', 'PAY')
      .handle(() => 'paid'),
    f.query('catalog.search').handle(() => 'items'),
  );
}

const MESSAGE =
  'Tools "cart.add", "cart.pay" are bound to workflow states with .bindState(), but no workflow gate is served, so nothing would gate them. Pass the machine as the `fsm` option (startServer(registry, { fsm }), createFusionApp(registry, { fsm }), registry.attachToServer(server, { fsm }), createTestClient(registry, { fsm })), or remove .bindState() from these tools.';

describe('a registry whose tools are bound to states, served without its machine', () => {
  it('fails startServer before it listens, naming the tools and the fsm option', async () => {
    const refused = startServer(shop(), { port: 0 });
    await expect(refused).rejects.toBeInstanceOf(AttachError);
    await expect(refused).rejects.toMatchObject({ code: 'FSM_MISSING', message: MESSAGE });
    await expect(refused).rejects.toHaveProperty('data.tools', ['cart.add', 'cart.pay']);
  });

  it('fails createFusionApp, attachToServer, serveStdio and createTestClient the same way', async () => {
    expect(() => createFusionApp(shop())).toThrow(MESSAGE);
    expect(() => shop().attachToServer(new McpServer({ name: 's', version: '1' }))).toThrow(MESSAGE);
    // Refused before it touches stdin or stdout.
    expect(() => serveStdio(shop())).toThrow(MESSAGE);
    await expect(createTestClient(shop())).rejects.toThrow(MESSAGE);
  });

  it('names one tool in the singular', () => {
    const one = f.registry().registerAll(
      f
        .mutation('cart.pay')
        .bindState('has_items', 'PAY')
        .handle(() => 'paid'),
    );
    expect(() => one.runtime({})).toThrowErrorMatchingInlineSnapshot(
      `[AttachError: Tool "cart.pay" is bound to workflow states with .bindState(), but no workflow gate is served, so nothing would gate it. Pass the machine as the \`fsm\` option (startServer(registry, { fsm }), createFusionApp(registry, { fsm }), registry.attachToServer(server, { fsm }), createTestClient(registry, { fsm })), or remove .bindState() from this tool.]`,
    );
  });

  it('serves the registry gated once the machine is passed, and without it when a filter leaves out the bound tools', async () => {
    await using gated = await httpServer(shop(), { fsm: checkout });
    await using client = await v2HttpClient(gated.url);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['cart.add', 'catalog.search']);
    await using unbound = await createTestClient(shop(), { filter: { exclude: ['cart'] } });
    expect(await unbound.listToolNames()).toEqual(['catalog.search']);
  });
});
