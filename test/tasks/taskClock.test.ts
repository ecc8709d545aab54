import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { createFusionApp, initFusion, MemoryTaskStore, type ToolRegistry } from '../../src/index.js';
import { TaskWatchers } from '../../src/runtime/tasks/TaskWatchers.js';
import { createClock, type TestClock } from '../../src/testing/index.js';
import { v2FetchClient } from '../_helpers/clients.js';

// Tasks run on the clock of the `now` option: a test clock moves lease renewals, waits and the drain by hand.
const f = initFusion();
const anything = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } as any;
const request = (client: Client, method: string, params: Record<string, unknown>): Promise<any> =>
  client.request({ method, params } as any, anything);

/** A task tool whose work ends only when `open` is called: it does not stop when its signal aborts. */
function stubbornJob(pollIntervalMs = 10): { registry: ToolRegistry<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const registry = f.registry().registerAll(
    f
      .action('job')
      .task({ pollIntervalMs })
      .handle(async () => {
        await opened;
        return 'job done';
      }),
  );
  return { registry, open };
}

/** A turn of the event loop for the work a request started (the clock does not move). */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Whether `promise` has settled, after a few turns of the event loop. */
async function hasSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 5; i++) await turn();
  return settled;
}

async function app(registry: ToolRegistry<void>, clock: TestClock, store: MemoryTaskStore, leaseMs = 3_000) {
  const fusion = createFusionApp(registry, { clock, tasks: { store, leaseMs } });
  const client = await v2FetchClient(fusion);
  return { fusion, client };
}

describe('tasks on the test clock', () => {
  it("renews a running task's lease when the clock passes a third of the lease, not before, and the task outlives its first lease", async () => {
    const clock = createClock();
    const store = new MemoryTaskStore({ now: clock.now });
    const job = stubbornJob();
    const { fusion, client } = await app(job.registry, clock, store);
    const created = await request(client, 'tools/call', { name: 'job', task: { ttl: 60_000 } });
    const id = created.task.taskId as string;
    const start = clock.now();
    const leaseUntil = async (): Promise<number | undefined> => (await store.get(id))?.record.leaseUntil;
    expect(await leaseUntil()).toBe(start + 3_000);

    await clock.advanceAsync(999);
    expect(await leaseUntil(), 'not renewed before a third of the lease').toBe(start + 3_000);
    await clock.advanceAsync(1);
    expect(await leaseUntil(), 'renewed at a third of the lease').toBe(start + 1_000 + 3_000);
    await clock.advanceAsync(1_000);
    expect(await leaseUntil()).toBe(start + 2_000 + 3_000);

    // Past the first lease: renewed all along, the task is still working (an unrenewed one reads as failed).
    await clock.advanceAsync(2_500);
    expect(await request(client, 'tasks/get', { taskId: id })).toMatchObject({ status: 'working' });
    job.open();
    await expect.poll(async () => (await request(client, 'tasks/get', { taskId: id })).status).toBe('completed');
    const finished = await store.get(id);
    await clock.advanceAsync(10_000);
    expect(await store.get(id), 'a finished task is not renewed (nor written at all)').toEqual(finished);
    await client.close();
    await fusion.close({ drainMs: 0 });
  });

  it('ends a TaskWatchers wait when the clock passes its bound (at least 10 ms), and early on a change', async () => {
    const clock = createClock();
    const watchers = new TaskWatchers(clock);
    const wait = watchers.pause('t1', 500, undefined);
    clock.advance(499);
    expect(await hasSettled(wait), 'not before its bound').toBe(false);
    clock.advance(1);
    expect(await hasSettled(wait), 'at its bound').toBe(true);

    const short = watchers.pause('t1', 0, undefined);
    clock.advance(9);
    expect(await hasSettled(short), 'a wait lasts at least 10 ms').toBe(false);
    clock.advance(1);
    expect(await hasSettled(short)).toBe(true);

    const woken = watchers.pause('t2', 60_000, undefined);
    watchers.wake('t2');
    expect(await hasSettled(woken), 'a change ends the wait without the clock').toBe(true);

    const controller = new AbortController();
    const aborting = watchers.pause('t3', 60_000, controller.signal);
    controller.abort();
    expect(await hasSettled(aborting), 'an abort ends the wait without the clock').toBe(true);
    const late = watchers.pause('t3', 60_000, controller.signal);
    expect(await hasSettled(late), 'a signal aborted before the wait (during an earlier await) ends it at once').toBe(
      true,
    );
    expect(clock.pending, 'an ended wait leaves no timer').toBe(0);
  });

  it('ends a tasks/result wait on the clock: a task that expires wakes no one, the next read after the poll interval does', async () => {
    const clock = createClock();
    const store = new MemoryTaskStore({ now: clock.now });
    const job = stubbornJob(5_000);
    const { fusion, client } = await app(job.registry, clock, store, 60_000);
    const created = await request(client, 'tools/call', { name: 'job', task: { ttl: 2_000 } });
    const id = created.task.taskId as string;
    const timers = clock.pending;
    const result = request(client, 'tasks/result', { taskId: id });
    const failed = result.then(
      () => 'answered',
      (error: Error) => error.message,
    );
    // The server read the working task and armed its wait (one timer more on the clock).
    await expect.poll(() => clock.pending).toBe(timers + 1);
    await clock.advanceAsync(2_000);
    expect(await store.get(id), 'expired').toBeUndefined();
    expect(await hasSettled(failed), 'the wait goes on past the expiry: nothing woke it').toBe(false);
    await clock.advanceAsync(2_999);
    expect(await hasSettled(failed), 'not before the poll interval').toBe(false);
    await clock.advanceAsync(1);
    expect(await failed).toMatch(/not found/);
    job.open();
    await client.close();
    await fusion.close({ drainMs: 0 });
  });

  it('drains on the clock: a task that ignores the abort holds the drain for its deadline, then one second for its outcome', async () => {
    const clock = createClock();
    const store = new MemoryTaskStore({ now: clock.now });
    const job = stubbornJob();
    const { fusion, client } = await app(job.registry, clock, store, 60_000);
    const created = await request(client, 'tools/call', { name: 'job', task: { ttl: 60_000 } });
    const id = created.task.taskId as string;
    const closed = fusion.close({ drainMs: 5_000 });
    await clock.advanceAsync(4_999);
    expect(await hasSettled(closed), 'the running task holds the drain').toBe(false);
    await clock.advanceAsync(1);
    // The deadline passed (the task's signal aborted, its work goes on): what is left of the drain is measured on
    // the clock (nothing), so the outcome wait is the one-second floor, also on the clock.
    await clock.advanceAsync(999);
    expect(await hasSettled(closed), 'the outcome wait is not over').toBe(false);
    await clock.advanceAsync(1);
    await closed;
    expect((await store.get(id))?.record.status, 'the unstoppable work left no outcome yet').toBe('working');
    job.open();
    await client.close().catch(() => {});
  });
});
