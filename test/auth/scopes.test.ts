import type { Client } from '@modelcontextprotocol/client';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { initFusion, StateMachineGate, type ServeOptions, type ToolRegistry } from '../../src/index.js';
import { detachedExtra } from '../../src/advanced/index.js';
import { createTestClient } from '../../src/testing/index.js';
import { texts } from '../_helpers/clients.js';
import { checkout } from '../fsm/fixtures.js';

/** A legacy in-memory connection (no HTTP) whose every message carries `scopes` as a verified token would. */
async function connectAs<Ctx>(
  registry: ToolRegistry<Ctx>,
  scopes: string[],
  options: ServeOptions<Ctx> = {},
): Promise<Client & AsyncDisposable> {
  const authInfo: AuthInfo = {
    token: 't',
    clientId: 'app',
    scopes,
    expiresAt: Math.floor(Date.now() / 1000) + 60,
    extra: { sub: `user-${scopes.join('+')}`, iss: 'https://id.example' },
  };
  // The workspace binds cart tools to the checkout workflow, so every connection serves its gate.
  const t = await createTestClient(registry, { fsm: new StateMachineGate(checkout), ...options, authInfo });
  return Object.assign(t.client, { [Symbol.asyncDispose]: () => t.close() });
}

function workspace() {
  const f = initFusion();
  const registry = f.registry().registerAll(
    f
      .query('notes.list')
      .tags('notes')
      .handle(() => 'notes'),
    f
      .mutation('notes.delete')
      .tags('notes')
      .withString('id')
      .requireScopes('notes:write')
      .handle(({ id }) => `deleted ${id}`),
    f
      .mutation('billing.refund')
      .tags('billing')
      .requireScopes('billing', 'admin')
      .handle(() => 'refunded'),
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
      .prompt('audit')
      .requireScopes('admin')
      .handle(() => 'audit everything'),
    f.prompt('hello').handle(() => 'hi'),
    f
      .resource('workspace://secrets')
      .requireScopes('admin')
      .handle(() => 'secret'),
    f.resource('workspace://readme').handle(() => 'readme'),
  );
  return registry;
}

