import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion, JsonRpcCode, WireError } from '../../src/index.js';
import {
  callToolAsTask,
  cancelTask,
  createClock,
  createTestClient,
  getTask,
  modernTaskEndpoint,
  taskResult,
  TaskEndedError,
  TaskHelperError,
  TaskNotStartedError,
  TaskWaitTimeoutError,
  waitForTask,
  type TaskTarget,
} from '../../src/testing/index.js';
import { httpServer, pooledFetch, v2HttpClient } from '../_helpers/clients.js';

const f = initFusion();

/** A latch the test opens. */
function latch() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Task tools that finish, fail or report an error when the test says so (never within their call). */
function fixture(pollIntervalMs = 5_000) {
  const finish = latch();
  const registry = f.registry().registerAll(
    f.query('plain').handle(() => 'plain answer'),
    f
      .action('reports.generate')
      .withString('title')
      .task({ pollIntervalMs })
      .handle(async ({ title }, _ctx, extra) => {
        await extra.progress(1, 2, 'collecting');
        // A cancel during the await above has fired already: its listener below would never hear it.
        extra.signal.throwIfAborted();
        await Promise.race([
          finish.opened,
          new Promise((_, reject) => extra.signal.addEventListener('abort', () => reject(extra.signal.reason))),
        ]);
        return `Report "${title}" ready`;
      }),
    f
      .action('reports.broken')
      .task({ pollIntervalMs })
      .handle(async () => {
        await finish.opened;
        throw new WireError(JsonRpcCode.InternalError, 'the report engine is down');
      }),
    f
      .action('reports.empty')
      .task({ pollIntervalMs })
      .handle(async () => {
        await finish.opened;
        return { isError: true, content: [{ type: 'text', text: 'No data for this sprint' }] };
      }),
  );
  return { registry, finish: finish.open };
}

/**
 * A test clock that moves by each wait the helpers ask for, at once: polls come back to back in real time
 * and at the server's hint in the clock's time; `waits` records every wait asked for.
 */
function steppingClock() {
  const clock = createClock();
  const waits: number[] = [];
  return {
    waits,
    now: clock.now,
    setTimeout(fn: () => void, ms: number) {
      waits.push(ms);
      const timer = clock.setTimeout(fn, ms);
      queueMicrotask(() => clock.advance(ms));
      return timer;
    },
  };
}

type Target = { target: TaskTarget } & AsyncDisposable;

/** The three ways a test reaches the task tools: each era, through what its clients use. */
const targets: Record<string, (registry: ReturnType<typeof fixture>['registry']) => Promise<Target>> = {
  'legacy, in memory (createTestClient)': async (registry) => {
    const t = await createTestClient(registry);
    return { target: t, [Symbol.asyncDispose]: () => t.close() };
  },
  'legacy, SDK Client over HTTP': async (registry) => {
    const srv = await httpServer(registry, { drainMs: 0 });
    const client = await v2HttpClient(srv.url);
    return {
      target: client,
      async [Symbol.asyncDispose]() {
        await client[Symbol.asyncDispose]();
        await srv.close();
      },
    };
  },
  '2026-07-28 over HTTP (modernTaskEndpoint)': async (registry) => {
    const srv = await httpServer(registry, { drainMs: 0 });
    const pool = pooledFetch();
    return {
      target: modernTaskEndpoint(srv.url, { fetch: pool.send }),
      async [Symbol.asyncDispose]() {
        await pool.close();
        await srv.close();
      },
    };
  },
};

