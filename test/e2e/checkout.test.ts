import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { createClock, createTestClient } from '../../src/testing/index.js';
import { httpServer, texts, v2HttpClient } from '../_helpers/clients.js';

const ungated = [
  'countries.list',
  'sprints.list',
  'sprints.create',
  'tasks.update',
  'cart.view',
  'platform',
  'reports.generate',
];
const visible = {
  empty: [...ungated, 'cart.add_item'].sort(),
  has_items: [...ungated, 'cart.add_item', 'cart.checkout', 'cart.clear'].sort(),
  payment: [...ungated, 'cart.cancel', 'cart.pay'].sort(),
  // After paying, adding an item starts the next purchase.
  confirmed: [...ungated, 'cart.add_item'].sort(),
};

describe('checkout flow through the SDK client (legacy era)', () => {
  it('shows exactly the tools of each state and announces every change', async () => {
    await using t = await createTestClient(registry, workspaceOptions());
    const names = async () => (await t.listToolNames()).sort();
    expect(await names()).toEqual(visible.empty);

    const refused = await t.call('cart.pay', { payment_method: 'card' });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]).toBe(
      'Tool "cart.pay" is not available in the current workflow state "empty" (workflow "checkout"). It works in: payment. ' +
        'Call first: cart.add_item → cart.checkout. Available now: countries.list, sprints.list, sprints.create, tasks.update, cart.add_item, cart.view, platform, reports.generate.',
    );

    let changed = t.nextListChanged();
    expect((await t.call('cart.add_item', { product_id: 'p1' })).isError).toBe(false);
    await changed;
    expect(await names()).toEqual(visible.has_items);

    changed = t.nextListChanged();
    await t.call('cart.checkout');
    await changed;
    expect(await names()).toEqual(visible.payment);

    changed = t.nextListChanged();
    const paid = await t.call('cart.pay', { payment_method: 'card' });
    expect(paid.content[0]).toEqual({ order_id: expect.stringMatching(/^o\d+$/), status: 'paid' });
    await changed;
    expect(await names()).toEqual(visible.confirmed);
    expect(t.listChangedCount).toBe(3);
  });

  it('suggests only next actions the gate shows in the new state', async () => {
    await using t = await createTestClient(registry, workspaceOptions());
    const added = await t.callTool('cart.add_item', { product_id: 'p1' });
    const text = added.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
    expect(text).toContain('Suggested next actions:\n- cart.checkout: Ready to pay for 1 item(s)?');
    expect(text).not.toContain('cart.pay: Pay once');
  });

  it('never runs a refused handler and sends no notification for it', async () => {
    const options = workspaceOptions();
    await using t = await createTestClient(registry, options);
    // list_changed follows a transition only, and a call's transition happens before its answer: none heard, none to come.
    const transitions: string[] = [];
    const off = options.fsm.onTransition((e) => void transitions.push(e.event));
    const before = (await t.call('cart.view')).content[0];
    await t.call('cart.checkout');
    off();
    expect(transitions).toEqual([]);
    expect((await t.call('cart.view')).content[0]).toEqual(before);
    expect(t.listChangedCount).toBe(0);
  });

  it('coalesces a burst of transitions into one trailing notification', async () => {
    // The debounce runs on the test clock: the burst is one burst by construction, whatever the machine's load.
    const clock = createClock();
    await using t = await createTestClient(registry, { ...workspaceOptions(), listChangedDebounceMs: 50, clock });
    await t.call('cart.add_item', { product_id: 'a' });
    clock.advance(40);
    await t.call('cart.clear');
    clock.advance(40);
    await t.call('cart.add_item', { product_id: 'b' });
    clock.advance(49);
    expect(t.listChangedCount).toBe(0); // trailing, not leading
    const heard = t.nextListChanged();
    clock.advance(1);
    await heard;
    expect(t.listChangedCount).toBe(1);
  });
});

describe('checkout flow over HTTP with two sessions', () => {
  it('keeps each session in its own state and notifies only the session that changed', async () => {
    await using srv = await httpServer(registry, workspaceOptions());
    await using alice = await v2HttpClient(srv.url);
    await using bob = await v2HttpClient(srv.url);
    let aliceChanges = 0;
    let bobChanges = 0;
    const aliceChanged = new Promise<void>((resolve) =>
      alice.setNotificationHandler('notifications/tools/list_changed', () => {
        aliceChanges++;
        resolve();
      }),
    );
    bob.setNotificationHandler('notifications/tools/list_changed', () => {
      bobChanges++;
    });
    await Promise.all([alice.streamOpen, bob.streamOpen]);
    // Each list_changed follows a transition of its session: the transitions heard bound the notifications to come.
    const transitions: string[] = [];
    const off = workspaceOptions().fsm.onTransition((e) => void transitions.push(`${e.event} by ${e.tool}`));
    const added = await alice.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } });
    expect(added.isError).not.toBe(true);
    await aliceChanged;
    const aliceNames = (await alice.listTools()).tools.map((t) => t.name).sort();
    const bobNames = (await bob.listTools()).tools.map((t) => t.name).sort();
    expect(aliceNames).toEqual(visible.has_items);
    expect(bobNames).toEqual(visible.empty);
    const bobPay = await bob.callTool({ name: 'cart.checkout', arguments: {} });
    expect(bobPay.isError).toBe(true);
    expect(texts(bobPay)[0]).toMatch(/current workflow state "empty"/);
    off();
    expect(transitions).toEqual(['ADD_ITEM by cart.add_item']);
    expect(aliceChanges).toBe(1);
    expect(bobChanges).toBe(0);
  });
});
