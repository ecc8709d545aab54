import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { texts } from '../_helpers/clients.js';
import { uniquePrefix } from './clients.js';
import { balancedClient, startInstance, type Instance } from './processes.js';

describe('a rate limit shared by two example-server processes on one Redis', () => {
  let instances: Instance[] = [];
  beforeAll(async () => {
    const prefix = uniquePrefix('limits');
    instances = await Promise.all([0, 1].map(() => startInstance(inject('redisUrl'), prefix, { RATE_LIMIT: '3/60' })));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.kill()));
  });

  it('counts the calls of one anonymous peer on every instance together and refuses the fourth wherever it lands', async () => {
    const ports = instances.map((i) => i.port);
    const client = await balancedClient(ports, { peer: '127.0.0.2' });
    const other = await balancedClient(ports, { peer: '127.0.0.3' });
    try {
      const results = [];
      for (let i = 0; i < 4; i++) results.push(await client.callTool({ name: 'sprints.list', arguments: {} }));
      const calls = client.sent.filter((s) => s.method === 'POST').slice(-4);
      expect(new Set(calls.map((s) => s.port)).size, 'the four calls were spread over both processes').toBe(2);
      expect(results.slice(0, 3).map((r) => r.isError === true)).toEqual([false, false, false]);
      expect(results[3]!.isError).toBe(true);
      expect(texts(results[3]!)[0]).toMatch(
        /^Tool "sprints.list" was not run: rate limit reached \(3 tool calls per 60 s for this network address, every session from it together\)\. Retry after (59|60) s; nothing was done\.$/,
      );
      expect((results[3]!._meta as Record<string, number>)['fusion/retryAfterMs']).toBeGreaterThan(50_000);
      expect(
        (await other.callTool({ name: 'sprints.list', arguments: {} })).isError,
        'another peer counts apart',
      ).not.toBe(true);
    } finally {
      await Promise.all([client.close(), other.close()]);
    }
  });
});
