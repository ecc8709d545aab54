import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { initFusion, jwksVerifier, StateMachineGate, type ServeOptions, type ToolRegistry } from '../../src/index.js';
import { createTestClient } from '../../src/testing/index.js';
import { httpServer, texts } from '../_helpers/clients.js';
import { checkout } from '../fsm/fixtures.js';
import { startIssuer } from './issuer.js';

/** A legacy in-memory connection whose every message carries `scopes` as a verified token would. */
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

/** Admin-only prompt, resource and template, each with values worth hiding; public ones beside them. */
function workspace() {
  const f = initFusion();
  return f.registry().registerAll(
    f.query('notes.list').handle(() => 'notes'),
    f
      .mutation('audit')
      .requireScopes('admin')
      .handle(() => 'audited'),
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
      .mutation('cart.pay')
      .bindState('payment', 'PAY')
      .handle(() => 'paid'),
    f
      .prompt('review')
      .requireScopes('admin')
      .argument('user', { required: true })
      .complete('user', () => ['root-admin', 'root-backup'])
      .handle(({ user }) => `review ${user}`),
    f
      .prompt('hello')
      .argument('name', { required: true })
      .complete('name', () => ['ana'])
      .handle(({ name }) => `hi ${name}`),
    f
      .resource('workspace://secrets')
      .requireScopes('admin')
      .handle(() => 'secret'),
    f.resource('workspace://readme').handle(() => 'readme'),
    f
      .resourceTemplate('vault://{id}')
      .requireScopes('admin')
      .complete('id', () => ['master-key'])
      .handle((uri) => `vault ${uri}`),
  );
}

const HIDDEN = /audit|review|workspace:\/\/secrets|vault:\/\/|cart\.checkout|root-admin|master-key/;

describe('every method obeys scopes, and no error names what the caller may not see', () => {
  it('refuses completion of a scoped prompt or template as prompts/get and resources/read refuse them', async () => {
    const registry = workspace();
    await using reader = await connectAs(registry, ['notes:read']);
    await using admin = await connectAs(registry, ['admin']);
    await expect(reader.getPrompt({ name: 'review', arguments: { user: 'x' } })).rejects.toThrow(
      'insufficient_scope: prompt "review" needs the scope admin; the access token lacks admin.',
    );
    await expect(
      reader.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'user', value: 'root' } }),
    ).rejects.toThrow('insufficient_scope: prompt "review" needs the scope admin; the access token lacks admin.');
    // A hidden template completes as an unknown one: its existence is not told.
    const complete = (uri: string) =>
      reader.complete({ ref: { type: 'ref/resource', uri }, argument: { name: 'id', value: 'm' } }).then(
        () => 'served',
        (e: Error) => e.message,
      );
    const [hiddenTemplate, missingTemplate] = await Promise.all([complete('vault://{id}'), complete('safe://{id}')]);
    expect(hiddenTemplate).toMatch(/No resource template "vault:\/\/\{id\}" to complete/);
    expect(hiddenTemplate.replace('vault', '?')).toBe(missingTemplate.replace('safe', '?'));
    expect(
      (await reader.complete({ ref: { type: 'ref/prompt', name: 'hello' }, argument: { name: 'name', value: 'a' } }))
        .completion.values,
    ).toEqual(['ana']);
    expect(
      (await admin.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'user', value: 'root' } }))
        .completion.values,
    ).toEqual(['root-admin', 'root-backup']);
    expect(
      (
        await admin.complete({
          ref: { type: 'ref/resource', uri: 'vault://{id}' },
          argument: { name: 'id', value: 'm' },
        })
      ).completion.values,
    ).toEqual(['master-key']);
  });

  it('refuses resources/subscribe of a scope-hidden resource as of a missing one, and accepts it with the scope', async () => {
    const registry = workspace();
    await using reader = await connectAs(registry, [], { resourceSubscriptions: true });
    await using admin = await connectAs(registry, ['admin'], { resourceSubscriptions: true });
    const subscribe = (uri: string) =>
      reader.subscribeResource({ uri }).then(
        () => 'served',
        (e: Error) => e.message,
      );
    const [hidden, missing] = await Promise.all([subscribe('workspace://secrets'), subscribe('workspace://absent')]);
    expect(hidden).toMatch(/Resource not found: workspace:\/\/secrets\./);
    expect(hidden.replace('secrets', '?')).toBe(missing.replace('absent', '?'));
    await expect(reader.subscribeResource({ uri: 'vault://7' })).rejects.toThrow('Resource not found: vault://7.');
    await expect(reader.subscribeResource({ uri: 'workspace://readme' })).resolves.toBeDefined();
    await expect(admin.subscribeResource({ uri: 'workspace://secrets' })).resolves.toBeDefined();
  });

  it('lists only visible prompts, resources and templates in not-found answers', async () => {
    const registry = workspace();
    await using reader = await connectAs(registry, []);
    const errors = await Promise.all([
      reader.getPrompt({ name: 'nope' }).then(
        () => '',
        (e: Error) => e.message,
      ),
      reader.readResource({ uri: 'workspace://nope' }).then(
        () => '',
        (e: Error) => e.message,
      ),
      reader.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: '' } }).then(
        () => '',
        (e: Error) => e.message,
      ),
      reader.complete({ ref: { type: 'ref/resource', uri: 'nope://{x}' }, argument: { name: 'x', value: '' } }).then(
        () => '',
        (e: Error) => e.message,
      ),
    ]);
    expect(errors[0]).toContain('Unknown prompt "nope". Available prompts: hello.');
    expect(errors[1]).toContain(
      'Resource not found: "workspace://nope". Known resources: workspace://readme; templates: fusion://fsm/checkout/{handle}.',
    );
    expect(errors[3]).toContain(
      'No resource template "nope://{x}" to complete. Templates: fusion://fsm/checkout/{handle}.',
    );
    for (const message of errors) expect(message).not.toMatch(HIDDEN);
  });

  it('names only tools the caller may see in workflow refusals and Next lines', async () => {
    const registry = workspace();
    const options = { fsm: new StateMachineGate(checkout) };
    await using browser = await connectAs(registry, [], options);
    await using shopper = await connectAs(registry, ['shop'], options);
    const added = texts(await browser.callTool({ name: 'cart.add_item', arguments: {} }));
    expect(added.at(-1)).toBe('Workflow "checkout" is now in state "has_items". Next: cart.add_item.');
    const refused = texts(await browser.callTool({ name: 'cart.pay', arguments: {} }));
    expect(refused[0]).toBe(
      'Tool "cart.pay" is not available in the current workflow state "has_items" (workflow "checkout"). It works in: payment. No sequence of calls from this state makes it available. Available now: notes.list, cart.add_item.',
    );
    for (const text of [...added, ...refused]) expect(text).not.toMatch(HIDDEN);
    const shopperAdded = texts(await shopper.callTool({ name: 'cart.add_item', arguments: {} }));
    expect(shopperAdded.at(-1)).toBe(
      'Workflow "checkout" is now in state "has_items". Next: cart.add_item, cart.checkout.',
    );
  });
});

