import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  initFusion,
  MemoryFsmStore,
  StateMachineGate,
  type FsmStateStore,
  type ServeOptions,
  type HandlerExtra,
  type ToolRegistry,
  type ToolResponse,
} from '../../src/index.js';
import { detachedExtra, type FusionRuntime } from '../../src/advanced/index.js';
import { buildServer } from '../../src/server/buildServer.js';
import { createTestClient } from '../../src/testing/index.js';
import { httpServer, texts, v2HttpClient } from '../_helpers/clients.js';
import { until } from '../_helpers/waitFor.js';
import { checkout, engines } from '../fsm/fixtures.js';

type Engine = (typeof engines)[number];

/** The seed's cart tools over one gate, counting handler runs. */
function cart(engine: Engine) {
  const runs: Record<string, number> = {};
  const count = (tool: string) => {
    runs[tool] = (runs[tool] ?? 0) + 1;
  };
  const f = initFusion();
  const registry = f.registry().registerAll(
    f
      .mutation('cart.add_item')
      .bindState(['empty', 'has_items'], 'ADD_ITEM')
      .withString('product_id')
      .handle((input) => (count('cart.add_item'), { added: input.product_id })),
    f
      .mutation('cart.checkout')
      .bindState('has_items', 'CHECKOUT')
      .handle(() => (count('cart.checkout'), { order: 'o1' })),
    f
      .mutation('cart.pay')
      .bindState('payment', 'PAY')
      .withString('payment_method')
      .handle(() => (count('cart.pay'), { status: 'paid' })),
    f
      .mutation('cart.clear')
      .bindState('has_items', 'CLEAR')
      .handle(() => (count('cart.clear'), 'Cart cleared.')),
    f.query('cart.view').handle(() => (count('cart.view'), { items: [] })),
  );
  const gate = new StateMachineGate(checkout, { engine });
  return { registry, gate, runs };
}

const table = {
  empty: ['cart.add_item', 'cart.view'],
  has_items: ['cart.add_item', 'cart.checkout', 'cart.clear', 'cart.view'],
  payment: ['cart.pay', 'cart.view'],
  confirmed: ['cart.view'],
};

