import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it, vi } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { createFusionApp, initFusion, type FusionApp } from '../../src/index.js';
import { texts, v2FetchClient } from '../_helpers/clients.js';
import { until } from '../_helpers/waitFor.js';
import { createClock } from '../../src/testing/index.js';

/** A modern client whose requests carry `authInfo` for `clientId` (the owner of its handles). */
async function modernClientAs(app: FusionApp, clientId?: string): Promise<Client & AsyncDisposable> {
  const client = new Client({ name: 'modern', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
    fetch: (url, init) => {
      const request = new Request(url, init);
      request.headers.set('host', '127.0.0.1');
      return app.fetch(request, clientId === undefined ? {} : { authInfo: { token: 't', clientId, scopes: [] } });
    },
  });
  await client.connect(transport);
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

/**
 * A stale pattern every watcher below also subscribes to. Once each watcher has the update the barrier
 * sends, whatever was sent to it before, on the same stream, has arrived too: the proof that nothing else came.
 */
const BARRIER = 'fusion://stale/countries.*';
async function barrier(app: FusionApp, seen: Record<string, string[]>): Promise<void> {
  const before = Object.values(seen).map((uris) => uris.filter((u) => u === BARRIER).length);
  await app.notifyResourceUpdated(BARRIER);
  await until(
    () => Object.values(seen).every((uris, i) => uris.filter((u) => u === BARRIER).length > before[i]!),
    'the barrier update',
  );
  for (const uris of Object.values(seen)) uris.splice(0, uris.length, ...uris.filter((u) => u !== BARRIER));
}

const handleOf = (result: { content?: unknown }) => /checkout_id: (che_[\w-]+)/.exec(texts(result).join('\n'))?.[1];

describe('one definition, modern era: workflow handles', () => {
  it('lists every tool, the same whatever the state, with the handle argument on bound tools', async () => {
    const app = createFusionApp(registry, workspaceOptions());
    await using client = await v2FetchClient(app, 'auto');
    expect(client.getProtocolEra()).toBe('modern');
    const before = await client.listTools();
    const names = before.tools.map((t) => t.name);
    // The grouped builder `platform` is one tool (exposition follows the builder).
    expect(names).toEqual([
      'countries.list',
      'sprints.list',
      'sprints.create',
      'tasks.update',
      'cart.add_item',
      'cart.checkout',
      'cart.cancel',
      'cart.pay',
      'cart.clear',
      'cart.view',
      'platform',
      'reports.generate',
    ]);
    // The seeds' call of a grouped tool, on a modern request.
    const created = await client.callTool({
      name: 'platform',
      arguments: { action: 'users.create', email: 'mo@example.com' },
    });
    expect(created.isError).toBeFalsy();
    expect(texts(created).join('\n')).toContain('"email":"mo@example.com"');
    const pay = before.tools.find((t) => t.name === 'cart.pay')!;
    expect(pay.description).toBe(
      'Process payment. Workflow "checkout": works in state payment; pass the checkout_id returned by cart.add_item.',
    );
    expect(pay.inputSchema.required).toEqual(['payment_method', 'checkout_id']);
    expect(pay._meta?.['fusion/workflow']).toEqual({
      machine: 'checkout',
      states: ['payment'],
      handleArg: 'checkout_id',
      entry: false,
    });
    const add = before.tools.find((t) => t.name === 'cart.add_item')!;
    expect(add.inputSchema.required).toEqual(['product_id']);
    expect(add.description).toMatch(
      /Omit checkout_id to start a new checkout workflow \(the result returns it\); pass it to continue one\. Unused checkout workflows expire after 24 h\./,
    );

    const first = await client.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } });
    await client.callTool({ name: 'cart.checkout', arguments: { checkout_id: handleOf(first) } });
    expect(await client.listTools()).toEqual(before);
    await app.close();
  });

  it('mints a handle at the entry tool, refuses out-of-order calls without running them, and ends with a Next line', async () => {
    const app = createFusionApp(registry, workspaceOptions());
    await using client = await v2FetchClient(app, 'auto');
    const noHandle = await client.callTool({ name: 'cart.pay', arguments: { payment_method: 'card' } });
    expect(noHandle.isError).toBe(true);
    expect(texts(noHandle)[0]).toBe(
      'Tool "cart.pay" needs checkout_id: it continues a checkout workflow. Start one with cart.add_item (called without checkout_id) and pass the checkout_id it returns.',
    );

    const added = await client.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } });
    const handle = handleOf(added)!;
    expect(handle).toMatch(/^che_[A-Za-z0-9_-]{22}$/);
    expect(added._meta?.['fusion/workflow']).toMatchObject({
      machine: 'checkout',
      handle,
      state: 'has_items',
      allowed: ['cart.add_item', 'cart.checkout', 'cart.clear', 'cart.view'],
    });
    expect(texts(added).at(-1)).toBe(
      'Workflow "checkout" is now in state "has_items". Next: cart.add_item, cart.checkout, cart.clear, cart.view.',
    );

    const early = await client.callTool({
      name: 'cart.pay',
      arguments: { payment_method: 'card', checkout_id: handle },
    });
    expect(early.isError).toBe(true);
    expect(texts(early)[0]).toMatch(
      /^Tool "cart.pay" is not available in the current workflow state "has_items" \(workflow "checkout"\)\. It works in: payment\. Call first: cart.checkout\./,
    );
    expect(texts(early).at(-1)).toBe(`(checkout_id "${handle}")`);

    await client.callTool({ name: 'cart.checkout', arguments: { checkout_id: handle } });
    const paid = await client.callTool({
      name: 'cart.pay',
      arguments: { payment_method: 'card', checkout_id: handle },
    });
    expect(paid.isError).not.toBe(true);
    expect(texts(paid).at(-1)).toBe('Workflow "checkout" is now in state "confirmed". Next: cart.add_item, cart.view.');
    expect(paid._meta?.['fusion/workflow']).toMatchObject({
      state: 'confirmed',
      allowed: ['cart.add_item', 'cart.view'],
    });
    // The example's checkout goes on after paying: the same checkout_id takes the next purchase.
    const again = await client.callTool({
      name: 'cart.add_item',
      arguments: { product_id: 'p2', checkout_id: handle },
    });
    expect(texts(again).at(-1)).toBe(
      'Workflow "checkout" is now in state "has_items". Next: cart.add_item, cart.checkout, cart.clear, cart.view.',
    );
    expect(again._meta?.['fusion/workflow']).toMatchObject({
      state: 'has_items',
      allowed: ['cart.add_item', 'cart.checkout', 'cart.clear', 'cart.view'],
    });
    await app.close();
  });

  it('refuses to move a finished instance, and lets a .bindState("*") reader read it', async () => {
    const f = initFusion();
    const flow = f.fsm({
      id: 'order',
      initial: 'open',
      states: { open: { on: { CLOSE: 'closed' } }, closed: { type: 'final' } },
    });
    const app = createFusionApp(
      f.registry().registerAll(
        f
          .action('order.close')
          .bindState('open', 'CLOSE')
          .handle(() => 'closed'),
        f
          .query('order.view')
          .bindState('*')
          .handle((_input, _ctx, extra) => `viewing ${extra.workflow?.handle}`),
      ),
      { fsm: flow },
    );
    await using client = await v2FetchClient(app, 'auto');
    const closed = await client.callTool({ name: 'order.close', arguments: {} });
    const handle = /order_id: (ord_[\w-]+)/.exec(texts(closed).join('\n'))![1]!;
    expect(texts(closed).at(-1)).toBe('Workflow "order" is now in its final state "closed". Next: order.view.');
    const again = await client.callTool({ name: 'order.close', arguments: { order_id: handle } });
    expect(texts(again)[0]).toBe(
      `The order "${handle}" is finished (final state "closed"); "order.close" cannot change it. Start a new order workflow with order.close (called without order_id).`,
    );
    expect(texts(await client.callTool({ name: 'order.view', arguments: { order_id: handle } }))).toEqual([
      `viewing ${handle}`,
    ]);
    const view = (await client.listTools()).tools.find((t) => t.name === 'order.view')!;
    expect(view.inputSchema.required).toEqual(['order_id']);
    expect(view.description).toBe(
      'Workflow "order": works in states open, closed; pass the order_id returned by order.close.',
    );
    await app.close();
  });

  it('keeps two handles independent and refuses foreign or unknown handles alike', async () => {
    const app = createFusionApp(registry, workspaceOptions());
    await using alice = await modernClientAs(app, 'alice');
    await using mallory = await modernClientAs(app, 'mallory');
    const a = handleOf(await alice.callTool({ name: 'cart.add_item', arguments: { product_id: 'a' } }))!;
    const b = handleOf(await alice.callTool({ name: 'cart.add_item', arguments: { product_id: 'b' } }))!;
    expect(a).not.toBe(b);
    expect((await alice.callTool({ name: 'cart.checkout', arguments: { checkout_id: a } })).isError).not.toBe(true);
    const bPay = await alice.callTool({ name: 'cart.pay', arguments: { payment_method: 'x', checkout_id: b } });
    expect(texts(bPay)[0]).toMatch(/current workflow state "has_items"/);
    const foreign = await mallory.callTool({ name: 'cart.pay', arguments: { payment_method: 'x', checkout_id: a } });
    const unknown = await mallory.callTool({
      name: 'cart.pay',
      arguments: { payment_method: 'x', checkout_id: 'che_doesnotexist' },
    });
    expect(texts(foreign)[0]).toBe(
      `Unknown or expired checkout_id "${a}". Start a new checkout workflow with cart.add_item (called without checkout_id) and use the checkout_id it returns.`,
    );
    expect(texts(unknown)[0]).toBe(texts(foreign)[0]!.replace(a, 'che_doesnotexist'));
    await app.close();
  });

  it('refuses an expired handle', async () => {
    const f = initFusion();
    const flow = f.fsm({
      id: 'job',
      initial: 'new',
      idleTtlMs: 40,
      states: { new: { on: { START: 'running' } }, running: { on: { STOP: 'new' } } },
    });
    const start = f
      .mutation('job.start')
      .bindState('new', 'START')
      .handle(() => 'started');
    const stop = f
      .mutation('job.stop')
      .bindState('running', 'STOP')
      .handle(() => 'stopped');
    const clock = createClock();
    const app = createFusionApp(f.registry().registerAll(start, stop), { fsm: flow, clock });
    await using client = await v2FetchClient(app, 'auto');
    const started = await client.callTool({ name: 'job.start', arguments: {} });
    const handle = /job_id: (job_[\w-]+)/.exec(texts(started).join('\n'))![1];
    clock.advance(41);
    const late = await client.callTool({ name: 'job.stop', arguments: { job_id: handle } });
    expect(texts(late)[0]).toMatch(/^Unknown or expired job_id/);
    await app.close();
  });

  it('runs a once-only step exactly once under 100 concurrent calls on one handle', async () => {
    const f = initFusion();
    let paid = 0;
    const flow = f.fsm({
      id: 'order',
      initial: 'open',
      states: { open: { on: { PAY: 'paid' } }, paid: { type: 'final' } },
    });
    const open = f
      .action('order.open')
      .bindState('open')
      .handle(() => 'opened');
    const pay = f
      .mutation('order.pay')
      .bindState('open', 'PAY')
      .handle(async () => {
        // Work that takes real time, so that the other 99 calls arrive while the first one runs (input, not a wait).
        await new Promise((r) => setTimeout(r, 2));
        paid++;
        return 'paid';
      });
    const app = createFusionApp(f.registry().registerAll(open, pay), { fsm: flow });
    await using client = await v2FetchClient(app, 'auto');
    const handle = /order_id: (ord_[\w-]+)/.exec(
      texts(await client.callTool({ name: 'order.open', arguments: {} })).join('\n'),
    )![1];
    const results = await Promise.all(
      Array.from({ length: 100 }, () => client.callTool({ name: 'order.pay', arguments: { order_id: handle } })),
    );
    expect(results.filter((r) => r.isError !== true)).toHaveLength(1);
    expect(paid).toBe(1);
    await app.close();
  });
});

