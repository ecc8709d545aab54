import { beforeAll, describe } from 'vitest';
import type { Redis } from 'ioredis';
import { MemoryFsmStore } from '../../src/index.js';
import { RedisFsmStore } from '../../src/redis/index.js';
import { ready, redisClient, uniquePrefix } from '../redis/clients.js';
import { runFsmStoreContract } from './runFsmStoreContract.js';

describe('MemoryFsmStore (FsmStateStore contract)', () => {
  runFsmStoreContract(() => new MemoryFsmStore());
});

describe('RedisFsmStore (FsmStateStore contract, real redis-server)', () => {
  let client: Redis;
  beforeAll(async () => {
    client = await ready(redisClient());
  });
  runFsmStoreContract(() => new RedisFsmStore({ client, prefix: uniquePrefix('fsm') }));
});