/** A real SDK client on a shared pipeline; `sessionId` fixes the state key (as an HTTP session id would). */
async function connect<Ctx>(registry: ToolRegistry<Ctx>, options: ServeOptions<Ctx>, sessionId?: string) {
  const pipeline = registry.runtime(options).tools;
  const { server } = buildServer(registry.runtime(options), options, 'legacy');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  if (sessionId !== undefined) serverSide.sessionId = sessionId;
  const client = new Client({ name: 'fsm-e2e', version: '1.0.0' });
  let listChanged = 0;
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    listChanged++;
  });
  await server.connect(serverSide);
  await client.connect(clientSide);
  const close = async () => {
    await client.close();
    await server.close();
  };
  return {
    pipeline,
    names: async () => (await client.listTools()).tools.map((t) => t.name).sort(),
    call: async (name: string, args: Record<string, unknown> = {}) =>
      (await client.callTool({ name, arguments: args })) as ToolResponse,
    get listChanged() {
      return listChanged;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * A transition on another connection of the same runtime, and its list_changed: its debounce timer was
 * armed after every earlier one, so once it is delivered every notification scheduled before it has been too.
 */
async function barrier<Ctx>(registry: ToolRegistry<Ctx>, options: ServeOptions<Ctx>): Promise<void> {
  await using other = await connect(registry, options);
  await other.call('cart.add_item', { product_id: 'barrier' });
  await until(() => other.listChanged > 0, 'tools/list_changed');
}

describe.each(engines)('FSM gate through the SDK client (%s engine)', (engine) => {
  it('lists the seed table per state, refuses cart.pay in empty without running it, and announces each change', async () => {
    const { registry, gate, runs } = cart(engine);
    await using t = await createTestClient(registry, { fsm: gate });
    const names = async () => (await t.listToolNames()).sort();
    expect(await names()).toEqual(table.empty);
    const refused = await t.callTool('cart.pay', { payment_method: 'card' });
    expect(refused.isError).toBe(true);
    expect(texts(refused)[0]).toBe(
      'Tool "cart.pay" is not available in the current workflow state "empty" (workflow "checkout"). It works in: payment. Call first: cart.add_item → cart.checkout. Available now: cart.add_item, cart.view.',
    );
    expect(runs['cart.pay']).toBeUndefined();
    for (const [tool, args, state] of [
      ['cart.add_item', { product_id: 'p1' }, 'has_items'],
      ['cart.checkout', {}, 'payment'],
      ['cart.pay', { payment_method: 'card' }, 'confirmed'],
    ] as const) {
      const changed = t.nextListChanged();
      expect((await t.callTool(tool, args)).isError).not.toBe(true);
      await changed;
      expect(await names()).toEqual(table[state]);
    }
    expect(t.listChangedCount).toBe(3);
  });

  it('runs exactly one of 100 parallel cart.checkout calls after one add_item', async () => {
    const { registry, gate, runs } = cart(engine);
    await using c = await connect(registry, { fsm: gate });
    await c.call('cart.add_item', { product_id: 'p1' });
    const results = await Promise.all(Array.from({ length: 100 }, () => c.call('cart.checkout')));
    expect(runs['cart.checkout']).toBe(1);
    expect(results.filter((r) => r.isError !== true)).toHaveLength(1);
    const refusals = results.filter((r) => r.isError === true).map((r) => texts(r)[0]);
    expect(refusals).toHaveLength(99);
    expect(new Set(refusals)).toEqual(
      new Set([expect.stringContaining('not available in the current workflow state "payment"')]),
    );
    expect(await c.names()).toEqual(table.payment);
  });

  it('loses no call of 100 parallel add_item calls and sends one notification', async () => {
    const { registry, gate, runs } = cart(engine);
    const options = { fsm: gate };
    await using c = await connect(registry, options);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => c.call('cart.add_item', { product_id: `p${i}` })),
    );
    expect(results.every((r) => r.isError !== true)).toBe(true);
    expect(runs['cart.add_item']).toBe(100);
    await until(() => c.listChanged > 0, 'tools/list_changed');
    await barrier(registry, options);
    expect(c.listChanged).toBe(1);
  });

  it('keeps connections apart: state and list_changed belong to the connection that changed', async () => {
    const { registry, gate } = cart(engine);
    const options = { fsm: gate };
    await using alice = await connect(registry, options);
    await using bob = await connect(registry, options);
    await alice.call('cart.add_item', { product_id: 'p1' });
    await until(() => alice.listChanged > 0, 'tools/list_changed');
    await barrier(registry, options);
    expect(await alice.names()).toEqual(table.has_items);
    expect(await bob.names()).toEqual(table.empty);
    expect(alice.listChanged).toBe(1);
    expect(bob.listChanged).toBe(0);
  });
});