describe('completion over HTTP: the same 403 scope challenge as prompts/get, in both eras', () => {
  for (const mode of ['legacy', 'auto'] as const) {
    it(`${mode}: completion of an admin-only prompt is a 403; a hidden resource reads as a missing one`, async () => {
      const { createServer } = await import('node:net');
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const port = (probe.address() as { port: number }).port;
      await new Promise((resolve) => probe.close(resolve));
      await using issuer = await startIssuer(`http://127.0.0.1:${port}/mcp`);
      await using srv = await httpServer(workspace(), {
        fsm: new StateMachineGate(checkout),
        port,
        resourceSubscriptions: true,
        auth: {
          verifier: jwksVerifier({
            jwksUrl: issuer.jwksUrl,
            issuer: issuer.issuer,
            audience: `http://127.0.0.1:${port}/mcp`,
          }),
        },
      });
      const statuses: number[] = [];
      const client = new Client(
        { name: 'scopes', version: '1.0.0' },
        mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {},
      );
      const token = await issuer.token({ sub: 'alice', scope: 'notes:read' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(srv.url), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
          fetch: async (u, init) => {
            const response = await fetch(u, init);
            statuses.push(response.status);
            return response;
          },
        }),
      );
      const completion = await client
        .complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'user', value: 'root' } })
        .then(
          (r) => r,
          (e: Error) => e,
        );
      expect(completion).toBeInstanceOf(Error);
      expect(statuses.at(-1)).toBe(403);
      // A hidden resource reads as a missing one (no challenge, same text): its existence cannot be probed.
      const read = (uri: string) =>
        client.readResource({ uri }).then(
          () => 'served',
          (e: Error) => e.message,
        );
      const hiddenRead = await read('workspace://secrets');
      expect(statuses.at(-1)).toBe(200);
      const missingRead = await read('workspace://absent');
      expect(hiddenRead).toMatch(/Resource not found: "workspace:\/\/secrets"/);
      expect(hiddenRead.replace('secrets', '?')).toBe(missingRead.replace('absent', '?'));
      if (mode === 'legacy') {
        // A hidden resource is not challenged (that would tell it exists): it answers as a missing one.
        await expect(client.subscribeResource({ uri: 'workspace://secrets' })).rejects.toThrow(/Resource not found/);
        expect(statuses.at(-1)).toBe(200);
      }
      await client.close();
    });
  }
});