describe('one definition, legacy era at the same endpoint', () => {
  it('filters the list per session and ends transitions with the Next line', async () => {
    const app = createFusionApp(registry, workspaceOptions());
    await using client = await v2FetchClient(app);
    expect(client.getProtocolEra()).toBe('legacy');
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('cart.pay');
    const added = await client.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } });
    expect(texts(added).at(-1)).toBe(
      'Workflow "checkout" is now in state "has_items". Next: cart.add_item, cart.checkout, cart.clear, cart.view.',
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('cart.checkout');
    await app.close();
  });
});

describe('announcing changes as resources', () => {
  it('serves each workflow instance as an owner-checked resource', async () => {
    const app = createFusionApp(registry, workspaceOptions());
    await using alice = await modernClientAs(app, 'alice');
    await using mallory = await modernClientAs(app, 'mallory');
    const templates = (await alice.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(templates).toEqual(expect.arrayContaining(['fusion://fsm/checkout/{handle}', 'fusion://stale/{pattern}']));
    const handle = handleOf(await alice.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } }))!;
    const read = await alice.readResource({ uri: `fusion://fsm/checkout/${handle}` });
    const body = JSON.parse((read.contents[0] as { text: string }).text);
    expect(body).toEqual({
      state: 'has_items',
      allowed: ['cart.add_item', 'cart.checkout', 'cart.clear', 'cart.view'],
      version: 1,
      expiresAt: expect.any(Number),
    });
    await expect(mallory.readResource({ uri: `fusion://fsm/checkout/${handle}` })).rejects.toThrow(/not found/i);
    await app.close();
  });

  it('serves the last invalidation of a pattern', async () => {
    const app = createFusionApp(registry, workspaceOptions());
    await using client = await v2FetchClient(app, 'auto');
    const before = JSON.parse(
      ((await client.readResource({ uri: 'fusion://stale/sprints.*' })).contents[0] as { text: string }).text,
    );
    expect(before).toEqual({ pattern: 'sprints.*', invalidated: false });
    await client.callTool({ name: 'tasks.update', arguments: { id: 't1', title: 'Renamed' } });
    const after = JSON.parse(
      ((await client.readResource({ uri: 'fusion://stale/sprints.*' })).contents[0] as { text: string }).text,
    );
    expect(after).toEqual({
      pattern: 'sprints.*',
      causedBy: 'tasks.update',
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    await app.close();
  });
});

