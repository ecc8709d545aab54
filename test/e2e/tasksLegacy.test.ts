import { describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { initFusion, MemoryTaskStore, type DebugEvent } from '../../src/index.js';
import { formatDebugEvent } from '../../src/advanced/index.js';
import { httpServer, v2HttpClient, v2HttpClientFrom, watchingStream } from '../_helpers/clients.js';
import { untilAborted } from '../_helpers/untilAborted.js';

const f = initFusion();
const anything = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } as any;
const request = (client: Client, method: string, params: Record<string, unknown>): Promise<any> =>
  client.request({ method, params } as any, anything);

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Polls `tasks/get` until the task is terminal (the poll interval is 10 ms). */
async function terminal(client: Client, taskId: string): Promise<any> {
  for (;;) {
    const task = await request(client, 'tasks/get', { taskId });
    if (['completed', 'failed', 'cancelled'].includes(task.status)) return task;
    // Polling tasks/get at the task's pollIntervalMs is how the protocol's clients wait for a task.
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('tasks, 2025-11-25 (legacy sessions over HTTP)', () => {
  it('advertises tasks, lists taskSupport, creates a task for a task-augmented call and serves get, result and status notifications', async () => {
    const done = gate();
    const registry = f.registry().registerAll(
      f.query('plain').handle(() => 'plain'),
      f
        .action('export')
        .withString('what')
        .task({ pollIntervalMs: 10 })
        .handle(async ({ what }, _ctx, extra) => {
          await extra.progress(1, 2, 'exporting');
          await done.opened;
          return `exported ${what}`;
        }),
    );
    await using srv = await httpServer(registry);
    await using client = await v2HttpClient(srv.url);
    expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, (t as { execution?: unknown }).execution])).toEqual([
      ['plain', undefined],
      ['export', { taskSupport: 'optional' }],
    ]);
    const statuses: string[] = [];
    client.setNotificationHandler(
      'notifications/tasks/status' as 'notifications/message',
      (n: any) => void statuses.push(n.params.status),
    );

    const created = await request(client, 'tools/call', {
      name: 'export',
      arguments: { what: 'ledger' },
      task: { ttl: 60_000 },
    });
    expect(created.task).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: 10 });
    const id = created.task.taskId as string;
    expect(await request(client, 'tasks/get', { taskId: id })).toMatchObject({ taskId: id, status: 'working' });
    const result = request(client, 'tasks/result', { taskId: id });
    done.open();
    expect(await result).toEqual({
      content: [{ type: 'text', text: 'exported ledger' }],
      _meta: { 'io.modelcontextprotocol/related-task': { taskId: id } },
    });
    expect(await terminal(client, id)).toMatchObject({ status: 'completed', statusMessage: 'exporting' });
    await expect.poll(() => statuses.at(-1)).toBe('completed');
    expect(statuses[0]).toBe('working');
  });

  it('answers a plain call without task augmentation, and -32601 for a required tool called so', async () => {
    const registry = f.registry().registerAll(
      f
        .action('optional')
        .task()
        .handle(() => 'ran inline'),
      f
        .action('required')
        .task({ mode: 'required' })
        .handle(() => 'never'),
    );
    await using srv = await httpServer(registry);
    await using client = await v2HttpClient(srv.url);
    expect(await client.callTool({ name: 'optional', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'ran inline' }],
    });
    await expect(client.callTool({ name: 'required', arguments: {} })).rejects.toMatchObject({
      code: -32601,
      message: expect.stringContaining(
        'Tool "required" runs only as a task: call it with "task": {} in the tools/call params',
      ),
    });
  });

  it('keeps a task to its owner: a session of another peer gets "not found" for get, result and cancel', async () => {
    const registry = f.registry().registerAll(
      f
        .action('slow')
        .task({ pollIntervalMs: 10 })
        .handle((_input, _ctx, extra) => untilAborted(extra.signal)),
    );
    await using srv = await httpServer(registry, { drainMs: 0 });
    await using alice = await v2HttpClient(srv.url);
    // Anonymous callers are their network peer: bob connects from another loopback address.
    await using bob = await v2HttpClientFrom(srv.url, '127.0.0.2');
    const { task } = await request(alice, 'tools/call', { name: 'slow', arguments: {}, task: {} });
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      await expect(request(bob, method, { taskId: task.taskId })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining(`Task "${task.taskId}" not found`),
      });
    }
    expect(await request(alice, 'tasks/cancel', { taskId: task.taskId })).toMatchObject({ status: 'cancelled' });
    await expect(request(alice, 'tasks/cancel', { taskId: task.taskId })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('already cancelled'),
    });
  });

  it('refuses a task over the per-principal budget with what to do, and caps the TTL', async () => {
    const registry = f.registry().registerAll(
      f
        .action('slow')
        .task({ ttlMs: 120_000 })
        .handle((_input, _ctx, extra) => untilAborted(extra.signal)),
    );
    await using srv = await httpServer(registry, {
      drainMs: 0,
      tasks: { budgets: { maxActivePerPrincipal: 1, maxTtlMs: 30_000 } },
    });
    await using client = await v2HttpClient(srv.url);
    const first = await request(client, 'tools/call', { name: 'slow', arguments: {}, task: {} });
    expect(first.task.ttl).toBe(30_000);
    const second = await request(client, 'tools/call', { name: 'slow', arguments: {}, task: {} });
    expect(second).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'Cannot start "slow" as a task: you already have 1 active tasks (the limit). Wait for one to finish (tasks/get) or cancel one (tasks/cancel), then call again.',
        },
      ],
    });
    await request(client, 'tasks/cancel', { taskId: first.task.taskId });
    expect((await request(client, 'tools/call', { name: 'slow', arguments: {}, task: {} })).task.status).toBe(
      'working',
    );
  });

  it('stores no result over maxResultBytes: the task completes with an isError result saying to ask for less', async () => {
    const registry = f.registry().registerAll(
      f
        .action('dump')
        .task({ pollIntervalMs: 10 })
        .handle(async () => 'x'.repeat(500)),
    );
    await using srv = await httpServer(registry, { tasks: { budgets: { maxResultBytes: 200 } } });
    await using client = await v2HttpClient(srv.url);
    const { task } = await request(client, 'tools/call', { name: 'dump', arguments: {}, task: {} });
    const result = await request(client, 'tasks/result', { taskId: task.taskId });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(
      /^The result of "dump" is \d+ bytes, over the 200-byte limit a task may store; ask for less \(a page, a summary\) and call again\.$/,
    );
  });

  it("keeps a principal's stored results within its budget: past it, the result is replaced by what to do", async () => {
    const registry = f.registry().registerAll(
      f
        .action('dump')
        .task({ pollIntervalMs: 10 })
        .handle(async () => 'x'.repeat(150)),
    );
    await using srv = await httpServer(registry, { tasks: { budgets: { maxStoredBytesPerPrincipal: 300 } } });
    await using client = await v2HttpClient(srv.url);
    const first = await request(client, 'tools/call', { name: 'dump', arguments: {}, task: {} });
    expect((await request(client, 'tasks/result', { taskId: first.task.taskId })).content[0].text).toBe(
      'x'.repeat(150),
    );
    const second = await request(client, 'tools/call', { name: 'dump', arguments: {}, task: {} });
    expect(await request(client, 'tasks/result', { taskId: second.task.taskId })).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'The result of "dump" was not kept: your stored task results would pass 300 bytes. Read (tasks/get) the results you need, let old tasks expire, then call again.',
        },
      ],
    });
  });

  it('fails the running tasks of a server that shuts down, saying to call again (not a completed tool error)', async () => {
    const store = new MemoryTaskStore();
    const registry = f.registry().registerAll(
      f
        .action('long')
        .task()
        .handle(
          (_input, _ctx, extra) =>
            new Promise((_resolve, reject) =>
              extra.signal.addEventListener('abort', () => reject(extra.signal.reason)),
            ),
        ),
    );
    const srv = await httpServer(registry, { drainMs: 20, tasks: { store } });
    const client = await v2HttpClient(srv.url);
    const { task } = await request(client, 'tools/call', { name: 'long', arguments: {}, task: {} });
    await client.close();
    await srv.close();
    await expect.poll(async () => (await store.get(task.taskId))?.record.status).toBe('failed');
    expect((await store.get(task.taskId))!.record.error).toEqual({
      code: -32603,
      message: `The server instance running task "${task.taskId}" (long) shut down before it finished; call the tool again.`,
    });
    store.close();
  });

  it('refuses a task over the per-process budget, whoever asks', async () => {
    const registry = f.registry().registerAll(
      f
        .action('slow')
        .task()
        .handle((_input, _ctx, extra) => untilAborted(extra.signal)),
    );
    await using srv = await httpServer(registry, { drainMs: 0, tasks: { budgets: { maxActivePerProcess: 1 } } });
    await using alice = await v2HttpClient(srv.url);
    await using bob = await v2HttpClient(srv.url);
    expect((await request(alice, 'tools/call', { name: 'slow', arguments: {}, task: {} })).task.status).toBe('working');
    expect(await request(bob, 'tools/call', { name: 'slow', arguments: {}, task: {} })).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'Cannot start "slow" as a task: this server runs 1 tasks already (its limit). Try again shortly.',
        },
      ],
    });
  });

  it('asks the client from inside a task: the task shows input_required until the answer arrives; the request names its task in _meta', async () => {
    const registry = f.registry().registerAll(
      f
        .action('publish')
        .task({ pollIntervalMs: 10 })
        .handle(async (_input, _ctx, extra) => {
          const answer = await extra.elicit({
            mode: 'form',
            message: 'Publish?',
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
          });
          return `published: ${JSON.stringify(answer.content)}`;
        }),
    );
    await using srv = await httpServer(registry, { drainMs: 0 });
    const client = new Client({ name: 'asked', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    let reply!: () => void;
    const replied = new Promise<void>((resolve) => (reply = resolve));
    let asked!: () => void;
    const wasAsked = new Promise<void>((resolve) => (asked = resolve));
    let meta: unknown;
    client.setRequestHandler('elicitation/create', async (req) => {
      meta = req.params._meta;
      asked();
      await replied;
      return { action: 'accept', content: { ok: true } };
    });
    // The server asks on the session's standalone GET stream, which the client opens after connecting: wait for it
    // (a request sent before it is open is not delivered).
    const watched = watchingStream(fetch);
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.url), { fetch: watched.fetch }));
    await watched.opened;
    try {
      const { task } = await request(client, 'tools/call', { name: 'publish', arguments: {}, task: {} });
      await wasAsked;
      expect(meta).toEqual({ 'io.modelcontextprotocol/related-task': { taskId: task.taskId } });
      expect(await request(client, 'tasks/get', { taskId: task.taskId })).toMatchObject({ status: 'input_required' });
      reply();
      expect((await request(client, 'tasks/result', { taskId: task.taskId })).content).toEqual([
        { type: 'text', text: 'published: {"ok":true}' },
      ]);
      expect(await request(client, 'tasks/get', { taskId: task.taskId })).toMatchObject({ status: 'completed' });
    } finally {
      await client.close();
    }
  });

  it('reports each status change of a task to the debug observer (not every progress message)', async () => {
    const events: DebugEvent[] = [];
    const registry = f.registry().registerAll(
      f
        .action('count')
        .task({ pollIntervalMs: 10 })
        .handle(async (_input, _ctx, extra) => {
          for (let i = 1; i <= 3; i++) await extra.progress(i, 3);
          return 'counted';
        }),
    );
    await using srv = await httpServer(registry, { debug: (event) => void events.push(event) });
    await using client = await v2HttpClient(srv.url);
    const { task } = await request(client, 'tools/call', { name: 'count', arguments: {}, task: {} });
    await request(client, 'tasks/result', { taskId: task.taskId });
    const lines = events.filter((e) => e.type === 'task').map((e) => formatDebugEvent(e));
    expect(lines).toEqual([`task ${task.taskId} count working`, `task ${task.taskId} count completed`]);
  });
});