describe('fsmStore through the SDK client', () => {
  it('keeps state across connections and processes that share the store and the session id', async () => {
    const store = new MemoryFsmStore();
    const first = cart('xstate');
    {
      await using c = await connect(first.registry, { fsm: first.gate, fsmStore: store }, 'session-1');
      await c.call('cart.add_item', { product_id: 'p1' });
      expect(await c.names()).toEqual(table.has_items);
    }
    expect(await store.load('session-1')).toMatchObject({ state: 'has_items', version: 1 });
    // A second "process": its own registry, gate and pipeline, over the same store.
    const second = cart('builtin');
    await using again = await connect(second.registry, { fsm: second.gate, fsmStore: store }, 'session-1');
    await using other = await connect(second.registry, { fsm: second.gate, fsmStore: store }, 'session-2');
    expect(await again.names()).toEqual(table.has_items);
    expect(await other.names()).toEqual(table.empty);
    await again.call('cart.checkout');
    expect(await store.load('session-1')).toMatchObject({ state: 'payment', version: 2 });
  });

  it('keys the store by Mcp-Session-Id over HTTP, one entry per session', async () => {
    const store = new MemoryFsmStore();
    const { registry, gate } = cart('xstate');
    await using srv = await httpServer(registry, { fsm: gate, fsmStore: store });
    await using alice = await v2HttpClient(srv.url);
    await using bob = await v2HttpClient(srv.url);
    await alice.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } });
    const aliceId = (alice.transport as { sessionId?: string } | undefined)?.sessionId;
    const bobId = (bob.transport as { sessionId?: string } | undefined)?.sessionId;
    expect(aliceId).toEqual(expect.any(String));
    expect(await store.load(aliceId!)).toMatchObject({ state: 'has_items', version: 1 });
    expect(await store.load(bobId!)).toBeUndefined();
    expect((await bob.listTools()).tools.map((t) => t.name).sort()).toEqual(table.empty);
    expect(store.size).toBe(1);
  });

  it('answers a call with an isError result when the store cannot load, runs nothing, and recovers', async () => {
    const { registry, gate, runs } = cart('xstate');
    const memory = new MemoryFsmStore();
    let down = true;
    const store: FsmStateStore = {
      load: (key) => (down ? Promise.reject(new Error('redis down')) : memory.load(key)),
      save: (key, snap) => memory.save(key, snap),
    };
    await using t = await createTestClient(registry, { fsm: gate, fsmStore: store });
    const result = await t.callTool('cart.add_item', { product_id: 'p1' });
    expect(result.isError).toBe(true);
    expect(texts(result)).toEqual([
      'Tool "cart.add_item" could not run: the workflow state could not be loaded (the workflow state store failed to load (redis down)). Nothing was changed; try again shortly.',
    ]);
    expect(runs['cart.add_item']).toBeUndefined();
    await expect(t.listToolNames()).rejects.toThrow(/failed to load \(redis down\)/);
    expect((await t.callTool('cart.view')).isError).not.toBe(true);
    down = false;
    expect((await t.callTool('cart.add_item', { product_id: 'p1' })).isError).not.toBe(true);
    expect((await t.listToolNames()).sort()).toEqual(table.has_items);
  });

  it('reports a failed save and keeps showing the previous state', async () => {
    const { registry, gate, runs } = cart('xstate');
    const store: FsmStateStore = { load: async () => undefined, save: () => Promise.reject(new Error('disk full')) };
    await using t = await createTestClient(registry, { fsm: gate, fsmStore: store });
    // list_changed follows a state change only, reported before the call answers: none reported, none to come.
    const changes: string[] = [];
    gate.onTransition((e) => void (e.changed && changes.push(e.event)));
    const result = await t.callTool('cart.add_item', { product_id: 'p1' });
    expect(runs['cart.add_item']).toBe(1);
    expect(result.isError).toBe(true);
    expect(texts(result)).toEqual([
      '{"added":"p1"}',
      'Warning: "cart.add_item" ran, but the workflow state could not be saved (disk full); the workflow "checkout" stays in its previous state. Re-check the data before continuing.',
    ]);
    expect((await t.listToolNames()).sort()).toEqual(table.empty);
    expect(changes).toEqual([]);
    expect(t.listChangedCount).toBe(0);
  });

  it('reports a compare-and-set conflict: the transition was not taken', async () => {
    const { registry, gate } = cart('builtin');
    const store: FsmStateStore = {
      load: async () => undefined,
      save: async () => {},
      compareAndSet: async () => false,
    };
    await using t = await createTestClient(registry, { fsm: gate, fsmStore: store });
    const result = await t.callTool('cart.add_item', { product_id: 'p1' });
    expect(result.isError).toBe(true);
    expect(texts(result).at(-1)).toBe(
      'Warning: "cart.add_item" ran, but the workflow state could not be saved (the workflow state changed concurrently in another process); the workflow "checkout" did not take this call\'s transition. Call tools/list to see what is available now.',
    );
  });
});

