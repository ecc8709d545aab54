import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion, StateMachineGate } from '../../src/index.js';
import { joinSentences } from '../../src/protocol/messages.js';
import { createTestClient } from '../../src/testing/index.js';
import { v2FetchClient } from '../_helpers/clients.js';
import { checkout } from '../fsm/fixtures.js';

const f = initFusion();
function shop() {
  return f.registry().registerAll(
    f
      .mutation('cart.add_item')
      .describe('Add a product to the cart')
      .bindState(['empty', 'has_items'], 'ADD_ITEM')
      .handle(() => 'added'),
    f
      .mutation('cart.pay')
      .describe('Pay.')
      .bindState('payment', 'PAY')
      .handle(() => 'paid'),
    f
      .query('cart.view')
      .describe('View the cart')
      .handle(() => 'cart'),
    f
      .query('admin.audit')
      .describe('Audit log')
      .tags('admin')
      .handle(() => 'audit'),
  );
}
const unknownText = async (call: Promise<unknown>): Promise<string> => {
  try {
    await call;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the call did not fail');
};

describe('texts for the agent', () => {
  it('joins a description and an appended note as sentences', () => {
    expect(
      joinSentences('Add a product to the cart', 'Workflow "checkout": works in state empty.'),
    ).toMatchInlineSnapshot(`"Add a product to the cart. Workflow "checkout": works in state empty."`);
    expect(joinSentences('Pay now!', ' Next.')).toMatchInlineSnapshot(`"Pay now! Next."`);
    expect(joinSentences('List sprints [Cache-Control: no-store]', 'More.')).toMatchInlineSnapshot(
      `"List sprints [Cache-Control: no-store] More."`,
    );
    expect(joinSentences(undefined, ' Only the note.')).toMatchInlineSnapshot(`"Only the note."`);
    expect(joinSentences('Only the description', '')).toMatchInlineSnapshot(`"Only the description"`);
  });

  it('legacy: an unknown tool lists only what this session may see now (workflow state, switch, tag filter)', async () => {
    const registry = shop();
    await using t = await createTestClient(registry, {
      fsm: new StateMachineGate(checkout),
      filter: { exclude: ['admin'] },
    });
    expect(await unknownText(t.client.callTool({ name: 'nope', arguments: {} }))).toMatchInlineSnapshot(
      `"Unknown tool "nope". Available tools: cart.add_item, cart.view. Call tools/list to see them."`,
    );
    await t.setState('payment');
    expect(await unknownText(t.client.callTool({ name: 'nope', arguments: {} }))).toMatchInlineSnapshot(
      `"Unknown tool "nope". Available tools: cart.pay, cart.view. Call tools/list to see them."`,
    );
    registry.disable('cart.view');
    expect(await unknownText(t.client.callTool({ name: 'cart.view', arguments: {} }))).toMatchInlineSnapshot(
      `"Unknown tool "cart.view". Available tools: cart.pay. Call tools/list to see them."`,
    );
  });

  it('suggests the nearest visible names for a misspelt tool, never a hidden one', async () => {
    const registry = shop();
    await using t = await createTestClient(registry, {
      fsm: new StateMachineGate(checkout),
      filter: { exclude: ['admin'] },
    });
    expect(await unknownText(t.client.callTool({ name: 'cart.veiw', arguments: {} }))).toMatchInlineSnapshot(
      `"Unknown tool "cart.veiw". Did you mean "cart.view"? Available tools: cart.add_item, cart.view. Call tools/list to see them."`,
    );
    // cart.pay is hidden in state "empty" and admin.audit is filtered out: no suggestion names them.
    expect(await unknownText(t.client.callTool({ name: 'cart.py', arguments: {} }))).toMatchInlineSnapshot(
      `"Unknown tool "cart.py". Available tools: cart.add_item, cart.view. Call tools/list to see them."`,
    );
    expect(await unknownText(t.client.callTool({ name: 'admin.audt', arguments: {} }))).toMatchInlineSnapshot(
      `"Unknown tool "admin.audt". Available tools: cart.add_item, cart.view. Call tools/list to see them."`,
    );
    await t.setState('payment');
    expect(await unknownText(t.client.callTool({ name: 'cart.py', arguments: {} }))).toMatchInlineSnapshot(
      `"Unknown tool "cart.py". Did you mean "cart.pay"? Available tools: cart.pay, cart.view. Call tools/list to see them."`,
    );
  });

  it('modern: an unknown tool lists the modern surface minus disabled and filtered tools; descriptions read as sentences', async () => {
    const registry = shop();
    const app = createFusionApp(registry, { fsm: new StateMachineGate(checkout), filter: { exclude: ['admin'] } });
    try {
      await using client = await v2FetchClient(app, 'auto');
      registry.disable('cart.view');
      expect(await unknownText(client.callTool({ name: 'nope', arguments: {} }))).toMatchInlineSnapshot(
        `"Unknown tool "nope". Available tools: cart.add_item, cart.pay. Call tools/list to see them."`,
      );
      const described = Object.fromEntries(
        (await client.listTools()).tools.map((tool) => [tool.name, tool.description]),
      );
      expect(described).toMatchInlineSnapshot(`
        {
          "cart.add_item": "Add a product to the cart. Workflow "checkout": works in states empty, has_items. Omit checkout_id to start a new checkout workflow (the result returns it); pass it to continue one. Unused checkout workflows expire after 24 h.",
          "cart.pay": "Pay. Workflow "checkout": works in state payment; pass the checkout_id returned by cart.add_item.",
        }
      `);
    } finally {
      await app.close();
    }
  });

  it('promises subscriptions to workflow and State Sync resources only when the options offer them', async () => {
    const registry = f.registry().registerAll(
      f
        .mutation('cart.add_item')
        .bindState(['empty', 'has_items'], 'ADD_ITEM')
        .handle(() => 'added'),
      f
        .action('sprints.create')
        .invalidates('sprints.*')
        .handle(() => 'created'),
    );
    const describe = async (options: { fsm: StateMachineGate; resourceSubscriptions?: boolean }) => {
      await using t = await createTestClient(registry, options);
      return (await t.client.listResourceTemplates()).resourceTemplates.map((r) => r.description);
    };
    expect(await describe({ fsm: new StateMachineGate(checkout) })).toMatchInlineSnapshot(`
      [
        "The state of one checkout workflow instance: { state, allowed, version, expiresAt }.",
        "The last invalidation of a State Sync pattern (such as sprints.*): { pattern, causedBy, at }.",
      ]
    `);
    expect(await describe({ fsm: new StateMachineGate(checkout), resourceSubscriptions: true })).toMatchInlineSnapshot(`
      [
        "The state of one checkout workflow instance: { state, allowed, version, expiresAt }. Subscribe to it to hear about transitions.",
        "The last invalidation of a State Sync pattern (such as sprints.*): { pattern, causedBy, at }. Subscribe to it to hear when that data changes.",
      ]
    `);
  });
});
