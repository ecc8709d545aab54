import { describe, expect, inject, it } from 'vitest';
import { initFusion } from '../../src/index.js';
import { RedisTaskStore } from '../../src/redis/index.js';
import { httpServer } from '../_helpers/clients.js';
import { modernRequest } from '../_helpers/extTasks.js';
import { ready, redisClient, uniquePrefix } from './clients.js';
import { spawnServer } from '../server/_serverProcess.js';

const f = initFusion();

describe('SIGTERM with tasks running (tasks in Redis)', () => {
  it('lets a task that ends within drainMs store its result, and stores a task cut at the deadline as failed, not working', async () => {
    const prefix = uniquePrefix('drain-tasks');
    await using a = await spawnServer('test/server/fixtures/drainServer.ts', {
      DRAIN_MS: '1500',
      REDIS_URL: inject('redisUrl'),
      REDIS_PREFIX: prefix,
    });
    const quick = await modernRequest(a.url, 'tools/call', { name: 'work.job', arguments: { ms: 700, tag: 'quick' } });
    const long = await modernRequest(a.url, 'tools/call', { name: 'work.job', arguments: { ms: 60_000, tag: 'long' } });
    expect([quick.status, long.status]).toEqual(['working', 'working']);
    const signalledAt = a.signal('SIGTERM');
    const exit = await a.exited;
    expect(exit.code, a.stderr()).toBe(0);
    expect(exit.at - signalledAt).toBeLessThan(1_500 + 3_000);

    // Another instance on the same Redis reads both at once: nothing waits for a lease to run out.
    const registry = f.registry().registerAll(
      f
        .action('work.job')
        .withNumber('ms')
        .withString('tag')
        .task({ pollIntervalMs: 50 })
        .handle(() => 'B runs no jobs here'),
    );
    await using b = await httpServer(registry, {
      drainMs: 0,
      tasks: { store: new RedisTaskStore({ client: await ready(redisClient()), prefix }) },
    });
    const done = await modernRequest(b.url, 'tasks/get', { taskId: quick.taskId });
    expect(done).toMatchObject({ status: 'completed' });
    expect(done.result.content[0].text).toBe('done quick');
    const cut = await modernRequest(b.url, 'tasks/get', { taskId: long.taskId });
    expect(cut.status).toBe('failed');
    expect(JSON.stringify(cut)).toMatch(/shut/i);
  }, 30_000);
});