describe.each(Object.entries(targets))('task helpers, %s', (label, connect) => {
  it('calls a task tool as a task, polls it at the server hint and reads its result', async () => {
    const { registry, finish } = fixture();
    await using c = await connect(registry);
    const task = await callToolAsTask(c.target, 'reports.generate', { title: 'Q3' });
    expect(task).toMatchObject({ status: 'working', pollIntervalMs: 5_000, ttlMs: 3_600_000 });
    expect(await getTask(c.target, task)).toMatchObject({ taskId: task.taskId, statusMessage: 'collecting' });

    const clock = steppingClock();
    const statuses: string[] = [];
    const done = waitForTask(c.target, task, { clock, onPoll: (t) => statuses.push(t.status) });
    finish();
    expect(await done).toMatchObject({ taskId: task.taskId, status: 'completed' });
    expect(statuses.at(-1)).toBe('completed');
    expect(statuses.slice(0, -1).every((s) => s === 'working')).toBe(true);
    // Every wait between polls was the server's hint, on the injected clock.
    expect(clock.waits).toEqual(statuses.slice(1).map(() => 5_000));

    const result = await taskResult(c.target, task, { clock });
    expect(result.isError).not.toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'Report "Q3" ready' }]);
  });

  it('cancels a running task: it ends cancelled and has no result', async () => {
    const { registry } = fixture();
    await using c = await connect(registry);
    const task = await callToolAsTask(c.target, 'reports.generate', { title: 'never' });
    expect(await cancelTask(c.target, task)).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    expect((await waitForTask(c.target, task, { clock: steppingClock() })).status).toBe('cancelled');
    const ended = await taskResult(c.target, task, { clock: steppingClock() }).catch((e: unknown) => e);
    expect(ended).toBeInstanceOf(TaskEndedError);
    expect(ended).toMatchObject({
      message: `Task "${task.taskId}" ended cancelled; it has no result.`,
      task: { status: 'cancelled' },
    });
  });

  it('reports a thrown WireError as a failed task, and an isError result as a completed one', async () => {
    const { registry, finish } = fixture();
    await using c = await connect(registry);
    const broken = await callToolAsTask(c.target, 'reports.broken');
    const empty = await callToolAsTask(c.target, 'reports.empty');
    finish();
    const failure = await taskResult(c.target, broken, { clock: steppingClock() }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TaskEndedError);
    expect(failure).toMatchObject({
      message: `Task "${broken.taskId}" ended failed: the report engine is down (JSON-RPC -32603); it has no result.`,
      task: { status: 'failed', error: { code: -32603, message: 'the report engine is down' } },
    });
    expect(await taskResult(c.target, empty, { clock: steppingClock() })).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'No data for this sprint' }],
    });
    expect((await getTask(c.target, empty)).status).toBe('completed');
  });

  it('gives up waiting after timeoutMs of the clock, with the last status', async () => {
    const { registry } = fixture();
    await using c = await connect(registry);
    const task = await callToolAsTask(c.target, 'reports.generate', { title: 'slow' });
    const clock = steppingClock();
    const error = await waitForTask(c.target, task, { clock, timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskWaitTimeoutError);
    expect((error as Error).message).toBe(
      `Task "${task.taskId}" is still working ("collecting") after 10000 ms; let its handler finish, or raise timeoutMs.`,
    );
    expect(clock.waits).toEqual([5_000, 5_000]);
    await cancelTask(c.target, task);
  });

  it('leaves a finished task as it is when asked to cancel it (2025-11-25 refuses, 2026-07-28 acknowledges)', async () => {
    const { registry, finish } = fixture();
    await using c = await connect(registry);
    const task = await callToolAsTask(c.target, 'reports.generate', { title: 'done' });
    finish();
    expect((await waitForTask(c.target, task, { clock: steppingClock() })).status).toBe('completed');
    if (label.startsWith('legacy')) {
      await expect(cancelTask(c.target, task)).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('already completed'),
      });
    } else expect((await cancelTask(c.target, task)).status).toBe('completed');
  });

  it('stops waiting when its signal aborts, cancelling the pending wait on the clock', async () => {
    const { registry } = fixture();
    await using c = await connect(registry);
    const task = await callToolAsTask(c.target, 'reports.generate', { title: 'waited' });
    const clock = createClock();
    const controller = new AbortController();
    const stop = new Error('the test stopped waiting');
    const waiting = waitForTask(c.target, task, {
      signal: controller.signal,
      clock: {
        now: clock.now,
        setTimeout: (fn, ms) => {
          const timer = clock.setTimeout(fn, ms);
          queueMicrotask(() => controller.abort(stop));
          return timer;
        },
      },
    });
    await expect(waiting).rejects.toBe(stop);
    expect(clock.pending).toBe(0);
    expect((await cancelTask(c.target, task)).status).toBe('cancelled');
  });

  it("says so when the server answers with the tool's result instead of a task, and refuses unknown ids", async () => {
    const { registry } = fixture();
    await using c = await connect(registry);
    const answer = await callToolAsTask(c.target, 'plain').catch((e: unknown) => e);
    expect(answer).toBeInstanceOf(TaskNotStartedError);
    expect(answer).toMatchObject({
      message: expect.stringContaining(
        'tools/call "plain" answered with its result instead of a task ("plain answer")',
      ),
      result: { content: [{ type: 'text', text: 'plain answer' }] },
    });
    await expect(getTask(c.target, 'no-such-task')).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Task "no-such-task" not found'),
    });
  });
});

