import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import { failFastRedisOptions, RedisFsmStore } from '../../src/redis/index.js';
import { ready, uniquePrefix } from './clients.js';
import { startRedisServer, type RedisServer } from './redisServer.js';

describe('a Redis stall (the server stops answering, then resumes)', () => {
  let redis: RedisServer;
  let pid: number;
  let admin: Redis;
  beforeAll(async () => {
    redis = await startRedisServer();
    admin = await ready(new Redis(redis.url));
    pid = Number(/process_id:(\d+)/.exec(await admin.info('server'))![1]);
  });
  afterAll(async () => {
    process.kill(pid, 'SIGCONT');
    admin?.disconnect();
    await redis?.stop();
  });

  it('frees a lock whose command timed out as soon as Redis answers again, not after the lease', async () => {
    const client = await ready(new Redis(redis.url, failFastRedisOptions({ commandTimeout: 300 })));
    client.on('error', () => {});
    const prefix = uniquePrefix('stall');
    const store = new RedisFsmStore({ client, prefix, lockLeaseMs: 5_000 });
    process.kill(pid, 'SIGSTOP');
    try {
      await expect(store.acquire('k', { waitMs: 1_000 })).rejects.toThrow(/Redis did not answer in time/);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    // The queued lock script ran late, and the release queued behind it ran right after.
    const started = Date.now();
    const lease = await store.acquire('k', { waitMs: 3_000 });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(await lease.end({ state: 'a', updatedAt: 0, version: 1 })).toBe('saved');
    expect(await admin.exists(`${prefix}lock:{k}`)).toBe(0);
    client.disconnect();
  });

  it('releases the lock of an end that timed out once Redis answers (its script, or the release behind it)', async () => {
    const client = await ready(new Redis(redis.url, failFastRedisOptions({ commandTimeout: 300 })));
    client.on('error', () => {});
    const prefix = uniquePrefix('stall');
    const store = new RedisFsmStore({ client, prefix, lockLeaseMs: 5_000 });
    const lease = await store.acquire('k', { waitMs: 1_000 });
    process.kill(pid, 'SIGSTOP');
    try {
      await expect(lease.end({ state: 'a', updatedAt: 0, version: 1 })).rejects.toThrow(/Redis did not answer in time/);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    // The late end script runs once Redis is back: poll until the lock is gone.
    await vi.waitFor(async () => expect(await admin.exists(`${prefix}lock:{k}`)).toBe(0), {
      timeout: 5_000,
      interval: 10,
    });
    // The late end script was still fenced by its token and version: its write applied once, nothing else.
    expect(await store.load('k')).toEqual({ state: 'a', updatedAt: 0, version: 1 });
    client.disconnect();
  });
});
