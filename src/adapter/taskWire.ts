import { WireError } from '../errors/WireError.js';
import type { TaskRecord } from '../tasks/types.js';

/** The extension identifier of SEP-2663 tasks (2026-07-28). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * mcp-fusion's extension beside the tasks extension on 2026-07-28: the server answers
 * {@link MODERN_TASKS_LIST} (the caller's own tasks, paged with `cursor`/`nextCursor`), a task inventory the
 * 2026-07-28 Tasks extension does not have.
 */
export const TASKS_LIST_EXTENSION = 'io.mcp-fusion/tasks-list';

/**
 * The method of that inventory on 2026-07-28. Not `tasks/list`: SEP-2663 removes it, and a server MUST
 * answer it with -32601 (the SDK does so before any handler; the conformance check `tasks-removed-tasks-list`).
 */
export const MODERN_TASKS_LIST = 'io.mcp-fusion/tasks/list';

/** JSON-RPC `-32021` Missing Required Client Capability (2026-07-28). */
export const MISSING_CAPABILITY = -32021;

const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** The `_meta` key of a task object naming its attempt, once another instance took it over and ran it again. */
export const TASK_ATTEMPT = 'fusion/attempt';

/** `_meta` with the attempt of a task on its second run or later (nothing on its first). */
const attemptMeta = (record: TaskRecord): Record<string, unknown> =>
  (record.attempt ?? 1) > 1 ? { _meta: { [TASK_ATTEMPT]: record.attempt } } : {};

/** A task as the 2026-07-28 extension shows it (`DetailedTask` with `detailed`: result, error or input requests inlined). */
export function modernTask(record: TaskRecord, detailed = false): Record<string, unknown> {
  const task: Record<string, unknown> = {
    taskId: record.id,
    status: record.status,
    ...(record.statusMessage !== undefined ? { statusMessage: record.statusMessage } : {}),
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
    ...attemptMeta(record),
  };
  if (!detailed) return task;
  // Inlined as the 2026-07-28 tools/call would have answered it, discriminator included.
  if (record.status === 'completed' && record.result !== undefined)
    task.result = { resultType: 'complete', ...record.result };
  if (record.status === 'failed' && record.error !== undefined) task.error = record.error;
  if (record.status === 'input_required') task.inputRequests = record.inputRequests ?? {};
  return task;
}

/** A task as the 2025-11-25 revision shows it (`ttl`, `pollInterval`). */
export function legacyTask(record: TaskRecord): Record<string, unknown> {
  return {
    taskId: record.id,
    status: record.status,
    ...(record.statusMessage !== undefined ? { statusMessage: record.statusMessage } : {}),
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttl: record.ttlMs,
    pollInterval: record.pollIntervalMs,
    ...attemptMeta(record),
  };
}

/**
 * What legacy `tasks/result` answers for a terminal task: the tool's result with the related-task `_meta`,
 * or (failed) the JSON-RPC error it failed with; a cancelled task has no result.
 */
export function taskPayload(record: TaskRecord): Record<string, unknown> {
  if (record.status === 'failed')
    throw new WireError(record.error?.code ?? -32603, record.error?.message ?? 'The task failed.', record.error?.data);
  if (record.status === 'cancelled' || record.result === undefined)
    throw new WireError(-32602, `Task "${record.id}" was cancelled; it has no result.`);
  const meta = {
    ...(record.result._meta as Record<string, unknown> | undefined),
    [RELATED_TASK]: { taskId: record.id },
  };
  return { ...record.result, _meta: meta };
}
