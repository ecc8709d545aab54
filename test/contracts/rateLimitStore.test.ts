import { beforeAll, describe } from 'vitest';
import type { Redis } from 'ioredis';
import { MemoryRateLimitStore } from '../../src/index.js';
import { RedisRateLimitStore } from '../../src/redis/index.js';
import { ready, redisClient, uniquePrefix } from '../redis/clients.js';
import { runRateLimitStoreContract } from './runRateLimitStoreContract.js';

describe('MemoryRateLimitStore (RateLimitStore contract)', () => {
  runRateLimitStoreContract(() => new MemoryRateLimitStore());
});

describe('RedisRateLimitStore (RateLimitStore contract, real redis-server)', () => {
  let client: Redis;
  beforeAll(async () => {
    client = await ready(redisClient());
  });
  runRateLimitStoreContract(() => new RedisRateLimitStore({ client, prefix: uniquePrefix('ratelimit') }));
});
