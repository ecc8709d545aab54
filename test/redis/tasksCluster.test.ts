import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisTaskStore } from '../../src/redis/index.js';
import { runTaskStoreContract } from '../contracts/runTaskStoreContract.js';
import { clusterClient, ready, uniquePrefix } from './clients.js';
import { startRedisCluster, type RedisCluster } from './redisCluster.js';

let cluster: RedisCluster;
let client: Cluster;

beforeAll(async () => {
  cluster = await startRedisCluster(3);
  client = await ready(clusterClient(cluster.nodes));
}, 40_000);
afterAll(async () => {
  client?.disconnect();
  await cluster?.stop();
});

describe('RedisTaskStore on a real 3-master Redis Cluster (TaskStore contract)', () => {
  runTaskStoreContract(() => new RedisTaskStore({ client, prefix: uniquePrefix('tasks') }));

  it("keeps a task's keys in its own slot: the hash tag is the task id", async () => {
    const prefix = uniquePrefix('tasks');
    const store = new RedisTaskStore({ client, prefix });
    const now = Date.now();
    await store.create(
      {
        id: 'abc',
        owner: 'alice',
        tool: 't',
        status: 'working',
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs: 60_000,
        pollIntervalMs: 100,
      },
      { maxActivePerOwner: 5 },
    );
    const slot = await client.cluster('KEYSLOT', `${prefix}task:{abc}`);
    expect(slot).toBe(await client.cluster('KEYSLOT', 'abc'));
    expect(await client.hget(`${prefix}task:{abc}`, 's')).toBe('working');
  });
});
