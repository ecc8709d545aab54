import { beforeAll, describe } from 'vitest';
import type { Redis } from 'ioredis';
import { MemorySessionStore } from '../../src/index.js';
import { RedisSessionStore } from '../../src/redis/index.js';
import { ready, redisClient, uniquePrefix } from '../redis/clients.js';
import { runSessionStoreCompareAndSetContract, runSessionStoreContract } from './runSessionStoreContract.js';

describe('MemorySessionStore (SessionStore contract)', () => {
  runSessionStoreContract(() => new MemorySessionStore());
  runSessionStoreCompareAndSetContract(() => new MemorySessionStore());
});

describe('RedisSessionStore (SessionStore contract, real redis-server)', () => {
  let client: Redis;
  beforeAll(async () => {
    client = await ready(redisClient());
  });
  runSessionStoreContract(() => new RedisSessionStore({ client, prefix: uniquePrefix('session') }));
  runSessionStoreCompareAndSetContract(() => new RedisSessionStore({ client, prefix: uniquePrefix('session') }));
});
