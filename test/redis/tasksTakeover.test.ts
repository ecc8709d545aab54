import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  callToolAsTask,
  modernTaskEndpoint,
  taskResult,
  waitForTask,
  type TaskChannel,
  type TaskSnapshot,
} from '../../src/testing/index.js';
import { uniquePrefix } from './clients.js';
import { taskProcess, type TaskProcess } from './taskProcess.js';

/** Short, so that a takeover comes within a test; instances renew it every third of it. */
const LEASE_MS = 1_000;
/** What a loaded machine (two cores, several suites) may add to a takeover: process scheduling and polls. */
const SLACK_MS = 2_000;

/** Where the client's requests go: `to.port` (switched from A to B when A dies). */
interface Route {
  port: number;
}

const toPort = (route: Route) => (url: string | URL | Request, init?: RequestInit) => {
  const request = new Request(url, init);
  const target = new URL(request.url);
  target.port = String(route.port);
  return fetch(new Request(target, request));
};

async function channel(
  era: 'legacy' | 'modern',
  route: Route,
): Promise<{ ch: TaskChannel | Client; close(): Promise<void> }> {
  if (era === 'modern') {
    const ch = modernTaskEndpoint('http://127.0.0.1/mcp', { fetch: toPort(route) });
    return { ch, close: async () => {} };
  }
  const client = new Client({ name: 'takeover', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: toPort(route) }));
  return { ch: client, close: () => client.close() };
}

const ATTEMPT = 'fusion/attempt';

const lostText = (id: string, tool: string) =>
  `The server instance running task "${id}" (${tool}, attempt 1) stopped before it finished. ` +
  `Its work may be partly done and "${tool}" is not declared safe to repeat: check its effects before calling again.`;

describe(
  'the instance running a task is killed mid-run: another instance applies the tool policy within the lease',
  { timeout: 60_000 },
  () => {
    const started: TaskProcess[] = [];
    afterEach(async () => {
      for (const p of started.splice(0)) await p.kill();
    });

    async function twoInstances(): Promise<[TaskProcess, TaskProcess]> {
      const prefix = uniquePrefix('takeover');
      const env = { LEASE_MS: String(LEASE_MS) };
      const [a, b] = await Promise.all([taskProcess(prefix, env), taskProcess(prefix, env)]);
      started.push(a, b);
      return [a, b];
    }

    /** Starts `tool` on A, waits until its handler says it runs there, kills A and follows the task on B. */
    async function killMidRun(era: 'legacy' | 'modern', tool: string, args: Record<string, unknown>) {
      const [a, b] = await twoInstances();
      const route: Route = { port: a.port };
      const client = await channel(era, route);
      const task = await callToolAsTask(client.ch, tool, args);
      await waitForTask(client.ch, task, {
        until: (t) => t.statusMessage === `running on ${a.proc.pid}`,
        timeoutMs: 15_000,
      });
      await a.kill();
      const killedAt = performance.now();
      route.port = b.port;
      const seen: Array<{ at: number; task: TaskSnapshot }> = [];
      const done = await waitForTask(client.ch, task, {
        timeoutMs: 20_000,
        onPoll: (t) => seen.push({ at: performance.now() - killedAt, task: t }),
      });
      return { a, b, task, done, seen, client };
    }

    for (const era of ['legacy', 'modern'] as const) {
      it(`${era === 'legacy' ? '2025-11-25' : '2026-07-28'}: a tool not declared safe to repeat ends failed, saying the work may be partly done`, async () => {
        const { task, done, seen, client } = await killMidRun(era, 'jobs.hold', {});
        try {
          expect(done.status).toBe('failed');
          expect(done.statusMessage).toBe(lostText(task.taskId, 'jobs.hold'));
          if (era === 'modern')
            expect(done.error).toEqual({ code: -32603, message: lostText(task.taskId, 'jobs.hold') });
          const failedAt = seen.find((s) => s.task.status === 'failed')!.at;
          expect(failedAt).toBeLessThan(LEASE_MS + LEASE_MS / 4 + SLACK_MS);
        } finally {
          await client.close();
        }
      });

      it(`${era === 'legacy' ? '2025-11-25' : '2026-07-28'}: a tool declared safe to repeat runs again on B and completes as attempt 2`, async () => {
        const { b, done, seen, task, client } = await killMidRun(era, 'jobs.retry', { ms: 600 });
        try {
          expect(done.status).toBe('completed');
          const attempt = (t: TaskSnapshot): unknown => (t.raw._meta as Record<string, unknown> | undefined)?.[ATTEMPT];
          expect(attempt(done)).toBe(2);
          // Taken over within the lease (plus one sweep), as B reports: attempt 2 on B, or its handler running there.
          const retried = seen.find((s) => s.task.status !== 'completed' && attempt(s.task) === 2);
          expect(retried?.task.statusMessage).toMatch(
            new RegExp(
              `^(Attempt 2 of 2: the server instance running the previous attempt stopped; running again\\.|running on ${b.proc.pid})$`,
            ),
          );
          expect(retried!.at).toBeLessThan(LEASE_MS + LEASE_MS / 4 + SLACK_MS);
          const result = await taskResult(client.ch, task);
          expect(result.content).toEqual([{ type: 'text', text: `ran 600 ms on ${b.proc.pid}` }]);
        } finally {
          await client.close();
        }
      });
    }
  },
);
