import { beforeAll, describe } from 'vitest';
import type { Redis } from 'ioredis';
import { MemoryTaskStore } from '../../src/index.js';
import { RedisTaskStore } from '../../src/redis/index.js';
import { ready, redisClient, uniquePrefix } from '../redis/clients.js';
import { runTaskStoreContract } from './runTaskStoreContract.js';

describe('MemoryTaskStore (TaskStore contract)', () => {
  runTaskStoreContract(() => new MemoryTaskStore());
});

describe('RedisTaskStore (TaskStore contract, real redis-server)', () => {
  let client: Redis;
  beforeAll(async () => {
    client = await ready(redisClient());
  });
  runTaskStoreContract(() => new RedisTaskStore({ client, prefix: uniquePrefix('tasks') }));
});
