import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { texts } from '../_helpers/clients.js';
import { messagesOf, openSession, post, request } from '../_helpers/raw.js';
import { uniquePrefix } from './clients.js';
import { roundRobinClient, until, workspaceInstance as instanceOn, type RedisTarget } from './helpers.js';
import { startRedisCluster, type RedisCluster } from './redisCluster.js';

const handleOf = (result: { content?: unknown }) => /checkout_id: (che_[\w-]+)/.exec(texts(result).join('\n'))?.[1];
const names = (list: { tools: Array<{ name: string }> }) => list.tools.map((t) => t.name);

describe.each([
  ['one Redis', 'single'],
  ['a 3-master Redis Cluster', 'cluster'],
] as const)('several instances on %s, in one process', (_name, kind) => {
  let cluster: RedisCluster | undefined;
  let target: RedisTarget;
  beforeAll(async () => {
    if (kind === 'cluster') cluster = await startRedisCluster(3);
    target = cluster === undefined ? undefined : { nodes: cluster.nodes };
  }, 40_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  const workspaceInstance = (prefix: string) => instanceOn(prefix, target);
  it('serve one legacy session round-robin: same tools and state everywhere, list_changed on the GET stream wherever it is open', async () => {
    const prefix = uniquePrefix('inst');
    const instances = await Promise.all([0, 1, 2].map(() => workspaceInstance(prefix)));
    await using client = await roundRobinClient(instances.map((i) => i.app));
    const changed: number[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', () => void changed.push(Date.now()));
    // initialize → 0, notifications/initialized → 1, GET stream → 2: the handshake itself spans instances.
    expect(client.sent.slice(0, 3)).toEqual(['POST→0', 'POST→1', 'GET→2']);
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });

    const first = names(await client.listTools());
    expect(first).toContain('cart.add_item');
    expect(first).not.toContain('cart.checkout');
    expect(names(await client.listTools())).toEqual(first);
    expect(names(await client.listTools())).toEqual(first);
    await client.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } });
    expect(client.sent.at(-1)).toBe('POST→0');
    await until(() => changed.length === 1, 3_000, 'list_changed from another instance');
    for (let i = 0; i < 3; i++) expect(names(await client.listTools())).toContain('cart.checkout');
    const early = await client.callTool({ name: 'cart.pay', arguments: { payment_method: 'card' } });
    expect(texts(early)[0]).toMatch(/^Tool "cart.pay" is not available in the current workflow state "has_items"/);
    await client.listTools();
    await client.callTool({ name: 'cart.checkout', arguments: {} });
    expect(client.sent.at(-1)).toBe('POST→0');
    await until(() => changed.length === 2, 3_000, 'second list_changed');
    expect(names(await client.listTools())).toContain('cart.pay');
    await Promise.all(instances.map((i) => i.close()));
  });

  it('let exactly one of two conflicting calls on two instances run; the other is refused in the new state', async () => {
    const prefix = uniquePrefix('inst');
    const [a, b] = await Promise.all([workspaceInstance(prefix), workspaceInstance(prefix)]);
    const sid = await openSession(a!.app);
    await request(b!.app, sid, 1, 'tools/call', { name: 'cart.add_item', arguments: { product_id: 'p' } });
    const [checkout, clear] = await Promise.all([
      request(a!.app, sid, 2, 'tools/call', { name: 'cart.checkout', arguments: {} }),
      request(b!.app, sid, 3, 'tools/call', { name: 'cart.clear', arguments: {} }),
    ]);
    const outcomes = [checkout, clear].map((r) => (r.message.result.isError === true ? 'refused' : 'ran'));
    expect(outcomes.sort()).toEqual(['ran', 'refused']);
    const refused = [checkout, clear].find((r) => r.message.result.isError === true)!;
    expect(refused.message.result.content[0].text).toMatch(
      /is not available in the current workflow state "(payment|empty)"/,
    );
    await Promise.all([a!.close(), b!.close()]);
  });

  it('end a session everywhere when the client deletes it on one instance', async () => {
    const prefix = uniquePrefix('inst');
    const [a, b] = await Promise.all([workspaceInstance(prefix), workspaceInstance(prefix)]);
    const sid = await openSession(a!.app);
    expect((await request(b!.app, sid, 1, 'tools/list')).status).toBe(200);
    expect(b!.app.sessions.has(sid)).toBe(true);
    const deleted = await a!.app.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'DELETE',
        headers: { host: '127.0.0.1', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' },
      }),
    );
    expect(deleted.status).toBe(200);
    await until(() => !b!.app.sessions.has(sid), 2_000, 'the other instance to drop the session');
    const after = await post(b!.app, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, sid);
    expect(after.status).toBe(404);
    expect(await messagesOf(after)).toEqual([
      {
        jsonrpc: '2.0',
        error: {
          code: -32001,
          message: 'Session not found: it expired or was closed. Start a new session with initialize.',
        },
        id: null,
      },
    ]);
    await Promise.all([a!.close(), b!.close()]);
  });

  it('serve one modern handle on every instance and deliver its resources/updated to a listen stream on another', async () => {
    const prefix = uniquePrefix('inst');
    const instances = await Promise.all([0, 1, 2].map(() => workspaceInstance(prefix)));
    await using client = await roundRobinClient(
      instances.map((i) => i.app),
      'auto',
    );
    expect(client.getProtocolEra()).toBe('modern');
    await using listener = await roundRobinClient([instances[0]!.app], 'auto');
    const updated: string[] = [];
    listener.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));

    const handle = handleOf(await client.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } }))!;
    const uri = `fusion://fsm/checkout/${handle}`;
    const subscription = await listener.listen({ resourceSubscriptions: [uri] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [uri] });
    const paidOn: string[] = [];
    for (const [tool, args] of [
      ['cart.add_item', { product_id: 'p2' }],
      ['cart.checkout', {}],
      ['cart.pay', { payment_method: 'card' }],
    ] as const) {
      const result = await client.callTool({ name: tool, arguments: { ...args, checkout_id: handle } });
      expect(result.isError, texts(result).join('\n')).not.toBe(true);
      paidOn.push(client.sent.at(-1)!);
    }
    expect(new Set(paidOn).size).toBe(3);
    await until(() => updated.length === 2, 3_000, 'resources/updated from other instances');
    expect(updated).toEqual([uri, uri]);
    await subscription.close();
    await Promise.all(instances.map((i) => i.close()));
  });
});
