import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, type TaskSessionEndpointId } from '@modelcontextprotocol/ext-tasks/client';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import type { FusionApp } from '../../src/index.js';
import { callToolAsTask } from '../../src/testing/index.js';
import { instance, user } from './_listInstances.js';
import { ready, redisClient, uniquePrefix } from './clients.js';

const anything = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } as any;

/** A 2025-11-25 SDK client of `caller` whose requests go to each app in turn (no affinity). */
async function roundRobin(apps: FusionApp[], caller: object): Promise<Client & { sent: number[] }> {
  const client = new Client({ name: 'lister', version: '1.0.0' });
  const sent: number[] = [];
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => {
        const request = new Request(url, init);
        request.headers.set('host', '127.0.0.1');
        const i = sent.length % apps.length;
        sent.push(i);
        return apps[i]!.fetch(request, caller as never);
      },
    }),
  );
  return Object.assign(client, { sent });
}

const list = (client: Client, params: Record<string, unknown>): Promise<any> =>
  client.request({ method: 'tasks/list', params } as any, anything);

describe('tasks/list across two instances on one Redis (2025-11-25)', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = await ready(redisClient());
  });

  it("pages the caller's own tasks, started on either instance, through the official Tasks client; others' tasks and cursors stay out", async () => {
    const prefix = uniquePrefix('list');
    const apps = [instance(redis, prefix), instance(redis, prefix)];
    const alice = await roundRobin(apps, user('alice'));
    const bob = await roundRobin(apps, user('bob'));
    try {
      expect(alice.getServerCapabilities()?.tasks).toMatchObject({ list: {} });
      const started: string[] = [];
      for (const name of ['one', 'two', 'three'])
        started.push((await callToolAsTask(alice, 'jobs.run', { name })).taskId);
      const bobs = (await callToolAsTask(bob, 'jobs.run', { name: 'bob' })).taskId;

      const session = createTaskSessionFromClient(alice, { endpointId: 'lister' as TaskSessionEndpointId });
      expect(session.capabilities.inventory).toBe('server-list');
      const first = await session.listTasks();
      expect(first.tasks).toHaveLength(2);
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await session.listTasks(first.nextCursor);
      expect(second.nextCursor).toBeUndefined();
      const listed = [...first.tasks, ...second.tasks].map((t) => t.taskId);
      expect(listed).toEqual(started);
      expect(listed).not.toContain(bobs);
      expect([...first.tasks, ...second.tasks].every((t) => t.status === 'working')).toBe(true);
      // The requests alternated: both instances served tasks/list.
      expect(new Set(alice.sent)).toEqual(new Set([0, 1]));

      expect((await list(bob, {})).tasks.map((t: any) => t.taskId)).toEqual([bobs]);
      await expect(list(bob, { cursor: first.nextCursor })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('issued to another caller'),
      });
      await expect(list(alice, { cursor: 'eyJvIjoiZm9yZ2VkIn0' })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('not one this server issued'),
      });
      await session.close();
    } finally {
      await alice.close();
      await bob.close();
      for (const app of apps) await app.close();
    }
  });
});