describe('modern listen streams', () => {
  it('deliver resources/updated for a named instance URI only, and for stale patterns', async () => {
    const app = createFusionApp(registry, workspaceOptions());
    await using alice = await modernClientAs(app, 'alice');
    await using bob = await modernClientAs(app, 'bob');
    const mine = handleOf(await alice.callTool({ name: 'cart.add_item', arguments: { product_id: 'a' } }))!;
    const other = handleOf(await bob.callTool({ name: 'cart.add_item', arguments: { product_id: 'b' } }))!;
    const seen = { alice: [] as string[], bob: [] as string[] };
    alice.setNotificationHandler('notifications/resources/updated', (n) => void seen.alice.push(n.params.uri));
    bob.setNotificationHandler('notifications/resources/updated', (n) => void seen.bob.push(n.params.uri));
    const aliceSub = await alice.listen({
      resourceSubscriptions: [`fusion://fsm/checkout/${mine}`, 'fusion://stale/sprints.*', BARRIER],
    });
    const bobSub = await bob.listen({ resourceSubscriptions: [`fusion://fsm/checkout/${other}`, BARRIER] });
    expect(aliceSub.honoredFilter.resourceSubscriptions).toHaveLength(3);
    await alice.callTool({ name: 'cart.checkout', arguments: { checkout_id: mine } });
    await alice.callTool({ name: 'sprints.create', arguments: { name: 'S' } });
    await until(() => seen.alice.length >= 2, "alice's two updates");
    await barrier(app, seen);
    expect(seen.alice).toEqual([`fusion://fsm/checkout/${mine}`, 'fusion://stale/sprints.*']);
    expect(seen.bob).toEqual([]);
    await aliceSub.close();
    await bobSub.close();
    await app.close();
  });
});

