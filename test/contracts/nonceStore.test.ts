import { beforeAll, describe } from 'vitest';
import type { Redis } from 'ioredis';
import { MemoryNonceStore } from '../../src/index.js';
import { RedisNonceStore } from '../../src/redis/index.js';
import { ready, redisClient, uniquePrefix } from '../redis/clients.js';
import { runNonceStoreContract } from './runNonceStoreContract.js';

describe('MemoryNonceStore (NonceStore contract)', () => {
  runNonceStoreContract(() => new MemoryNonceStore());
});

describe('RedisNonceStore (NonceStore contract, real redis-server)', () => {
  let client: Redis;
  beforeAll(async () => {
    client = await ready(redisClient());
  });
  runNonceStoreContract(() => new RedisNonceStore({ client, prefix: uniquePrefix('nonce'), clockSkewMs: 0 }));
});
