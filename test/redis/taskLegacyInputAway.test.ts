import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { callToolAsTask, taskResult, waitForTask } from '../../src/testing/index.js';
import { uniquePrefix } from './clients.js';
import { taskProcess, workerProcess, type TaskProcess } from './taskProcess.js';

const LEASE_MS = 1_000;
/** Far below the SDK's 60 s request timeout that a request nobody sends would wait for. */
const FAST_MS = 10_000;

const awayText = (id: string, tool: string) =>
  `Task "${id}" (${tool}) cannot send elicitation/create to its client: it runs away from the 2025-11-25 session that started it ` +
  '(on a task worker, or run again after its instance stopped), and only an instance holding that session can send it requests. ' +
  'Ask for the input before starting the task (in its arguments), run the tool in the front process (no task queue), ' +
  'or call it from a 2026-07-28 client, whose task input goes through tasks/update on any instance.';

/** A 2025-11-25 SDK client that declares elicitation and notes every request it is sent; `port()` picks the instance. */
async function legacyClient(port: () => number) {
  const client = new Client({ name: 'input-away', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  const asked: unknown[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params);
    return { action: 'accept', content: { ok: true } };
  });
  const fetchTo = (url: string | URL | Request, init?: RequestInit) => {
    const request = new Request(url, init);
    const target = new URL(request.url);
    target.port = String(port());
    return fetch(new Request(target, request));
  };
  await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: fetchTo }));
  return { client, asked };
}

describe(
  "a 2025-11-25 task's elicitation away from its session fails at once, saying why and what to do (Redis, processes)",
  { timeout: 120_000 },
  () => {
    const started: Array<{ kill(): Promise<void> }> = [];
    afterAll(async () => {
      for (const p of started.splice(0)) await p.kill();
    });

    it('on a BullMQ worker: the task ends within seconds with the named error; the client is never asked', async () => {
      const prefix = uniquePrefix('input-away-worker');
      const env = { LEASE_MS: String(LEASE_MS) };
      const front = await taskProcess(prefix, { ...env, QUEUE: '1' });
      started.push(front);
      started.push(await workerProcess(prefix, env));
      const { client, asked } = await legacyClient(() => front.port);
      try {
        const t0 = performance.now();
        const task = await callToolAsTask(client, 'jobs.ask', {});
        const done = await waitForTask(client, task, { timeoutMs: FAST_MS });
        expect(performance.now() - t0).toBeLessThan(FAST_MS);
        // The handler's error, as any handler error: the task completes with an isError result saying it.
        expect(done.status).toBe('completed');
        const result = await taskResult(client, task);
        expect(result.isError).toBe(true);
        expect(result.content).toEqual([{ type: 'text', text: awayText(task.taskId, 'jobs.ask') }]);
        expect(asked).toEqual([]);
      } finally {
        await client.close();
      }
    });

    it('run again after its instance died: attempt 2 on B ends within seconds with the named error; the client is never asked', async () => {
      const prefix = uniquePrefix('input-away-takeover');
      const env = { LEASE_MS: String(LEASE_MS) };
      const [a, b]: TaskProcess[] = await Promise.all([taskProcess(prefix, env), taskProcess(prefix, env)]);
      started.push(a!, b!);
      let port = a!.port;
      const { client, asked } = await legacyClient(() => port);
      try {
        const task = await callToolAsTask(client, 'jobs.retryAsk', { ms: 2_000 });
        await waitForTask(client, task, {
          until: (t) => t.statusMessage === `running on ${a!.proc.pid}`,
          timeoutMs: 15_000,
        });
        await a!.kill();
        port = b!.port;
        const killedAt = performance.now();
        const done = await waitForTask(client, task, { timeoutMs: FAST_MS });
        expect(performance.now() - killedAt).toBeLessThan(FAST_MS);
        expect(done.status).toBe('completed');
        expect((done.raw._meta as Record<string, unknown> | undefined)?.['fusion/attempt']).toBe(2);
        const result = await taskResult(client, task);
        expect(result.isError).toBe(true);
        expect(result.content).toEqual([{ type: 'text', text: awayText(task.taskId, 'jobs.retryAsk') }]);
        expect(asked).toEqual([]);
      } finally {
        await client.close();
      }
    });
  },
);
