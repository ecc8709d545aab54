import { describe, expect, inject, it } from 'vitest';
import { uniquePrefix } from './clients.js';
import { roundRobinProxy } from './_roundRobinProxy.js';
import { retryingClient, type RetryingClient } from './_retryingClient.js';
import { spawnServer, type ServerProcess } from '../server/_serverProcess.js';

type State = 'has_items' | 'payment';

/**
 * One client walking its checkout back and forth (add an item, then checkout / cancel forever) until `stop`;
 * `state` is what its successful transitions imply. A modern client names its workflow by the handle the
 * first call minted (checkout_id); a legacy one by its session.
 */
function walker(client: RetryingClient, era: 'legacy' | 'modern') {
  const walk = {
    client,
    era,
    handle: undefined as string | undefined,
    state: undefined as State | undefined,
    transitions: 0,
    stop: false,
    done: Promise.resolve(),
  };
  const withHandle = (args: Record<string, unknown> = {}) =>
    walk.handle === undefined ? args : { ...args, checkout_id: walk.handle };
  walk.done = (async () => {
    const added = await client.call('cart.add_item', withHandle({ product_id: `p-${era}` }));
    if (era === 'modern') walk.handle = /checkout_id: (che_[\w-]+)/.exec(added)?.[1];
    walk.state = 'has_items';
    walk.transitions++;
    while (!walk.stop) {
      await client.call(walk.state === 'has_items' ? 'cart.checkout' : 'cart.cancel', withHandle());
      walk.state = walk.state === 'has_items' ? 'payment' : 'has_items';
      walk.transitions++;
    }
  })();
  return walk;
}

/** A client generating sprint reports (1.6 s each, inline) until `stop`: calls that a drain must let finish. */
function reporter(client: RetryingClient) {
  const run = { client, reports: 0, stop: false, done: Promise.resolve() };
  run.done = (async () => {
    while (!run.stop) {
      expect(await client.call('reports.generate', { sprint_id: 's1', pages: 8 })).toMatch(/^Report of .*: 8 pages/);
      run.reports++;
    }
  })();
  return run;
}

/** Resolves once every walker made `n` more transitions than now (rejects as soon as one failed). */
async function progress(walks: Array<ReturnType<typeof walker>>, n: number): Promise<void> {
  const target = walks.map((w) => w.transitions + n);
  const failed = Promise.race(walks.map((w) => w.done.then(() => new Promise<never>(() => {}))));
  while (walks.some((w, i) => w.transitions < target[i]!))
    await Promise.race([failed, new Promise((resolve) => setTimeout(resolve, 20))]);
}

describe('a rolling restart of two instances on one Redis, behind a round-robin proxy', () => {
  it('loses no call (only 503s, retried) and no workflow state, in both eras', async () => {
    const env = { REDIS_URL: inject('redisUrl'), REDIS_PREFIX: uniquePrefix('rolling') };
    const instances: ServerProcess[] = await Promise.all([
      spawnServer('examples/workspace/main.ts', env),
      spawnServer('examples/workspace/main.ts', env),
    ]);
    await using proxy = await roundRobinProxy(instances.map((i) => i.port));
    try {
      const clients = await Promise.all(
        [0, 1, 2, 3, 4, 5].map((i) => retryingClient(proxy.url, i < 3 ? 'legacy' : 'auto')),
      );
      const walks = clients.map((c, i) => walker(c, i < 3 ? 'legacy' : 'modern'));
      const reporters = (
        await Promise.all([retryingClient(proxy.url, 'legacy'), retryingClient(proxy.url, 'auto')])
      ).map(reporter);
      await progress(walks, 4);
      for (const [i, old] of instances.entries()) {
        // Stop it while a report runs there: its drain takes a while, and the walkers meet it.
        while (!proxy.open(old.port).some((body) => body.includes('"reports.generate"')))
          await Promise.race([...reporters.map((r) => r.done), new Promise((resolve) => setTimeout(resolve, 10))]);
        old.signal('SIGTERM');
        const exit = await old.exited;
        expect(exit.code, old.stderr()).toBe(0);
        instances[i] = await spawnServer('examples/workspace/main.ts', { ...env, PORT: String(old.port) });
        await progress(walks, 3);
      }
      for (const w of [...walks, ...reporters]) w.stop = true;
      await Promise.all([...walks, ...reporters].map((w) => w.done));

      // The state each workflow is in is the one its successful transitions imply.
      for (const w of walks) {
        if (w.era === 'legacy') {
          const names = await w.client.names();
          expect(names).toContain(w.state === 'payment' ? 'cart.pay' : 'cart.checkout');
          expect(names).not.toContain(w.state === 'payment' ? 'cart.checkout' : 'cart.pay');
        } else {
          expect(w.handle).toMatch(/^che_/);
          expect(JSON.parse(await w.client.read(`fusion://fsm/checkout/${w.handle}`))).toMatchObject({
            state: w.state,
          });
        }
      }
      // The restarts happened under load: the draining instances told clients to retry, and the reports ran on.
      expect(walks.every((w) => w.transitions >= 10)).toBe(true);
      expect(clients.reduce((n, c) => n + c.stats.retried, 0)).toBeGreaterThan(0);
      expect(reporters.every((r) => r.reports >= 2)).toBe(true);
      await Promise.allSettled([...clients, ...reporters.map((r) => r.client)].map((c) => c.close()));
    } finally {
      await Promise.all(instances.map((i) => i[Symbol.asyncDispose]()));
    }
  }, 60_000);
});
