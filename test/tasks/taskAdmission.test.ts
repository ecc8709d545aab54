import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import {
  createFusionApp,
  initFusion,
  MemoryRateLimitStore,
  MemoryTaskStore,
  type RateLimitCount,
  type RateLimitStore,
} from '../../src/index.js';
import { callToolAsTask, cancelTask, modernTaskEndpoint } from '../../src/testing/index.js';
import { httpServer, v2HttpClient } from '../_helpers/clients.js';

const f = initFusion();
const anything = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } as any;
const request = (client: Client, method: string, params: Record<string, unknown>): Promise<any> =>
  client.request({ method, params } as any, anything);

/** `jobs.run`: a task of one number argument `n` that runs until it is cancelled; one call a minute. */
function registry(ran: number[]) {
  return f.registry().registerAll(
    f
      .action('jobs.run')
      .withNumber('n')
      .rateLimit({ max: 1, windowMs: 60_000 })
      .task({ pollIntervalMs: 10 })
      .handle(({ n }, _ctx, extra) => {
        ran.push(n);
        return new Promise<string>((resolve) => extra.signal.addEventListener('abort', () => resolve('stopped')));
      }),
  );
}

describe('a task is admitted by its stages before its record exists (2025-11-25 sessions)', () => {
  it('leaves no task and takes no slot for a call refused for its arguments or its rate limit', async () => {
    const ran: number[] = [];
    await using srv = await httpServer(registry(ran), {
      drainMs: 0,
      tasks: { budgets: { maxActivePerPrincipal: 1 } },
    });
    await using client = await v2HttpClient(srv.url);
    const call = (args: Record<string, unknown>): Promise<any> =>
      request(client, 'tools/call', { name: 'jobs.run', arguments: args, task: {} });

    // Refused by validation: answered as a plain call would be, with no task made.
    const invalid = await call({ n: 'seven' }).catch((error: unknown) => error);
    expect(invalid).toMatchObject({ isError: true });
    expect(invalid.task).toBeUndefined();
    expect((await request(client, 'tasks/list', {})).tasks).toEqual([]);

    // The one slot is still free: a valid call becomes a task (and spends the one call of the rate limit).
    const first = await call({ n: 1 });
    expect(first.task).toMatchObject({ status: 'working' });

    // Refused by the rate limit: no task, and the per-principal budget (1) still holds the first alone.
    const limited = await call({ n: 2 });
    expect(limited.task).toBeUndefined();
    expect(limited.isError).toBe(true);
    expect(limited._meta['fusion/rateLimit']).toMatchObject({ max: 1 });
    const listed = (await request(client, 'tasks/list', {})).tasks as Array<{ taskId: string }>;
    expect(listed.map((t) => t.taskId)).toEqual([first.task.taskId]);
    await expect.poll(() => ran).toEqual([1]);
    await request(client, 'tasks/cancel', { taskId: first.task.taskId });
  });
});

/** A rate-limit store that answers after `turns` turns of the event loop (as a remote store would), counting its hits. */
class SlowRateLimitStore implements RateLimitStore {
  readonly #counts = new MemoryRateLimitStore();
  readonly #turns: number;
  hits = 0;
  constructor(turns: number) {
    this.#turns = turns;
  }
  async hit(key: string, windowMs: number): Promise<RateLimitCount> {
    this.hits++;
    for (let i = 0; i < this.#turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    return this.#counts.hit(key, windowMs);
  }
}

describe('a task is admitted by its stages before its record exists (2026-07-28, immediate)', () => {
  it('answers a refusal that took more than one turn, and leaves no task', async () => {
    const ran: number[] = [];
    const store = new MemoryTaskStore();
    // Five turns: past the one turn an immediate call is given to settle without a task.
    const limits = new SlowRateLimitStore(5);
    const app = createFusionApp(registry(ran), {
      drainMs: 0,
      rateLimitStore: limits,
      tasks: { store, budgets: { maxActivePerPrincipal: 1 } },
    });
    const channel = modernTaskEndpoint('http://127.0.0.1/mcp', { fetch: (request) => app.fetch(request) });
    try {
      // Admitted (the slow limiter's one call): a task.
      const first = await callToolAsTask(channel, 'jobs.run', { n: 1 });
      expect(first.status).toBe('working');
      const owner = (await store.get(first.taskId))!.record.owner;

      // Refused by the slow limiter: the refusal is the answer (not a task, nor the task budget's refusal).
      const limited = await channel.request('tools/call', { name: 'jobs.run', arguments: { n: 2 } });
      expect(limits.hits).toBe(2);
      expect(limited.resultType).not.toBe('task');
      expect(limited.isError).toBe(true);
      expect((limited._meta as Record<string, unknown>)['fusion/rateLimit']).toMatchObject({ max: 1 });
      const listed = await store.list!(owner, { limit: 10 });
      expect(listed.records.map((r) => r.id)).toEqual([first.taskId]);
      await expect.poll(() => ran).toEqual([1]);
      await cancelTask(channel, first);
    } finally {
      await app.close();
    }
  });
});