describe('task helper targets', () => {
  it('refuses an SDK Client that negotiated 2026-07-28, naming modernTaskEndpoint', async () => {
    const { registry } = fixture();
    await using srv = await httpServer(registry);
    await using client = await v2HttpClient(srv.url, 'auto');
    expect(client.getProtocolEra()).toBe('modern');
    const refused = await callToolAsTask(client, 'reports.generate', { title: 'x' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TaskHelperError);
    expect((refused as Error).message).toMatch(/negotiated 2026-07-28.*Pass modernTaskEndpoint\(url\)/);
  });

  it('reports a task the server refused to start (a budget) with its error result, in both eras', async () => {
    const { registry } = fixture();
    await using srv = await httpServer(registry, { drainMs: 0, tasks: { budgets: { maxActivePerPrincipal: 1 } } });
    await using client = await v2HttpClient(srv.url);
    for (const target of [client, modernTaskEndpoint(srv.url)]) {
      const first = await callToolAsTask(target, 'reports.generate', { title: 'one' });
      const refused = await callToolAsTask(target, 'reports.generate', { title: 'two' }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(TaskNotStartedError);
      expect((refused as TaskNotStartedError).result.isError).toBe(true);
      expect((refused as Error).message).toMatch(
        /^tools\/call "reports\.generate" started no task: it answered with an error result \("Cannot start "reports\.generate" as a task: you already have 1 active tasks/,
      );
      await cancelTask(target, first);
    }
  });

  it('asks a legacy TTL with ttlMs, and refuses one on 2026-07-28', async () => {
    const { registry } = fixture();
    await using srv = await httpServer(registry, { drainMs: 0 });
    await using client = await v2HttpClient(srv.url);
    expect((await callToolAsTask(client, 'reports.generate', { title: 'x' }, { ttlMs: 60_000 })).ttlMs).toBe(60_000);
    await expect(
      callToolAsTask(modernTaskEndpoint(srv.url), 'reports.generate', { title: 'x' }, { ttlMs: 60_000 }),
    ).rejects.toThrow(/on 2026-07-28 a task's TTL is the tool's/);
  });
});

describe('modernTaskEndpoint', () => {
  it("sends in process through an app's fetch, with the revision's headers and the caller's own", async () => {
    const { registry } = fixture();
    const app = createFusionApp(registry);
    const seen: Array<Record<string, string | null>> = [];
    const tasks = modernTaskEndpoint('http://127.0.0.1/mcp', {
      headers: { 'x-tenant': 'acme' },
      fetch: (request) => {
        const pick = ['mcp-protocol-version', 'mcp-method', 'mcp-name', 'x-tenant'] as const;
        seen.push(Object.fromEntries(pick.map((h) => [h, request.headers.get(h)])));
        return app.fetch(request);
      },
    });
    const task = await callToolAsTask(tasks, 'reports.generate', { title: 'in process' });
    expect((await cancelTask(tasks, task)).status).toBe('cancelled');
    const base = { 'mcp-protocol-version': '2026-07-28', 'x-tenant': 'acme' };
    expect(seen).toEqual([
      { ...base, 'mcp-method': 'tools/call', 'mcp-name': 'reports.generate' },
      { ...base, 'mcp-method': 'tasks/cancel', 'mcp-name': task.taskId },
      { ...base, 'mcp-method': 'tasks/get', 'mcp-name': task.taskId },
    ]);
    await app.close();
  });

  it('encodes a name outside plain ASCII as SEP-2243 says, and the server reads it', async () => {
    const { registry } = fixture();
    const app = createFusionApp(registry);
    const names: Array<string | null> = [];
    const tasks = modernTaskEndpoint('http://127.0.0.1/mcp', {
      fetch: (request) => (names.push(request.headers.get('mcp-name')), app.fetch(request)),
    });
    // The header matched the body (else the answer would be an HTTP 400 without a JSON-RPC answer).
    await expect(callToolAsTask(tasks, 'rapport.été')).rejects.toMatchObject({
      message: expect.stringContaining('rapport.été'),
    });
    expect(names).toEqual([`=?base64?${Buffer.from('rapport.été').toString('base64')}?=`]);
    await app.close();
  });
});
