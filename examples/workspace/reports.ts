import { initFusion } from 'mcp-fusion';
import type { AppContext } from './registry.js';

const f = initFusion<AppContext>();

/** Resolves after `ms`, or rejects as soon as the task is cancelled (`signal`). */
function step(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

/**
 * A long-running tool: the sprint report takes a while per page, so it runs as a task when the client
 * supports tasks (both eras) and reports each page as the task's status. Written like any handler.
 * @see docs/tasks.md
 */
export const generateReport = f
  .action('reports.generate')
  .describe('Generate the report of a sprint (takes a while: runs as a task when your client supports tasks)')
  .withString('sprint_id', 'The sprint, e.g. "s1" (see sprints.list)')
  .withOptionalNumber('pages', 'How many pages (1–20, default 5)')
  .task({ ttlMs: 3_600_000, pollIntervalMs: 500 })
  .handle(async ({ sprint_id, pages = 5 }, ctx, extra) => {
    const sprint = ctx.db.sprints.get(sprint_id);
    if (sprint === undefined)
      return {
        content: [{ type: 'text', text: `No sprint "${sprint_id}"; call sprints.list to see the sprints.` }],
        isError: true,
      };
    const count = Math.min(20, Math.max(1, Math.trunc(pages)));
    for (let page = 1; page <= count; page++) {
      await step(200, extra.signal);
      await extra.progress(page, count, `page ${page} of ${count}`);
    }
    return `Report of ${sprint.name}: ${count} pages, ${sprint.taskIds.length} tasks.`;
  });