describe('per-session state does not leak', () => {
  const extra = (sessionId: string): HandlerExtra => detachedExtra({ sessionId, requestId: 1 });

  it('leaves sessionCount 0 after 10,000 sessions are used and released', async () => {
    const { registry, gate } = cart('builtin');
    const runtime: FusionRuntime = registry.runtime({ fsm: gate });
    const pipeline = runtime.tools;
    let notified = 0;
    for (let i = 0; i < 10_000; i++) {
      const scope = { sessionKey: `k${i}`, extra: extra(`k${i}`) };
      runtime.registerSession(scope.sessionKey, async () => void notified++);
      await pipeline.listTools(scope);
      await pipeline.callTool('cart.add_item', { product_id: 'p' }, scope);
      if (i % 2 === 0) await pipeline.callTool('cart.checkout', {}, scope);
    }
    expect(runtime.sessionCount).toBe(10_000);
    for (let i = 0; i < 10_000; i++) runtime.releaseSession(`k${i}`);
    expect(runtime.sessionCount).toBe(0);
    const before = notified;
    // Released sessions get no late notification: a fresh session's, armed after theirs, arrives first.
    let barrier = false;
    const last = { sessionKey: 'barrier', extra: extra('barrier') };
    runtime.registerSession(last.sessionKey, async () => void (barrier = true));
    await pipeline.callTool('cart.add_item', { product_id: 'p' }, last);
    await until(() => barrier, 'tools/list_changed');
    expect(notified).toBe(before);
  });

  it('leaves sessionCount 0 after 200 SDK connections open, transition and close', async () => {
    const { registry, gate } = cart('xstate');
    const options = { fsm: gate };
    const open: Array<Awaited<ReturnType<typeof connect>>> = [];
    for (let i = 0; i < 200; i++) {
      const c = await connect(registry, options);
      await c.call('cart.add_item', { product_id: 'p' });
      open.push(c);
    }
    await until(() => open.every((c) => c.listChanged === 1), 'tools/list_changed');
    expect(registry.runtime(options).sessionCount).toBe(200);
    await Promise.all(open.map((c) => c.close()));
    expect(registry.runtime(options).sessionCount).toBe(0);
  });
});

describe('attach-time checks', () => {
  it('delivers FSM warnings to onWarning, not to the console', async () => {
    const f = initFusion();
    const registry = f.registry().registerAll(
      f
        .mutation('cart.ship')
        .bindState('payment', 'SHIP')
        .handle(() => 'shipped'),
      f
        .mutation('cart.add_item')
        .bindState('empty', 'ADD_ITEM')
        .handle(() => 'added'),
    );
    const gate = new StateMachineGate({
      id: 'checkout',
      initial: 'empty',
      states: { ...checkout.states, archived: {} },
    });
    const warnings: string[] = [];
    await using t = await createTestClient(registry, { fsm: gate, onWarning: (m) => warnings.push(m) });
    expect(warnings).toEqual([
      'Tool "cart.ship" sends event "SHIP", which no state of FSM "checkout" handles; add it to a state\'s "on" or fix the name.',
      'State "archived" of FSM "checkout" is unreachable from "empty"; add a transition to it or remove it.',
    ]);
    expect(await t.listToolNames()).toEqual(['cart.add_item']);
  });

  it('fails at attach when a tool is bound to a state the machine does not have', () => {
    const f = initFusion();
    const registry = f.registry().register(
      f
        .mutation('cart.pay')
        .bindState('paying', 'PAY')
        .handle(() => 'paid'),
    );
    expect(() => registry.runtime({ fsm: new StateMachineGate(checkout) }).tools).toThrow(
      'Tool "cart.pay" names unknown state "paying" of FSM "checkout"; known states: empty, has_items, payment, confirmed.',
    );
  });
});
