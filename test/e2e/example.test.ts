import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { createFusionApp, type FusionApp } from '../../src/index.js';
import { texts, v2FetchClient } from '../_helpers/clients.js';

/** A modern (2026-07-28) client of the app, optionally authenticated as `sub`. */
async function modernClient(app: FusionApp, sub?: string): Promise<Client & AsyncDisposable> {
  const client = new Client({ name: sub ?? 'anonymous', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  const authInfo =
    sub === undefined
      ? undefined
      : { token: `t-${sub}`, clientId: 'shop-app', scopes: [], extra: { sub, iss: 'https://id.example' } };
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => {
        const request = new Request(url, init);
        request.headers.set('host', '127.0.0.1');
        return app.fetch(request, authInfo === undefined ? {} : { authInfo });
      },
    }),
  );
  expect(client.getProtocolEra?.()).toBe('modern');
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

const json = (result: unknown): any => JSON.parse(texts(result as { content: unknown })[0]!);
const handleOf = (result: unknown): string => {
  const line = texts(result as { content: unknown }).find((t) => t.startsWith('checkout_id: '));
  return line!.slice('checkout_id: '.length).split(' ')[0]!;
};

describe('the workspace example', () => {
  it("modern: two clients never see or empty each other's cart, anonymous or signed in", async () => {
    const app = createFusionApp(registry, workspaceOptions());
    try {
      for (const [a, b] of [
        [undefined, undefined],
        ['alice', 'bob'],
      ] as const) {
        await using alice = await modernClient(app, a);
        await using bob = await modernClient(app, b);
        const added = await alice.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1', quantity: 2 } });
        const aliceCheckout = handleOf(added);
        expect(json(await alice.callTool({ name: 'cart.view', arguments: { checkout_id: aliceCheckout } }))).toEqual({
          items: [{ productId: 'p1', quantity: 2 }],
        });
        // Bob's own checkout is empty; cart.view does not start one (it needs a checkout_id) …
        const bobAdded = await bob.callTool({ name: 'cart.add_item', arguments: { product_id: 'p9' } });
        const bobCheckout = handleOf(bobAdded);
        expect(json(await bob.callTool({ name: 'cart.view', arguments: { checkout_id: bobCheckout } }))).toEqual({
          items: [{ productId: 'p9', quantity: 1 }],
        });
        const noHandle = await bob.callTool({ name: 'cart.view', arguments: {} });
        expect(noHandle.isError).toBe(true);
        expect(texts(noHandle)[0]).toContain('Tool "cart.view" needs checkout_id');
        // … and a signed-in Bob cannot use Alice's checkout_id, to read or to clear it.
        if (b !== undefined) {
          const peek = await bob.callTool({ name: 'cart.view', arguments: { checkout_id: aliceCheckout } });
          expect(peek.isError).toBe(true);
          expect(texts(peek)[0]).toContain(`Unknown or expired checkout_id "${aliceCheckout}"`);
          expect((await bob.callTool({ name: 'cart.clear', arguments: { checkout_id: aliceCheckout } })).isError).toBe(
            true,
          );
        }
        await bob.callTool({ name: 'cart.clear', arguments: { checkout_id: bobCheckout } });
        expect(json(await alice.callTool({ name: 'cart.view', arguments: { checkout_id: aliceCheckout } }))).toEqual({
          items: [{ productId: 'p1', quantity: 2 }],
        });
      }
    } finally {
      await app.close();
    }
  });

  it("legacy: cart.view reads the session's cart in every state, and the session buys again after paying", async () => {
    const app = createFusionApp(registry, workspaceOptions());
    try {
      await using client = await v2FetchClient(app);
      const names = async () =>
        (await client.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith('cart.'));
      expect(await names()).toEqual(['cart.add_item', 'cart.view']);
      await client.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } });
      await client.callTool({ name: 'cart.checkout', arguments: {} });
      expect(await names()).toEqual(['cart.cancel', 'cart.pay', 'cart.view']);
      await client.callTool({ name: 'cart.cancel', arguments: {} });
      expect(await names()).toEqual(['cart.add_item', 'cart.checkout', 'cart.clear', 'cart.view']);
      await client.callTool({ name: 'cart.checkout', arguments: {} });
      expect(json(await client.callTool({ name: 'cart.view', arguments: {} }))).toEqual({
        items: [{ productId: 'p1', quantity: 1 }],
      });
      expect(json(await client.callTool({ name: 'cart.pay', arguments: { payment_method: 'card' } }))).toMatchObject({
        status: 'paid',
      });
      expect(await names()).toEqual(['cart.add_item', 'cart.view']);
      expect(json(await client.callTool({ name: 'cart.view', arguments: {} }))).toEqual({ items: [] });
      await client.callTool({ name: 'cart.add_item', arguments: { product_id: 'p2' } });
      expect(json(await client.callTool({ name: 'cart.view', arguments: {} }))).toEqual({
        items: [{ productId: 'p2', quantity: 1 }],
      });
      expect(await names()).toEqual(['cart.add_item', 'cart.checkout', 'cart.clear', 'cart.view']);
    } finally {
      await app.close();
    }
  });

  it('marks only destructive tools destructive: clearing a cart and removing a user, not adding or paying', async () => {
    const options = workspaceOptions();
    const app = createFusionApp(registry, options);
    // The grouped platform tool is one MCP tool, so the user-removal action makes "platform" destructive.
    const removeUser = 'platform';
    try {
      await using client = await v2FetchClient(app);
      expect((await client.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith('platform'))).toEqual([
        'platform',
      ]);
      const destructive = async () =>
        (await client.listTools()).tools.filter((t) => t.annotations?.destructiveHint === true).map((t) => t.name);
      expect(await destructive()).toEqual([removeUser]);
      await client.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } });
      expect(await destructive()).toEqual(['cart.clear', removeUser]);
      const tools = (await client.listTools()).tools;
      for (const name of ['cart.add_item', 'cart.checkout'])
        expect(tools.find((t) => t.name === name)?.annotations).toMatchObject({
          readOnlyHint: false,
          destructiveHint: false,
        });
      await client.callTool({ name: 'cart.checkout', arguments: {} });
      const atPayment = (await client.listTools()).tools;
      for (const name of ['cart.pay', 'cart.cancel'])
        expect(atPayment.find((t) => t.name === name)?.annotations).toMatchObject({ destructiveHint: false });
    } finally {
      await app.close();
    }
  });
});
