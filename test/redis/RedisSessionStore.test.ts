import { beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { RedisSessionStore } from '../../src/redis/index.js';
import { ready, redisClient, uniquePrefix } from './clients.js';

describe('RedisSessionStore', () => {
  let client: Redis;
  beforeAll(async () => {
    client = await ready(redisClient());
  });

  it('stores one JSON string per session whose key expires with the TTL', async () => {
    const prefix = uniquePrefix('session');
    const store = new RedisSessionStore({ client, prefix });
    const record = {
      id: 'abc',
      createdAt: 1,
      lastAccessAt: 1,
      phase: 'created' as const,
      initialized: false,
      protocolVersion: '2025-11-25',
      clientInfo: { name: 'c', version: '1' },
      clientCapabilities: {},
    };
    await store.set(record, 30_000);
    expect(JSON.parse((await client.get(`${prefix}{abc}`))!)).toEqual(record);
    const pttl = await client.pttl(`${prefix}{abc}`);
    expect(pttl).toBeGreaterThan(25_000);
    expect(pttl).toBeLessThanOrEqual(30_000);
  });
});
