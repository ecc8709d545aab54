import { Queue } from 'bullmq';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Redis } from 'ioredis';
import { createFusionApp, initFusion, type DebugEvent } from '../../src/index.js';
import {
  BullTaskQueue,
  RedisFsmStore,
  RedisRateLimitStore,
  RedisTaskStore,
  startTaskWorker,
} from '../../src/redis/index.js';
import {
  callToolAsTask,
  modernTaskEndpoint,
  taskResult,
  TaskNotStartedError,
  waitForTask,
  type TaskChannel,
} from '../../src/testing/index.js';
import { channelOf } from '../../src/testing/taskChannel.js';
import { legacyClientTo } from './_busInstances.js';
import { ready, redisClient, uniquePrefix } from './clients.js';

const f = initFusion();
const TASK = { pollIntervalMs: 20 };
const URL_ = 'http://127.0.0.1/mcp';

/**
 * An approval workflow (`doc.submit` draft → review, `doc.approve` in review, both tasks) and `jobs.run`, a task
 * of one number `n` limited to two calls a minute; `ran` records every handler run, wherever it ran.
 */
function app(ran: Array<number | string>) {
  const gate = f.fsm({
    id: 'approval',
    initial: 'draft',
    states: { draft: { on: { SUBMIT: 'review' } }, review: { on: { APPROVE: 'approved' } }, approved: {} },
  });
  const registry = f.registry().registerAll(
    f
      .mutation('doc.open')
      .bindState('draft')
      .handle(() => 'Draft open.'),
    f
      .mutation('doc.submit')
      .bindState('draft', 'SUBMIT')
      .task(TASK)
      .handle(() => (ran.push('submit'), 'Submitted.')),
    f
      .mutation('doc.approve')
      .bindState('review', 'APPROVE')
      .task(TASK)
      .handle(() => (ran.push('approve'), 'Approved.')),
    f
      .action('jobs.run')
      .withNumber('n')
      .rateLimit({ max: 2, windowMs: 60_000 })
      .task(TASK)
      .handle(({ n }) => (ran.push(n), `ran ${n}`)),
  );
  return { gate, registry };
}

/** The answer of a task call that started no task: its plain result (the refusal). */
async function refusal(ch: TaskChannel, name: string, args: Record<string, unknown> = {}) {
  const error = await callToolAsTask(ch, name, args).then(
    (task) => task,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TaskNotStartedError);
  const result = (error as TaskNotStartedError).result;
  expect(result.isError).toBe(true);
  return { result, text: (result.content[0] as { text: string }).text };
}

