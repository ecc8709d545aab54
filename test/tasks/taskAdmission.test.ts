import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { initFusion } from '../../src/index.js';
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
