import type { AuthInfo } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { initFusion, StateMachineGate } from '../../src/index.js';
import { createTestClient } from '../../src/testing/index.js';
import { checkout } from '../fsm/fixtures.js';

/** A checkout whose `cart.checkout` needs the `shop` scope, served with handles in both eras. */
function shop() {
  const f = initFusion();
  return f.registry().registerAll(
    f
      .mutation('cart.add_item')
      .bindState(['empty', 'has_items'], 'ADD_ITEM')
      .handle(() => 'added'),
    f
      .mutation('cart.checkout')
      .bindState('has_items', 'CHECKOUT')
      .requireScopes('shop')
      .handle(() => 'checked out'),
    f
      .mutation('cart.clear')
      .bindState('has_items', 'CLEAR')
      .requireScopes('admin')
      .handle(() => 'cleared'),
  );
}

async function connectAs(scopes: string[]) {
  const authInfo: AuthInfo = { token: 't', clientId: 'app', scopes, extra: { sub: 'alice' } };
  const fsm = new StateMachineGate({ ...checkout, legacy: 'handle' });
  return createTestClient(shop(), { fsm, authInfo });
}

type WorkflowMeta = { 'fusion/workflow'?: { handle?: string; allowed?: string[] } };

describe('what a workflow names as allowed, by the caller’s scopes', () => {
  it('never names a tool the caller’s scopes hide: not in a result’s _meta, not in the instance resource', async () => {
    for (const [scopes, expected] of [
      [[], ['cart.add_item']],
      [['shop'], ['cart.add_item', 'cart.checkout']],
      [
        ['shop', 'admin'],
        ['cart.add_item', 'cart.checkout', 'cart.clear'],
      ],
    ] as const) {
      const t = await connectAs([...scopes]);
      const added = await t.client.callTool({ name: 'cart.add_item', arguments: {} });
      const meta = (added._meta as WorkflowMeta)['fusion/workflow'];
      expect(meta?.allowed, JSON.stringify(scopes)).toEqual(expected);
      // The gate's own view agrees: every tool bound to has_items, before the scopes narrow it.
      expect(
        new StateMachineGate(checkout).visibleIn('has_items', ['cart.add_item', 'cart.checkout', 'cart.clear']),
      ).toEqual(['cart.add_item', 'cart.checkout', 'cart.clear']);
      const read = await t.client.readResource({ uri: `fusion://fsm/checkout/${meta!.handle!}` });
      const body = JSON.parse((read.contents[0] as { text: string }).text) as { state: string; allowed: string[] };
      expect(body).toMatchObject({ state: 'has_items', allowed: expected });
      await t.close();
    }
  });
});