describe('a queued task (BullMQ) is admitted by the stages on the front before its record exists (real Redis)', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = await ready(redisClient());
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`${era === 'legacy' ? '2025-11-25' : '2026-07-28'}: refusals answer at once with no task and no job; admitted calls run once on the worker, spending the rate limit once`, async () => {
      const ran: Array<number | string> = [];
      const { gate, registry } = app(ran);
      const prefix = uniquePrefix('queue-admission');
      const url = new URL(inject('redisUrl'));
      const connection = { host: url.hostname, port: Number(url.port) };
      const bull = `${prefix}bull`;
      // What front and worker share: tasks, workflow states and the rate limit's counts, all in Redis.
      const shared = {
        fsm: gate,
        fsmStore: new RedisFsmStore({ client: redis, prefix: `${prefix}fsm:session:` }),
        workflowStore: new RedisFsmStore({ client: redis, prefix: `${prefix}fsm:handle:` }),
        rateLimitStore: new RedisRateLimitStore({ client: redis, prefix: `${prefix}rate:` }),
      };
      const store = new RedisTaskStore({ client: redis, prefix: `${prefix}tasks:` });
      const queue = new BullTaskQueue({ connection, prefix: bull });
      const events: DebugEvent[] = [];
      const front = createFusionApp(registry, {
        ...shared,
        drainMs: 0,
        eventStore: false,
        debug: (event) => void events.push(event),
        tasks: { store, queue },
      });
      const client = era === 'legacy' ? await legacyClientTo({ app: front }, 'queue-admission') : undefined;
      const ch = client !== undefined ? channelOf(client) : modernTaskEndpoint(URL_, { fetch: (r) => front.fetch(r) });
      const jobs = new Queue('mcp-fusion-tasks', { connection, prefix: bull });
      const stored = async (): Promise<number> => (await redis.keys(`${prefix}tasks:task:*`)).length;
      const waiting = async (): Promise<number> => (await jobs.getJobCounts('waiting')).waiting!;
      let worker: Awaited<ReturnType<typeof startTaskWorker>> | undefined;
      try {
        // Modern calls name their workflow instance: one in draft, opened by a plain call.
        const opened = era === 'modern' ? await ch.request('tools/call', { name: 'doc.open', arguments: {} }) : {};
        const handle = era === 'modern' ? { approval_id: (opened._meta as any)['fusion/workflow'].handle } : {};

        // (1) Invalid arguments and (3) the workflow gate (doc.approve is for review): refused at once.
        expect((await refusal(ch, 'jobs.run', { n: 'seven' })).text).toMatch(/^Invalid arguments for tool "jobs\.run"/);
        expect((await refusal(ch, 'doc.approve', handle)).text).toContain('doc.approve');
        expect(await stored()).toBe(0);
        expect(await jobs.getJobCounts()).toMatchObject({ waiting: 0, active: 0, completed: 0, failed: 0 });
        if (client !== undefined) expect((await ch.request('tasks/list', {})).tasks).toEqual([]);

        // Admitted: two calls of jobs.run (the limit's two) and doc.submit become tasks, queued, not run here.
        const first = await callToolAsTask(ch, 'jobs.run', { n: 1 });
        const second = await callToolAsTask(ch, 'jobs.run', { n: 2 });
        const submit = await callToolAsTask(ch, 'doc.submit', handle);
        for (const t of [first, second, submit]) expect(t.status).toBe('working');
        // (2) The third call is over the limit, spent by the two admitted ones: refused at once, no task.
        const limited = await refusal(ch, 'jobs.run', { n: 3 });
        expect(limited.result._meta?.['fusion/rateLimit']).toMatchObject({ max: 2 });
        expect([await stored(), await waiting()]).toEqual([3, 3]);
        if (client !== undefined)
          expect(((await ch.request('tasks/list', {})).tasks as unknown[]).map((t: any) => t.taskId).sort()).toEqual(
            [first.taskId, second.taskId, submit.taskId].sort(),
          );
        // The admission pass ran no handler and moved no workflow: doc.approve is still refused.
        expect(ran).toEqual([]);
        expect((await refusal(ch, 'doc.approve', handle)).text).toContain('doc.approve');

        // The worker runs each admitted call once, without spending the (shared) rate limit again.
        worker = await startTaskWorker({ registry, tasks: { store }, connection, prefix: bull, runtime: shared });
        for (const [task, text] of [
          [first, 'ran 1'],
          [second, 'ran 2'],
          [submit, 'Submitted.'],
        ] as const) {
          expect((await waitForTask(ch, task, { timeoutMs: 20_000 })).status).toBe('completed');
          // The first block is the handler's (a transition adds the workflow's next step after it).
          expect((await taskResult(ch, task)).content[0]).toEqual({ type: 'text', text });
        }
        expect([...ran].sort()).toEqual([1, 2, 'submit']);
        // Their jobs are done (BullMQ removes a job once its run returned).
        await expect.poll(() => jobs.getJobCounts()).toMatchObject({ waiting: 0, active: 0 });
        // The worker's run did pass the gate and move the workflow: doc.approve is admitted now.
        const approve = await callToolAsTask(ch, 'doc.approve', handle);
        expect((await waitForTask(ch, approve, { timeoutMs: 20_000 })).status).toBe('completed');
        expect(ran).toContain('approve');

        // The front reported only the refused calls to its observer: an admitted call's pass ran nothing.
        const results = events.filter((e) => e.type === 'result' && e.tool !== 'doc.open');
        expect(results.map((e: any) => [e.tool, e.ok, e.refused])).toEqual([
          ['jobs.run', false, true],
          ['doc.approve', false, true],
          ['jobs.run', false, true],
          ['doc.approve', false, true],
        ]);
        const calls = events.filter((e) => e.type === 'call' && e.tool !== 'doc.open');
        expect(calls.map((e: any) => [e.tool, e.ok])).toEqual([
          ['jobs.run', false],
          ['doc.approve', false],
          ['jobs.run', false],
          ['doc.approve', false],
        ]);
      } finally {
        await client?.close();
        await worker?.close();
        await front.close();
        await queue.close();
        await jobs.close();
      }
    });
  }
});