describe('legacy resource subscriptions', () => {
  it('deliver resources/updated for a stale pattern and a reflecting resource to subscribers only', async () => {
    const app = createFusionApp(registry, { ...workspaceOptions(), resourceSubscriptions: true });
    await using subscriber = await v2FetchClient(app);
    await using other = await v2FetchClient(app);
    const seen = { subscriber: [] as string[], other: [] as string[] };
    subscriber.setNotificationHandler(
      'notifications/resources/updated',
      (n) => void seen.subscriber.push(n.params.uri),
    );
    other.setNotificationHandler('notifications/resources/updated', (n) => void seen.other.push(n.params.uri));
    await subscriber.subscribeResource({ uri: 'fusion://stale/sprints.*' });
    await subscriber.subscribeResource({ uri: 'workspace://sprints' });
    for (const client of [subscriber, other]) await client.subscribeResource({ uri: BARRIER });
    await Promise.all([subscriber.streamOpen, other.streamOpen]);
    await other.callTool({ name: 'sprints.create', arguments: { name: 'S2' } });
    await until(() => seen.subscriber.length >= 2, "the subscriber's two updates");
    await barrier(app, seen);
    expect(seen.subscriber.sort()).toEqual(['fusion://stale/sprints.*', 'workspace://sprints']);
    expect(seen.other).toEqual([]);
    await expect(subscriber.subscribeResource({ uri: 'workspace://../etc/passwd' })).rejects.toThrow();
    await app.close();
  });
});

