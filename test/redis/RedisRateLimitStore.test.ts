import { describe, expect, it } from 'vitest';
import { initFusion } from '../../src/index.js';
import { RedisRateLimitStore } from '../../src/redis/index.js';
import { createTestClient } from '../../src/testing/index.js';
import { texts } from '../_helpers/clients.js';
import { ready, redisClient, uniquePrefix } from './clients.js';
import { startRedisServer } from './redisServer.js';

describe('RedisRateLimitStore', () => {
  it('keeps one key per counter under its prefix, with the window as its expiry', async () => {
    const client = await ready(redisClient());
    const prefix = uniquePrefix('rl');
    const store = new RedisRateLimitStore({ client, prefix });
    await store.hit('server:u:["https://id.example","alice"]', 30_000);
    await store.hit('server:u:["https://id.example","alice"]', 30_000);
    const keys = await client.keys(`${prefix}*`);
    expect(keys).toEqual([`${prefix}server:u:["https://id.example","alice"]`]);
    expect(await client.get(keys[0]!)).toBe('2');
    const ttl = await client.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });

  it('refuses calls with a retry hint while Redis is down, and counts again once it is back', async () => {
    const server = await startRedisServer();
    try {
      const client = await ready(redisClient(server.url));
      const f = initFusion();
      const registry = f.registry().registerAll(f.query('notes.list').handle(() => 'notes'));
      await using t = await createTestClient(registry, {
        rateLimit: { max: 5, windowMs: 60_000 },
        rateLimitStore: new RedisRateLimitStore({ client, prefix: uniquePrefix('rl-down') }),
      });
      expect(texts(await t.callTool('notes.list'))).toEqual(['notes']);
      await server.stop();
      const refused = await t.callTool('notes.list');
      expect(refused.isError).toBe(true);
      expect(texts(refused)[0]).toMatch(
        /^Tool "notes.list" was not run: the rate-limit store is unavailable \(.+\), so the call could not be counted\. Nothing was done; try again in a few seconds\.$/,
      );
      await server.start();
      await ready(client);
      expect(texts(await t.callTool('notes.list'))).toEqual(['notes']);
    } finally {
      await server.stop();
    }
  });
});
