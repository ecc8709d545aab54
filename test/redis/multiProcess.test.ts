import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startRedisCluster, type RedisCluster } from './redisCluster.js';
import { texts } from '../_helpers/clients.js';
import { uniquePrefix } from './clients.js';
import { until } from './helpers.js';
import { balancedClient, startInstance, type Instance } from './processes.js';

const handleOf = (result: { content?: unknown }) => /checkout_id: (che_[\w-]+)/.exec(texts(result).join('\n'))?.[1];
const names = (list: { tools: Array<{ name: string }> }) => list.tools.map((t) => t.name);

describe.each([
  ['one Redis (REDIS_URL)', 'single'],
  ['a 3-master Redis Cluster (REDIS_CLUSTER_NODES)', 'cluster'],
] as const)('three example-server processes on %s', (_name, kind) => {
  let instances: Instance[] = [];
  let cluster: RedisCluster | undefined;
  beforeAll(async () => {
    const prefix = uniquePrefix('procs');
    if (kind === 'cluster') cluster = await startRedisCluster(3);
    const target = cluster === undefined ? inject('redisUrl') : { cluster: cluster.spec };
    instances = await Promise.all([0, 1, 2].map(() => startInstance(target, prefix)));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.kill()));
    await cluster?.stop();
  });

  it('serve one legacy session and one modern handle round-robin, deliver notifications across processes, and survive a killed instance', async () => {
    const [a, b, c] = instances as [Instance, Instance, Instance];
    const live = [a.port, b.port, c.port];
    // Legacy: initialize and the GET stream land on A (the instance killed later); then round-robin.
    const legacy = await balancedClient(live, { route: [a.port, b.port, a.port] });
    const listChanged: number[] = [];
    legacy.setNotificationHandler('notifications/tools/list_changed', () => void listChanged.push(Date.now()));
    expect(legacy.sent.slice(0, 3)).toEqual([
      { method: 'POST', port: a.port },
      { method: 'POST', port: b.port },
      { method: 'GET', port: a.port },
    ]);
    // Modern: the handle is minted on A; a listen stream for it is open on B.
    const modern = await balancedClient(live, { mode: 'auto', route: [a.port, a.port] });
    expect(modern.getProtocolEra()).toBe('modern');
    const listener = await balancedClient([b.port], { mode: 'auto' });
    const updated: string[] = [];
    listener.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));

    const visible = [names(await legacy.listTools()), names(await legacy.listTools()), names(await legacy.listTools())];
    expect(new Set(legacy.sent.slice(-3).map((s) => s.port)).size).toBe(3);
    expect(visible[1]).toEqual(visible[0]);
    expect(visible[2]).toEqual(visible[0]);
    expect(visible[0]).toContain('cart.add_item');
    expect(visible[0]).not.toContain('cart.checkout');
    await legacy.listTools();
    await legacy.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } });
    expect(legacy.sent.at(-1)!.port).not.toBe(a.port);
    await until(() => listChanged.length === 1, 5_000, 'list_changed raised on another process');

    const added = await modern.callTool({ name: 'cart.add_item', arguments: { product_id: 'm1' } });
    expect(modern.sent.at(-1)!.port).toBe(a.port);
    const handle = handleOf(added)!;
    const uri = `fusion://fsm/checkout/${handle}`;
    const subscription = await listener.listen({ resourceSubscriptions: [uri] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [uri] });
    const checkedOut = await modern.callTool({ name: 'cart.checkout', arguments: { checkout_id: handle } });
    expect(checkedOut.isError, texts(checkedOut).join('\n')).not.toBe(true);
    expect(modern.sent.at(-1)!.port).not.toBe(b.port);
    await until(() => updated.length === 1, 5_000, 'resources/updated raised on another process').catch((error) => {
      throw new Error(`${(error as Error).message}; instance logs:\n${instances.map((i) => i.log()).join('\n---\n')}`);
    });

    // A dies: it created the legacy session, holds its GET stream and minted the handle.
    await a.kill();
    live.splice(live.indexOf(a.port), 1);
    await until(
      () => legacy.sent.filter((s) => s.method === 'GET').length >= 2,
      10_000,
      'the client to reopen its GET stream elsewhere',
    );
    for (let i = 0; i < 2; i++) expect(names(await legacy.listTools())).toContain('cart.checkout');
    await legacy.callTool({ name: 'cart.checkout', arguments: {} });
    await until(() => listChanged.length === 2, 5_000, 'list_changed on the reopened GET stream');
    expect(names(await legacy.listTools())).toContain('cart.pay');
    const pays = await Promise.all(
      [0, 1, 2, 3].map(() => legacy.callTool({ name: 'cart.pay', arguments: { payment_method: 'card' } })),
    );
    expect(pays.filter((r) => r.isError !== true)).toHaveLength(1);
    for (const refused of pays.filter((r) => r.isError === true))
      expect(texts(refused)[0]).toMatch(/current workflow state "confirmed"/);

    const paid = await modern.callTool({
      name: 'cart.pay',
      arguments: { payment_method: 'card', checkout_id: handle },
    });
    expect(texts(paid).at(-1)).toBe('Workflow "checkout" is now in state "confirmed". Next: cart.add_item, cart.view.');
    const again = await modern.callTool({
      name: 'cart.pay',
      arguments: { payment_method: 'card', checkout_id: handle },
    });
    expect(texts(again)[0]).toMatch(/^Tool "cart.pay" is not available in the current workflow state "confirmed"/);
    expect(new Set(modern.sent.slice(-2).map((s) => s.port))).toEqual(new Set([b.port, c.port]));
    await until(() => updated.length === 2, 5_000, 'resources/updated after the kill');
    expect(updated).toEqual([uri, uri]);

    await subscription.close();
    await Promise.all([legacy.close(), modern.close(), listener.close()]);
    for (const survivor of [b, c]) expect(survivor.proc.exitCode).toBeNull();
  }, 60_000);
});
