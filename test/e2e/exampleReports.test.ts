import { describe, expect, it } from 'vitest';
import { resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { httpServer } from '../_helpers/clients.js';
import { extTaskSession, modernRequest } from '../_helpers/extTasks.js';

describe('the workspace example: reports.generate, a long-running tool', () => {
  it.each(['legacy', 'modern'] as const)(
    'runs as a task for the official Tasks client (%s era), page by page',
    async (era) => {
      await using srv = await httpServer(registry, workspaceOptions());
      await using ext = await extTaskSession(srv.url, era);
      const execution = await ext.session.callTool(
        'reports.generate',
        { sprint_id: 's1', pages: 2 },
        { task: { preference: 'require' } },
      );
      expect(execution.kind).toBe('task');
      const { outcome } = await execution.settle();
      expect(resultFromTaskOutcome(outcome)).toMatchObject({
        content: [{ type: 'text', text: 'Report of Sprint 1: 2 pages, 1 tasks.' }],
      });
    },
  );

  it('shows its progress as the status message while it runs', async () => {
    await using srv = await httpServer(registry, workspaceOptions());
    const { taskId } = await modernRequest(srv.url, 'tools/call', {
      name: 'reports.generate',
      arguments: { sprint_id: 's1', pages: 3 },
    });
    await expect
      .poll(async () => (await modernRequest(srv.url, 'tasks/get', { taskId })).statusMessage, {
        interval: 50,
        timeout: 5_000,
      })
      .toBe('page 1 of 3');
    await expect
      .poll(async () => (await modernRequest(srv.url, 'tasks/get', { taskId })).status, {
        interval: 50,
        timeout: 5_000,
      })
      .toBe('completed');
    expect((await modernRequest(srv.url, 'tasks/get', { taskId })).statusMessage).toBe('page 3 of 3');
  });
});