describe('per-item scopes without HTTP', () => {
  it('lists only what the scopes allow and refuses a call of anything else with an isError naming the missing scopes', async () => {
    const registry = workspace();
    await using reader = await connectAs(registry, ['notes:read']);
    expect((await reader.listTools()).tools.map((t) => t.name)).toEqual(['notes.list', 'cart.add_item']);
    const refused = await reader.callTool({ name: 'billing.refund', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(texts(refused)).toEqual([
      'insufficient_scope: "billing.refund" needs the scopes billing admin; the access token lacks billing admin. Ask the user to authorize these scopes (a new token with scope="billing admin"), or continue without this tool.',
    ]);
    expect(refused._meta).toEqual({
      'fusion/insufficientScope': { required: ['billing', 'admin'], missing: ['billing', 'admin'] },
    });

    await using partial = await connectAs(registry, ['billing']);
    const stillRefused = await partial.callTool({ name: 'billing.refund', arguments: {} });
    expect(stillRefused._meta).toEqual({
      'fusion/insufficientScope': { required: ['billing', 'admin'], missing: ['admin'] },
    });

    // cart.checkout needs "shop" and the "has_items" state: a new session starts in "empty".
    await using admin = await connectAs(registry, ['notes:write', 'billing', 'admin', 'shop']);
    expect((await admin.listTools()).tools.map((t) => t.name)).toEqual([
      'notes.list',
      'notes.delete',
      'billing.refund',
      'cart.add_item',
    ]);
    expect(texts(await admin.callTool({ name: 'notes.delete', arguments: { id: 'n1' } }))).toEqual(['deleted n1']);
  });

  it('composes with the FSM gate (visible = allowed and in state) and with tag filters', async () => {
    const registry = workspace();
    const options = { fsm: new StateMachineGate(checkout), filter: { exclude: ['billing'] } };
    await using shopper = await connectAs(registry, ['shop'], options);
    await using browser = await connectAs(registry, [], options);
    expect((await shopper.listTools()).tools.map((t) => t.name)).toEqual(['notes.list', 'cart.add_item']);
    await shopper.callTool({ name: 'cart.add_item', arguments: {} });
    await browser.callTool({ name: 'cart.add_item', arguments: {} });
    expect((await shopper.listTools()).tools.map((t) => t.name)).toEqual([
      'notes.list',
      'cart.add_item',
      'cart.checkout',
    ]);
    expect((await browser.listTools()).tools.map((t) => t.name)).toEqual(['notes.list', 'cart.add_item']);
    expect((await browser.callTool({ name: 'cart.checkout', arguments: {} })).isError).toBe(true);
  });

  it('lists prompts and resources by scope; a hidden prompt is insufficient_scope, a hidden resource reads as missing', async () => {
    const registry = workspace();
    await using reader = await connectAs(registry, []);
    await using admin = await connectAs(registry, ['admin']);
    expect((await reader.listPrompts()).prompts.map((p) => p.name)).toEqual(['hello']);
    expect((await admin.listPrompts()).prompts.map((p) => p.name)).toEqual(['audit', 'hello']);
    // The checkout's skill (SEP-2640) is listed after the registry's resources, to both: cart.add_item needs no scope.
    expect((await reader.listResources()).resources.map((r) => r.uri)).toEqual([
      'workspace://readme',
      'skill://checkout-workflow/SKILL.md',
    ]);
    expect((await admin.listResources()).resources.map((r) => r.uri)).toEqual([
      'workspace://secrets',
      'workspace://readme',
      'skill://checkout-workflow/SKILL.md',
    ]);
    await expect(reader.getPrompt({ name: 'audit' })).rejects.toThrow(
      'insufficient_scope: prompt "audit" needs the scope admin; the access token lacks admin.',
    );
    // A URI can name data: a caller who may not read it cannot tell it from one that does not exist.
    const hidden = await reader.readResource({ uri: 'workspace://secrets' }).then(
      () => 'served',
      (e: Error) => e.message,
    );
    const missing = await reader.readResource({ uri: 'workspace://absent' }).then(
      () => 'served',
      (e: Error) => e.message,
    );
    expect(hidden).toMatch(/Resource not found: "workspace:\/\/secrets"/);
    expect(hidden.replace('secrets', '?')).toBe(missing.replace('absent', '?'));
    expect((await admin.readResource({ uri: 'workspace://secrets' })).contents[0]).toMatchObject({ text: 'secret' });
  });

  it('names only the tools and actions the caller may see in unknown-tool and unknown-action answers', async () => {
    const f = initFusion();
    const admin = f
      .tool('admin')
      .action({ name: 'stats', readOnly: true, handler: () => 'stats' })
      .action({ name: 'purge', destructive: true, requireScopes: ['admin'], handler: () => 'purged' });
    const registry = f.registry().registerAll(
      admin,
      f
        .query('secret.list')
        .requireScopes('admin')
        .handle(() => []),
    );
    await using reader = await connectAs(registry, [], { toolExposition: 'grouped' });
    expect(texts(await reader.callTool({ name: 'admin', arguments: { action: 'nope' } }))).toEqual([
      'Tool "admin" was called with "action": "nope". Valid values of "action": stats. Call "admin" again with one of them.',
    ]);
    await expect(reader.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(
      'Unknown tool "nope". Available tools: admin. Call tools/list to see them.',
    );
    // "secret.lst" is one edit from "secret.list", which this caller may not see: it is never suggested.
    await expect(reader.callTool({ name: 'secret.lst', arguments: {} })).rejects.toThrow(
      'Unknown tool "secret.lst". Available tools: admin. Call tools/list to see them.',
    );
    await expect(reader.callTool({ name: 'admn', arguments: {} })).rejects.toThrow(
      'Unknown tool "admn". Did you mean "admin"? Available tools: admin. Call tools/list to see them.',
    );
  });

  it('builds each list once per distinct set of relevant scopes and state, and shares it between principals', async () => {
    const pipeline = workspace().runtime({ fsm: new StateMachineGate(checkout) }).tools;
    const scopeOf = (sub: string, scopes: string[]) => ({
      sessionKey: `session-${sub}`,
      extra: detachedExtra({ authInfo: { token: 't', clientId: 'app', scopes, extra: { sub } } }),
    });
    const alice = await pipeline.listTools(scopeOf('alice', ['notes:write', 'unrelated']));
    const bob = await pipeline.listTools(scopeOf('bob', ['notes:write']));
    const carol = await pipeline.listTools(scopeOf('carol', []));
    expect(bob).toBe(alice);
    expect(carol).not.toBe(alice);
    expect(alice.tools.map((t) => t.name)).toEqual(['notes.list', 'notes.delete', 'cart.add_item']);
    expect(Object.isFrozen(alice)).toBe(true);
  });

  it('refuses a scope that is not an OAuth scope token when the tool is built', () => {
    const f = initFusion();
    expect(() => f.query('x').requireScopes('has space')).toThrow(
      'Tool "x" requires the scope "has space", which is not an OAuth scope token; use printable ASCII without spaces, quotes or backslashes, e.g. "notes:write".',
    );
  });
});