describe('listen stream cap, deleted resources and the legacy handle escape hatch', () => {
  it('caps open listen streams per principal with a clear error and frees a slot when one closes', async () => {
    const app = createFusionApp(registry, { ...workspaceOptions(), maxListenStreamsPerPrincipal: 1 });
    await using alice = await modernClientAs(app, 'alice');
    await using bob = await modernClientAs(app, 'bob');
    const first = await alice.listen({ resourceSubscriptions: ['fusion://stale/sprints.*'] });
    await expect(alice.listen({ resourceSubscriptions: ['fusion://stale/tasks.*'] })).rejects.toThrow(
      /Too many open subscription streams/,
    );
    const other = await bob.listen({ resourceSubscriptions: ['fusion://stale/tasks.*'] });
    await first.close();
    // The server frees the slot when it sees the stream end: retried until it has.
    const again = await vi.waitFor(() => alice.listen({ resourceSubscriptions: ['fusion://stale/tasks.*'] }), {
      timeout: 5_000,
      interval: 5,
    });
    await again.close();
    await other.close();
    await app.close();
  });

  it('tells legacy subscribers once that a resource was deleted, then ends their subscription', async () => {
    const app = createFusionApp(registry, { ...workspaceOptions(), resourceSubscriptions: true });
    await using client = await v2FetchClient(app);
    const seen: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void seen.push(n.params.uri));
    await client.subscribeResource({ uri: 'workspace://sprints' });
    await client.subscribeResource({ uri: BARRIER });
    await client.streamOpen;
    await app.notifyResourceDeleted('workspace://sprints');
    await app.notifyResourceUpdated('workspace://sprints');
    await until(() => seen.length >= 1, 'the update');
    await barrier(app, { client: seen });
    expect(seen).toEqual(['workspace://sprints']);
    await app.close();
  });

  it("serves legacy clients the handle shape with legacy: 'handle', never a shared state", async () => {
    const f = initFusion();
    const flow = f.fsm({
      id: 'job',
      initial: 'new',
      legacy: 'handle',
      states: { new: { on: { START: 'running' } }, running: { on: { STOP: 'new' } } },
    });
    const start = f
      .mutation('job.start')
      .bindState('new', 'START')
      .handle(() => 'started');
    const stop = f
      .mutation('job.stop')
      .bindState('running', 'STOP')
      .handle(() => 'stopped');
    const app = createFusionApp(f.registry().registerAll(start, stop), { fsm: flow });
    await using a = await v2FetchClient(app);
    await using b = await v2FetchClient(app);
    expect(a.getProtocolEra()).toBe('legacy');
    const listed = (await a.listTools()).tools.map((t) => t.name);
    expect(listed).toEqual(['job.start', 'job.stop']);
    const started = await a.callTool({ name: 'job.start', arguments: {} });
    const handle = /job_id: (job_[\w-]+)/.exec(texts(started).join('\n'))![1]!;
    expect(texts(await b.callTool({ name: 'job.stop', arguments: {} }))[0]).toMatch(/needs job_id/);
    // An anonymous legacy caller is its session: another session cannot use the handle, its owner can.
    const foreign = await b.callTool({ name: 'job.stop', arguments: { job_id: handle } });
    expect(foreign.isError).toBe(true);
    expect(texts(foreign)[0]).toContain(handle);
    expect((await a.callTool({ name: 'job.stop', arguments: { job_id: handle } })).isError).not.toBe(true);
    await app.close();
  });
});

