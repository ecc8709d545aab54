import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Redis } from 'ioredis';
import { initFusion, type RunningServer } from '../../src/index.js';
import { RedisTaskStore } from '../../src/redis/index.js';
import { httpServer } from '../_helpers/clients.js';
import { freePort } from '../_helpers/freePort.js';
import { portAnswers } from '../_helpers/waitFor.js';
import { resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { extTaskSession, modernRequest } from '../_helpers/extTasks.js';
import { ready, redisClient, uniquePrefix } from './clients.js';
import { sourceChild } from '../_helpers/sourceChild.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const f = initFusion();
const LEASE_MS = 600;

/** The fixture task server in its own process, sharing Redis under `prefix`; resolves once its port answers. */
async function taskProcess(prefix: string): Promise<{ url: string; kill(): Promise<void>; proc: ChildProcess }> {
  const port = await freePort();
  const proc = spawn(process.execPath, sourceChild('test/redis/fixtures/taskServer.ts'), {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      REDIS_URL: inject('redisUrl'),
      REDIS_PREFIX: prefix,
      LEASE_MS: String(LEASE_MS),
      NODE_OPTIONS: '',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  proc.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  await portAnswers(port, { proc, log: () => log, what: 'the task server' });
  const url = `http://127.0.0.1:${port}/mcp`;
  const kill = async (): Promise<void> => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGKILL');
    await exited;
  };
  return { url, kill, proc };
}

/** Instance B, in this process: the same tool and the same Redis prefix; `reads` counts the task reads it served. */
async function instanceB(
  client: Redis,
  prefix: string,
): Promise<RunningServer & AsyncDisposable & { reads: () => number }> {
  const registry = f.registry().registerAll(
    f
      .action('jobs.run')
      .withNumber('ms')
      .task({ pollIntervalMs: 20 })
      .handle(() => 'B never runs jobs in these tests'),
  );
  let reads = 0;
  const store = new RedisTaskStore({ client, prefix });
  const get = store.get.bind(store);
  store.get = (id) => (reads++, get(id));
  const srv = await httpServer(registry, { drainMs: 0, tasks: { store, leaseMs: LEASE_MS } });
  return Object.assign(srv, { reads: () => reads });
}

const get = (url: string, taskId: string) => modernRequest(url, 'tasks/get', { taskId });

describe('tasks across two processes on one Redis (modern era, same anonymous caller)', () => {
  let client: Redis;
  const started: Array<{ kill(): Promise<void> }> = [];
  beforeAll(async () => {
    client = await ready(redisClient());
  });
  afterEach(async () => {
    for (const p of started.splice(0)) await p.kill();
  });

  it('a task started on A is polled and cancelled on B, and A sees the cancel', async () => {
    const prefix = uniquePrefix('tasks');
    const a = await taskProcess(prefix);
    started.push(a);
    await using b = await instanceB(client, prefix);
    const created = await modernRequest(a.url, 'tools/call', { name: 'jobs.run', arguments: { ms: 60_000 } });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    expect(await get(b.url, created.taskId)).toMatchObject({
      taskId: created.taskId,
      status: 'working',
      resultType: 'complete',
    });
    const ack = await modernRequest(b.url, 'tasks/cancel', { taskId: created.taskId });
    expect(ack.resultType).toBe('complete');
    expect(Object.keys(ack).filter((k) => ['taskId', 'status', 'result', 'error'].includes(k))).toEqual([]);
    expect(await get(a.url, created.taskId)).toMatchObject({ status: 'cancelled' });
  });

  it('input asked by the work on A is answered through B (tasks/update), and the work on A resumes', async () => {
    const prefix = uniquePrefix('tasks');
    const a = await taskProcess(prefix);
    started.push(a);
    await using b = await instanceB(client, prefix);
    const created = await modernRequest(a.url, 'tools/call', { name: 'jobs.ask', arguments: {} });
    await expect
      .poll(async () => (await get(b.url, created.taskId)).status, { interval: 20, timeout: 5_000 })
      .toBe('input_required');
    const waiting = await get(b.url, created.taskId);
    const [key] = Object.keys(waiting.inputRequests);
    expect(waiting.inputRequests[key!]).toMatchObject({ method: 'elicitation/create', params: { message: 'Name?' } });
    expect(
      (
        await modernRequest(b.url, 'tasks/update', {
          taskId: created.taskId,
          inputResponses: { [key!]: { action: 'accept', content: { name: 'Ada' } } },
        })
      ).resultType,
    ).toBe('complete');
    await expect
      .poll(async () => (await get(b.url, created.taskId)).status, { interval: 20, timeout: 5_000 })
      .toBe('completed');
    expect((await get(a.url, created.taskId)).result.content[0].text).toBe(`Hello, Ada, from ${a.proc.pid}`);
  });

  it('a result completed on A is served by B after A is killed', async () => {
    const prefix = uniquePrefix('tasks');
    const a = await taskProcess(prefix);
    started.push(a);
    await using b = await instanceB(client, prefix);
    const created = await modernRequest(a.url, 'tools/call', { name: 'jobs.run', arguments: { ms: 50 } });
    await expect
      .poll(async () => (await get(a.url, created.taskId)).status, { interval: 20, timeout: 5_000 })
      .toBe('completed');
    await a.kill();
    const done = await get(b.url, created.taskId);
    expect(done.result.content[0].text).toBe(`ran 50 ms on ${a.proc.pid}`);
  });

  it('work on an instance killed with SIGKILL becomes failed with a clear error once its lease expires', async () => {
    const prefix = uniquePrefix('tasks');
    const a = await taskProcess(prefix);
    started.push(a);
    await using b = await instanceB(client, prefix);
    const created = await modernRequest(a.url, 'tools/call', { name: 'jobs.run', arguments: { ms: 60_000 } });
    await a.kill();
    const killedAt = Date.now();
    expect((await get(b.url, created.taskId)).status).toBe('working');
    await expect
      .poll(async () => (await get(b.url, created.taskId)).status, { interval: 50, timeout: 10_000 })
      .toBe('failed');
    expect(Date.now() - killedAt).toBeLessThan(LEASE_MS + 5_000);
    const failed = await get(b.url, created.taskId);
    expect(failed.error).toEqual({
      code: -32603,
      message: `The server instance running task "${created.taskId}" (jobs.run, attempt 1) stopped before it finished. Its work may be partly done and "jobs.run" is not declared safe to repeat: check its effects before calling again.`,
    });
  });

  it('the official Tasks client, its requests alternating between the two processes, settles a task run by one of them', async () => {
    const prefix = uniquePrefix('tasks');
    const a = await taskProcess(prefix);
    started.push(a);
    await using b = await instanceB(client, prefix);
    await using ext = await extTaskSession(a.url, 'modern', [a.url, b.url]);
    const execution = await ext.session.callTool('jobs.run', { ms: 300 }, { task: { preference: 'require' } });
    expect(execution.kind).toBe('task');
    const { outcome } = await execution.settle();
    // tools/call went to A (the first URL), so A's process ran the job; the polls went to both.
    expect(resultFromTaskOutcome(outcome)).toMatchObject({
      content: [{ type: 'text', text: `ran 300 ms on ${a.proc.pid}` }],
    });
    expect(b.reads()).toBeGreaterThan(0);
  });
});
