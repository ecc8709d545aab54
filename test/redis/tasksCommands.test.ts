import { afterAll, beforeAll, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { countCommands, perCall } from '../../bench/commandCount.js';
import { initFusion } from '../../src/index.js';
import { failFastRedisOptions, RedisTaskStore } from '../../src/redis/index.js';
import { httpServer } from '../_helpers/clients.js';
import { untilAborted } from '../_helpers/untilAborted.js';
import { modernRequest } from '../_helpers/extTasks.js';
import { ready, uniquePrefix } from './clients.js';
import { startRedisServer, type RedisServer } from './redisServer.js';

let redis: RedisServer;
let client: Redis;
beforeAll(async () => {
  redis = await startRedisServer();
  client = await ready(new Redis(redis.url, failFastRedisOptions()));
}, 20_000);
afterAll(async () => {
  client?.disconnect();
  await redis?.stop();
});

it('tasks/get costs one Redis round trip (HMGET); starting a task two (the owner-budget script, then one MULTI transaction beside the ZADD of its lease)', async () => {
  const f = initFusion();
  const registry = f.registry().registerAll(
    f
      .action('jobs.run')
      .task()
      .handle((_input, _ctx, extra) => untilAborted(extra.signal)),
  );
  await using srv = await httpServer(registry, {
    drainMs: 0,
    tasks: { store: new RedisTaskStore({ client, prefix: uniquePrefix('tasks') }), leaseMs: 600_000 },
  });
  // Warm-up: the first script call of a fresh Redis falls back from EVALSHA to EVAL once.
  await modernRequest(srv.url, 'tools/call', { name: 'jobs.run', arguments: {} });
  let taskId = '';
  const start = perCall(
    await countCommands(
      redis.url,
      async () =>
        void (taskId = (await modernRequest(srv.url, 'tools/call', { name: 'jobs.run', arguments: {} })).taskId),
    ),
    1,
  );
  // The owner budget script, the task hash written with its expiry (MULTI/HSET/PEXPIREAT/EXEC) and, sent at the
  // same time, its lease in the index other instances sweep for takeovers (ZADD).
  expect(start.sent).toEqual({ evalsha: 1, multi: 1, hset: 1, pexpireat: 1, exec: 1, zadd: 1 });
  const poll = perCall(
    await countCommands(redis.url, async () => {
      for (let i = 0; i < 4; i++)
        expect((await modernRequest(srv.url, 'tasks/get', { taskId })).status).toBe('working');
    }),
    4,
  );
  expect(poll.sent).toEqual({ hmget: 1 });
});