describe('registry changes at run time', () => {
  it('disabling a tool removes it in both eras and announces list_changed to legacy sessions and listen streams', async () => {
    const f = initFusion();
    // A resource both streams watch: its update, sent after the change, arrives after every notification the change sent.
    const marker = f.resource('test://barrier').handle(() => 'barrier');
    const reg = f.registry().registerAll(
      f.query('a.one').handle(() => '1'),
      f.query('a.two').handle(() => '2'),
      marker,
    );
    const app = createFusionApp(reg, { resourceSubscriptions: true });
    await using legacy = await v2FetchClient(app);
    await using modern = await v2FetchClient(app, 'auto');
    let legacyChanged = 0;
    let modernChanged = 0;
    const barriers = { legacy: [] as string[], modern: [] as string[] };
    legacy.setNotificationHandler('notifications/tools/list_changed', () => void legacyChanged++);
    modern.setNotificationHandler('notifications/tools/list_changed', () => void modernChanged++);
    legacy.setNotificationHandler('notifications/resources/updated', (n) => void barriers.legacy.push(n.params.uri));
    modern.setNotificationHandler('notifications/resources/updated', (n) => void barriers.modern.push(n.params.uri));
    const sub = await modern.listen({ toolsListChanged: true, resourceSubscriptions: ['test://barrier'] });
    await legacy.subscribeResource({ uri: 'test://barrier' });
    await legacy.streamOpen;
    reg.disable('a.two');
    await until(() => legacyChanged >= 1 && modernChanged >= 1, 'list_changed on both eras');
    await app.notifyResourceUpdated('test://barrier');
    await until(
      () => barriers.legacy.length === 1 && barriers.modern.length === 1,
      'the barrier update on both streams',
    );
    expect(legacyChanged).toBe(1);
    expect(modernChanged).toBe(1);
    expect((await legacy.listTools()).tools.map((t) => t.name)).toEqual(['a.one']);
    expect((await modern.listTools()).tools.map((t) => t.name)).toEqual(['a.one']);
    await expect(modern.callTool({ name: 'a.two', arguments: {} })).rejects.toThrow(
      /Unknown tool "a.two". Available tools: a.one/,
    );
    reg.enable('a.two');
    expect((await legacy.listTools()).tools.map((t) => t.name)).toEqual(['a.one', 'a.two']);
    expect(() => reg.disable('nope')).toThrow(/No tool "nope" is registered/);
    await sub.close();
    await app.close();
  });
});
