import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { initFusion, type InvalidationEvent } from '../../src/index.js';
import { httpServer, v2HttpClient } from '../_helpers/clients.js';

const f = initFusion();
const anything = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } as any;
const request = (client: Client, method: string, params: Record<string, unknown>): Promise<any> =>
  client.request({ method, params } as any, anything);

async function terminal(client: Client, taskId: string): Promise<any> {
  for (;;) {
    const task = await request(client, 'tasks/get', { taskId });
    if (['completed', 'failed', 'cancelled'].includes(task.status)) return task;
    // Polling tasks/get at the task's pollIntervalMs is how the protocol's clients wait for a task.
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** An approval workflow whose submit runs as a task; `finish(outcome)` ends the running submit. */
function approval() {
  let finish: (outcome: 'ok' | 'error') => void = () => {};
  const invalidations: InvalidationEvent[] = [];
  const gate = f.fsm({
    id: 'approval',
    initial: 'draft',
    states: {
      draft: { on: { SUBMIT: 'review' } },
      review: { on: { APPROVE: 'approved' } },
      approved: { type: 'final' },
    },
  });
  const registry = f.registry().registerAll(
    f
      .mutation('doc.submit')
      .bindState('draft', 'SUBMIT')
      .invalidates('docs.*')
      .task({ pollIntervalMs: 10 })
      // Deliberately deaf to cancellation: its result after a cancel must still not count.
      .handle(
        () =>
          new Promise((resolve) => {
            finish = (outcome) =>
              outcome === 'ok'
                ? resolve('Submitted for review.')
                : resolve({ content: [{ type: 'text', text: 'The reviewer queue is full.' }], isError: true });
          }),
      ),
    f
      .mutation('doc.approve')
      .bindState('review', 'APPROVE')
      .handle(() => 'Approved.'),
    f.query('docs.list').handle(() => []),
  );
  const options = {
    fsm: gate,
    drainMs: 0,
    stateSync: { policies: [], onInvalidation: (e: InvalidationEvent) => invalidations.push(e) },
  };
  return { registry, options, invalidations, finish: (outcome: 'ok' | 'error') => finish(outcome) };
}

const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();

describe('a task-supporting tool bound to the workflow (legacy session over HTTP)', () => {
  it('transitions once, when its task completes: not at start; list_changed and the invalidation come with the completion', async () => {
    const app = approval();
    await using srv = await httpServer(app.registry, app.options);
    await using client = await v2HttpClient(srv.url);
    let listChanged = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void listChanged++);
    const { task } = await request(client, 'tools/call', { name: 'doc.submit', arguments: {}, task: {} });
    expect(task.status).toBe('working');
    expect(await names(client)).toEqual(['doc.submit', 'docs.list']);
    expect(listChanged).toBe(0);
    expect(app.invalidations).toEqual([]);
    app.finish('ok');
    const done = await terminal(client, task.taskId);
    expect(done.status).toBe('completed');
    const result = await request(client, 'tasks/result', { taskId: task.taskId });
    expect(result.content[0].text).toBe('[System: Cache invalidated for docs.* — caused by doc.submit]');
    expect(app.invalidations.map((e) => e.causedBy)).toEqual(['doc.submit']);
    await expect.poll(() => listChanged).toBe(1);
    expect(await names(client)).toEqual(['doc.approve', 'docs.list']);
  });

  it('does not transition for a cancelled task, even when its handler would still succeed, nor for a tool error', async () => {
    const app = approval();
    await using srv = await httpServer(app.registry, app.options);
    await using client = await v2HttpClient(srv.url);
    const first = await request(client, 'tools/call', { name: 'doc.submit', arguments: {}, task: {} });
    expect(await request(client, 'tasks/cancel', { taskId: first.task.taskId })).toMatchObject({ status: 'cancelled' });
    app.finish('ok');
    expect((await terminal(client, first.task.taskId)).status).toBe('cancelled');

    const second = await request(client, 'tools/call', { name: 'doc.submit', arguments: {}, task: {} });
    app.finish('error');
    const failed = await terminal(client, second.task.taskId);
    expect(failed.status).toBe('completed');
    expect((await request(client, 'tasks/result', { taskId: second.task.taskId })).isError).toBe(true);
    expect(await names(client)).toEqual(['doc.submit', 'docs.list']);
    expect(app.invalidations).toEqual([]);
  });
});

describe('a running bound task does not hold its session (legacy session over HTTP)', () => {
  /** draft --SUBMIT (a task)--> review; draft --PARK--> parked; `doc.rename` is allowed in draft and moves nothing. */
  function parkable() {
    let finish: () => void = () => {};
    const gate = f.fsm({
      id: 'doc',
      initial: 'draft',
      states: { draft: { on: { SUBMIT: 'review', PARK: 'parked' } }, review: {}, parked: {} },
    });
    const registry = f.registry().registerAll(
      f
        .mutation('doc.submit')
        .bindState('draft', 'SUBMIT')
        .task({ pollIntervalMs: 10 })
        .handle(() => new Promise((resolve) => (finish = () => resolve('Submitted.')))),
      f
        .mutation('doc.rename')
        .bindState('draft')
        .handle(() => 'Renamed.'),
      f
        .mutation('doc.park')
        .bindState('draft', 'PARK')
        .handle(() => 'Parked.'),
    );
    return { registry, options: { fsm: gate, drainMs: 0 }, finish: () => finish() };
  }

  it('answers another bound call of the session while the task runs, then transitions when the task completes', async () => {
    const app = parkable();
    await using srv = await httpServer(app.registry, app.options);
    await using client = await v2HttpClient(srv.url);
    const { task } = await request(client, 'tools/call', { name: 'doc.submit', arguments: {}, task: {} });
    const renamed = await client.callTool({ name: 'doc.rename', arguments: {} });
    expect(renamed.isError).not.toBe(true);
    expect((renamed.content as any)[0].text).toBe('Renamed.');
    app.finish();
    expect((await terminal(client, task.taskId)).status).toBe('completed');
    expect(await names(client)).toEqual([]);
  });

  it('does not apply the transition when the state moved while the task ran, and says so in its result', async () => {
    const app = parkable();
    await using srv = await httpServer(app.registry, app.options);
    await using client = await v2HttpClient(srv.url);
    const { task } = await request(client, 'tools/call', { name: 'doc.submit', arguments: {}, task: {} });
    expect((await client.callTool({ name: 'doc.park', arguments: {} })).isError).not.toBe(true);
    app.finish();
    expect((await terminal(client, task.taskId)).status).toBe('completed');
    const result = await request(client, 'tasks/result', { taskId: task.taskId });
    expect(result.isError).toBe(true);
    expect(result.content.at(-1).text).toContain('the workflow moved from "draft" to "parked" while this task ran');
    expect(await names(client)).toEqual([]);
  });
});
