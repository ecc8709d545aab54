import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Redis } from 'ioredis';
import { createFusionApp, initFusion, type FusionApp } from '../../src/index.js';
import { BullTaskQueue, failFastRedisOptions, RedisTaskStore } from '../../src/redis/index.js';
import {
  callToolAsTask,
  getTask,
  modernTaskEndpoint,
  type TaskChannel,
  type TaskSnapshot,
} from '../../src/testing/index.js';
import { legacyClientTo } from './_busInstances.js';
import { ready, redisClient, uniquePrefix } from './clients.js';
import { freePort, startRedisServer, type RedisServer } from './redisServer.js';

const f = initFusion();
const registry = () =>
  f.registry().register(
    f
      .action('report.build')
      .task({ pollIntervalMs: 20 })
      .handle(async () => 'built'),
  );

/** The text a task whose first run could not be handed to a worker ends with (`reason`: the queue's error). */
const notStarted = (id: string, reason: string) =>
  `Task "${id}" (report.build) was not started: handing it to a worker failed (${reason}). ` +
  'None of its work ran, so calling the tool again is safe.';

/** The reason inside a `notStarted` text. */
const reasonOf = (id: string, text: string | undefined): string | undefined =>
  new RegExp(
    `^Task "${id}" \\(report\\.build\\) was not started: handing it to a worker failed \\((.+)\\)\\. None`,
  ).exec(text ?? '')?.[1];

/** A front (in process, over HTTP through `app.fetch`) whose tasks go to `queue`, stored in the shared Redis. */
function front(client: Redis, queue: BullTaskQueue): FusionApp {
  const prefix = uniquePrefix('handoff');
  return createFusionApp(registry(), {
    drainMs: 0,
    eventStore: false,
    tasks: { store: new RedisTaskStore({ client, prefix }), queue },
  });
}

const legacy = (app: FusionApp): Promise<Client> => legacyClientTo({ app }, 'handoff');

const modern = (app: FusionApp): TaskChannel =>
  modernTaskEndpoint('http://127.0.0.1/mcp', { fetch: (request) => app.fetch(request) });

/** The task as created and as `tasks/get` reads it afterwards: both failed, with the not-started text. */
async function expectNotStarted(ch: TaskChannel | Client, created: TaskSnapshot): Promise<string> {
  expect(created.status).toBe('failed');
  const reason = reasonOf(created.taskId, created.statusMessage);
  expect(reason).toBeDefined();
  expect(created.statusMessage).toBe(notStarted(created.taskId, reason!));
  const read = await getTask(ch, created);
  expect(read.status).toBe('failed');
  expect(read.statusMessage).toBe(notStarted(created.taskId, reason!));
  return reason!;
}

describe('a task whose run cannot be handed to BullMQ ends failed at once, saying calling again is safe (real Redis)', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = await ready(redisClient());
  });

  describe('the queue is closed', () => {
    for (const era of ['legacy', 'modern'] as const) {
      it(`${era === 'legacy' ? '2025-11-25' : '2026-07-28'}: handed while open the task waits working; closed, the next one fails`, async () => {
        const url = new URL(inject('redisUrl'));
        const connection = { host: url.hostname, port: Number(url.port) };
        const queue = new BullTaskQueue({ connection, prefix: `${uniquePrefix('handoff-bull')}bull` });
        const app = front(redis, queue);
        const client = era === 'legacy' ? await legacy(app) : undefined;
        const ch = client ?? modern(app);
        try {
          // Open: the run waits in the queue (no worker here), the task working.
          const waiting = await callToolAsTask(ch, 'report.build', {});
          expect(waiting.status).toBe('working');
          await queue.close();
          await expectNotStarted(ch, await callToolAsTask(ch, 'report.build', {}));
        } finally {
          await client?.close();
          await app.close();
        }
      });
    }
  });

  describe("the queue's Redis refuses connections", () => {
    let server: RedisServer;
    const opened: Array<{ app: FusionApp; queue: BullTaskQueue }> = [];
    beforeAll(async () => {
      server = await startRedisServer();
    });
    afterAll(async () => {
      for (const { app, queue } of opened) {
        await app.close();
        await queue.close().catch(() => {});
      }
      await server?.stop();
    });
    /** A front whose queue's Redis is on `port`, with fail-fast options (and `retry`: ioredis' retryStrategy). */
    const open = (port: number, options: { handOffMs?: number; retry?: () => number | null } = {}) => {
      const { handOffMs, retry } = options;
      const connection = {
        host: '127.0.0.1',
        port,
        ...failFastRedisOptions(retry !== undefined ? { retryStrategy: retry } : {}),
      };
      const queue = new BullTaskQueue({ connection, ...(handOffMs !== undefined ? { handOffMs } : {}) });
      const app = front(redis, queue);
      opened.push({ app, queue });
      return app;
    };

    it('Redis goes away after the queue was open: the next task fails at once (2025-11-25 and 2026-07-28)', async () => {
      // No reconnection once Redis is gone, so the closed queue leaves no client retrying behind it.
      const app = open(server.port, { retry: () => null });
      const client = await legacy(app);
      try {
        expect((await callToolAsTask(client, 'report.build', {})).status).toBe('working');
        await server.stop();
        const t0 = performance.now();
        await expectNotStarted(client, await callToolAsTask(client, 'report.build', {}));
        await expectNotStarted(modern(app), await callToolAsTask(modern(app), 'report.build', {}));
        // Fail-fast connection options: no waiting on the offline queue or retries, nor for the hand-off deadline.
        expect(performance.now() - t0).toBeLessThan(5_000);
      } finally {
        await client.close();
      }
    });

    it('Redis never answered: BullMQ would wait for it; the hand-off deadline fails the task, naming it', async () => {
      // A port nothing listens on: BullMQ waits for its Redis to be ready, reconnecting.
      const app = open(await freePort(), { handOffMs: 300 });
      const client = await legacy(app);
      try {
        const created = await callToolAsTask(client, 'report.build', {});
        const reason = await expectNotStarted(client, created);
        expect(reason).toBe("BullMQ did not take the job within 300 ms; check that the queue's Redis is reachable");
      } finally {
        await client.close();
      }
    });
  });
});
