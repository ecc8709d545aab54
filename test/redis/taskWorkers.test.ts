import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callToolAsTask,
  cancelTask,
  modernTaskEndpoint,
  taskResult,
  waitForTask,
  type TaskChannel,
  type TaskSnapshot,
} from '../../src/testing/index.js';
import { until } from '../_helpers/waitFor.js';
import { ready, redisClient, uniquePrefix } from './clients.js';
import { taskProcess, workerProcess, type TaskProcess } from './taskProcess.js';

const LEASE_MS = 1_000;
/** What a loaded machine (two cores, several suites) may add to a takeover: process scheduling and polls. */
const SLACK_MS = 2_000;

type Worker = Awaited<ReturnType<typeof workerProcess>>;

async function channel(
  era: 'legacy' | 'modern',
  url: string,
): Promise<{ ch: TaskChannel | Client; close(): Promise<void> }> {
  if (era === 'modern') return { ch: modernTaskEndpoint(url), close: async () => {} };
  const client = new Client({ name: 'workers', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { ch: client, close: () => client.close() };
}

const attempt = (t: TaskSnapshot): unknown => (t.raw._meta as Record<string, unknown> | undefined)?.['fusion/attempt'];

describe(
  'task handlers on a pool of two BullMQ workers behind the HTTP front (Redis, three processes)',
  { timeout: 120_000 },
  () => {
    // One front and a pool of two workers for the file: each test that kills a worker starts another.
    const prefix = uniquePrefix('workers');
    const env = { LEASE_MS: String(LEASE_MS) };
    let front: TaskProcess;
    const workers: Worker[] = [];
    beforeAll(async () => {
      front = await taskProcess(prefix, { ...env, QUEUE: '1' });
      for (let i = 0; i < 2; i++) workers.push(await workerProcess(prefix, env));
    }, 240_000);
    afterAll(async () => {
      await front?.kill();
      for (const w of workers) await w.kill();
    });
    /** Replaces the killed `dead` in the pool with a new worker. */
    async function replace(dead: Worker): Promise<void> {
      workers.splice(workers.indexOf(dead), 1);
      workers.push(await workerProcess(prefix, env));
    }

    /** Waits until the task's handler says it runs on one of the workers, and returns that worker. */
    async function runningOn(ch: TaskChannel | Client, task: TaskSnapshot, workers: Worker[]): Promise<Worker> {
      const pids = workers.map((w) => `running on ${w.proc.pid}`);
      const seen = await waitForTask(ch, task, {
        until: (t) => pids.includes(t.statusMessage ?? ''),
        timeoutMs: 20_000,
      });
      return workers[pids.indexOf(seen.statusMessage!)]!;
    }

    for (const era of ['legacy', 'modern'] as const) {
      const name = era === 'legacy' ? '2025-11-25' : '2026-07-28';

      it(`${name}: the run is on a worker, not the front; killed mid-run, a tool safe to repeat completes on the other worker as attempt 2`, async () => {
        const client = await channel(era, front.url);
        const task = await callToolAsTask(client.ch, 'jobs.retry', { ms: 600 });
        const first = await runningOn(client.ch, task, workers);
        const other = workers.find((w) => w !== first)!;
        await first.kill();
        try {
          const killedAt = performance.now();
          let retriedAt: number | undefined;
          const done = await waitForTask(client.ch, task, {
            timeoutMs: 30_000,
            onPoll: (t) =>
              void (attempt(t) === 2 && retriedAt === undefined && (retriedAt = performance.now() - killedAt)),
          });
          expect(done.status).toBe('completed');
          expect(attempt(done)).toBe(2);
          expect(retriedAt).toBeLessThan(LEASE_MS + LEASE_MS / 4 + SLACK_MS);
          expect((await taskResult(client.ch, task)).content).toEqual([
            { type: 'text', text: `ran 600 ms on ${other.proc.pid}` },
          ]);
        } finally {
          await client.close();
          await replace(first);
        }
      });

      it(`${name}: killed mid-run, a tool not declared safe to repeat ends failed through the front`, async () => {
        const client = await channel(era, front.url);
        const task = await callToolAsTask(client.ch, 'jobs.hold', {});
        const first = await runningOn(client.ch, task, workers);
        await first.kill();
        try {
          const done = await waitForTask(client.ch, task, { timeoutMs: 30_000 });
          expect(done.status).toBe('failed');
          expect(done.statusMessage).toBe(
            `The server instance running task "${task.taskId}" (jobs.hold, attempt 1) stopped before it finished. ` +
              'Its work may be partly done and "jobs.hold" is not declared safe to repeat: check its effects before calling again.',
          );
        } finally {
          await client.close();
          await replace(first);
        }
      });
    }

    it('2026-07-28: a cancel taken by the front reaches the handler on the worker, which is aborted', async () => {
      const redis = await ready(redisClient());
      const client = await channel('modern', front.url);
      const task = await callToolAsTask(client.ch, 'jobs.hold', {});
      const worker = await runningOn(client.ch, task, workers);
      expect((await cancelTask(client.ch, task)).status).toBe('cancelled');
      await until(
        async () => (await redis.get(`${prefix}aborted:${worker.proc.pid}`)) === '1',
        'the handler on the worker to be aborted',
      );
      expect((await waitForTask(client.ch, task)).status).toBe('cancelled');
    });
  },
);
