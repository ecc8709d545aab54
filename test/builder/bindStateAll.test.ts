import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { createFusionApp, DefinitionError, initFusion, StateMachineGate, type HandlerExtra } from '../../src/index.js';
import { createTestClient } from '../../src/testing/index.js';
import { texts } from '../_helpers/clients.js';
import { checkout } from '../fsm/fixtures.js';

const f = initFusion();

describe(".bindState('*') and extra.principal", () => {
  it("refuses '*' with an event or beside other states, naming the tool", () => {
    expect(() => f.query('cart.view').bindState('*', 'VIEW')).toThrow(DefinitionError);
    expect(() => f.query('cart.view').bindState('*', 'VIEW')).toThrow(
      'Tool "cart.view" calls .bindState() with "*" and event "VIEW"; "*" (every state, no transition) stands alone: use .bindState(\'*\') for a tool that reads the workflow, or name the states where it sends an event.',
    );
    expect(() => f.query('cart.view').bindState(['*', 'empty'])).toThrow(/with "\*" beside other states/);
  });

  it('legacy: a reader is listed in every state and gets the session as its workflow instance, and the caller as its principal', async () => {
    const seen: Array<Pick<HandlerExtra, 'workflow' | 'principal'>> = [];
    const registry = f.registry().registerAll(
      f
        .action('cart.add_item')
        .bindState(['empty', 'has_items'], 'ADD_ITEM')
        .handle(() => 'added'),
      f
        .action('cart.checkout')
        .bindState('has_items', 'CHECKOUT')
        .handle(() => 'checking out'),
      f
        .mutation('cart.pay')
        .bindState('payment', 'PAY')
        .handle(() => 'paid'),
      f
        .query('cart.view')
        .bindState('*')
        .handle((_input, _ctx, extra) => (seen.push({ workflow: extra.workflow, principal: extra.principal }), 'cart')),
    );
    await using t = await createTestClient(registry, { fsm: new StateMachineGate(checkout) });
    for (const step of ['cart.add_item', 'cart.checkout', 'cart.pay']) {
      expect(await t.listToolNames()).toContain('cart.view');
      expect((await t.call('cart.view')).isError).toBe(false);
      await t.call(step);
    }
    expect(await t.state()).toBe('confirmed');
    expect(await t.listToolNames()).toEqual(['cart.view']);
    expect((await t.call('cart.view')).isError).toBe(false);
    expect(new Set(seen.map((s) => s.workflow?.key)).size).toBe(1);
    expect(seen[0]!.workflow).toMatchObject({ machine: 'checkout', handle: undefined });
    expect(seen[0]!.principal).toMatchObject({ kind: 'anonymous', key: expect.stringMatching(/^a:/) });
  });

  it('modern: a verified user is its principal, the same principal that owns its workflow handles', async () => {
    const principals: string[] = [];
    const registry = f
      .registry()
      .register(
        f.query('who').handle((_input, _ctx, extra) => (principals.push(extra.principal.key), extra.principal.kind)),
      );
    const app = createFusionApp(registry);
    try {
      const call = async (authInfo?: unknown) => {
        const client = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: 'auto' } });
        const fetch = (url: string | URL, init?: RequestInit) => {
          const request = new Request(url, init);
          request.headers.set('host', '127.0.0.1');
          return app.fetch(request, authInfo === undefined ? {} : { authInfo });
        };
        await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch }));
        expect(client.getProtocolEra()).toBe('modern');
        try {
          return texts(await client.callTool({ name: 'who', arguments: {} }))[0];
        } finally {
          await client.close();
        }
      };
      expect(
        await call({ token: 't', clientId: 'app', scopes: [], extra: { sub: 'alice', iss: 'https://id.example' } }),
      ).toBe('user');
      expect(
        await call({ token: 't', clientId: 'app', scopes: [], extra: { sub: 'bob', iss: 'https://id.example' } }),
      ).toBe('user');
      expect(await call()).toBe('anonymous');
      expect(principals.slice(0, 2)).toEqual(['u:["https://id.example","alice"]', 'u:["https://id.example","bob"]']);
      expect(principals[2]).toMatch(/^a:/);
    } finally {
      await app.close();
    }
  });
});
