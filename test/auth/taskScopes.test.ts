import type { Client } from '@modelcontextprotocol/client';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion, MemoryTaskStore } from '../../src/index.js';
import {
  callToolAsTask,
  cancelTask,
  createTestClient,
  getTask,
  modernTaskEndpoint,
  taskResult,
} from '../../src/testing/index.js';

const anything = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } as any;
const request = (client: Client, method: string, params: Record<string, unknown>): Promise<any> =>
  client.request({ method, params } as any, anything);

/** A task tool needing `admin` whose work waits until `release()`. */
function auditExport() {
  const f = initFusion();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const registry = f.registry().registerAll(
    f
      .action('audit.export')
      .requireScopes('admin')
      .task({ pollIntervalMs: 10 })
      .handle(async () => {
        await released;
        return 'the audit log';
      }),
  );
  return { registry, release };
}

describe('a task needs, later, the scopes its call needed', () => {
  it('refuses tasks/get, tasks/result and tasks/cancel to the same user holding a token without them', async () => {
    const { registry, release } = auditExport();
    // One store for both connections: the same user, first with `admin`, then with a narrower token.
    const store = new MemoryTaskStore();
    const as = (scopes: string[]): AuthInfo => ({ token: 't', clientId: 'app', scopes, extra: { sub: 'alice' } });
    const admin = await createTestClient(registry, { tasks: { store }, authInfo: as(['admin']) });
    const reader = await createTestClient(registry, { tasks: { store }, authInfo: as([]) });
    try {
      const created = await request(admin.client, 'tools/call', { name: 'audit.export', arguments: {}, task: {} });
      const taskId = created.task.taskId as string;
      expect(await request(admin.client, 'tasks/get', { taskId })).toMatchObject({ taskId, status: 'working' });
      for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
        await expect(request(reader.client, method, { taskId }), method).rejects.toThrow(
          `insufficient_scope: task "${taskId}" of "audit.export" needs the scope admin; the access token lacks admin.`,
        );
      }
      // The refused cancel changed nothing: the task still runs and completes for the token that may read it.
      release();
      expect(await request(admin.client, 'tasks/result', { taskId })).toMatchObject({
        content: [{ type: 'text', text: 'the audit log' }],
      });
    } finally {
      await admin.close();
      await reader.close();
    }
  });

  it('does the same on 2026-07-28 (tasks/get, tasks/cancel), and lets the token with the scope finish it', async () => {
    const { registry, release } = auditExport();
    const app = createFusionApp(registry, {});
    const as = (scopes: string[]) =>
      modernTaskEndpoint('http://127.0.0.1/mcp', {
        fetch: (request) =>
          app.fetch(request, {
            authInfo: { token: 't', clientId: 'app', scopes, extra: { sub: 'alice', iss: 'https://id.example' } },
          } as never),
      });
    const admin = as(['admin']);
    const reader = as([]);
    try {
      const task = await callToolAsTask(admin, 'audit.export');
      expect(task.status).toBe('working');
      const refusal = `insufficient_scope: task "${task.taskId}" of "audit.export" needs the scope admin; the access token lacks admin.`;
      await expect(getTask(reader, task)).rejects.toThrow(refusal);
      await expect(cancelTask(reader, task)).rejects.toThrow(refusal);
      expect((await getTask(admin, task)).status).toBe('working');
      release();
      expect(await taskResult(admin, task)).toMatchObject({ content: [{ type: 'text', text: 'the audit log' }] });
    } finally {
      release();
      await app.close();
    }
  });
});
