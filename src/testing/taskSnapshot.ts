import type { ProtocolEra, ToolResponse } from '../protocol/types.js';

import type { TaskError, TaskStatus } from '../tasks/types.js';

export type { TaskError, TaskStatus } from '../tasks/types.js';

/**
 * One look at a task, the same shape in both eras (2025-11-25 `ttl`/`pollInterval` read as `ttlMs` and
 * `pollIntervalMs`). On 2026-07-28, `tasks/get` inlines the outcome: `result`, `error` or `inputRequests`.
 */
export interface TaskSnapshot {
  readonly era: ProtocolEra;
  readonly taskId: string;
  readonly status: TaskStatus;
  /** The task's progress message (`extra.progress(…)`), when it has one. */
  readonly statusMessage?: string;
  readonly createdAt?: string;
  readonly lastUpdatedAt?: string;
  /** How long the server keeps the task, from creation; `null` when unlimited. */
  readonly ttlMs?: number | null;
  /** The polling interval the server suggests. */
  readonly pollIntervalMs?: number;
  /** 2026-07-28, completed: the tool's result. */
  readonly result?: ToolResponse;
  /** 2026-07-28, failed: the JSON-RPC error. */
  readonly error?: TaskError;
  /** 2026-07-28, input_required: the requests to answer with `tasks/update`. */
  readonly inputRequests?: Record<string, unknown>;
  /** The task object as the server sent it. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/** A task names its task: its id, or anything carrying `taskId` (a {@link TaskSnapshot}). */
export type TaskRef = string | { readonly taskId: string };

/** The id of a {@link TaskRef}. */
export function taskIdOf(ref: TaskRef): string {
  return typeof ref === 'string' ? ref : ref.taskId;
}

/** True for the states a task never leaves. */
export function isTaskDone(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** A task object of either era (`tasks/get`, `tasks/cancel`, the task of a `tools/call`) as a {@link TaskSnapshot}. */
export function toSnapshot(era: ProtocolEra, raw: Record<string, unknown>): TaskSnapshot {
  const ttl = era === 'modern' ? raw.ttlMs : raw.ttl;
  const poll = era === 'modern' ? raw.pollIntervalMs : raw.pollInterval;
  const snapshot: Record<string, unknown> = { era, taskId: String(raw.taskId), status: raw.status, raw };
  if (typeof raw.statusMessage === 'string') snapshot.statusMessage = raw.statusMessage;
  if (typeof raw.createdAt === 'string') snapshot.createdAt = raw.createdAt;
  if (typeof raw.lastUpdatedAt === 'string') snapshot.lastUpdatedAt = raw.lastUpdatedAt;
  if (typeof ttl === 'number' || ttl === null) snapshot.ttlMs = ttl;
  if (typeof poll === 'number') snapshot.pollIntervalMs = poll;
  if (isObject(raw.result)) snapshot.result = toolResult(raw.result);
  if (isObject(raw.error)) snapshot.error = raw.error;
  if (isObject(raw.inputRequests)) snapshot.inputRequests = raw.inputRequests;
  return snapshot as unknown as TaskSnapshot;
}

/** A tool result (`CallToolResult`) without the 2026-07-28 discriminator (`resultType`). */
export function toolResult(raw: Record<string, unknown>): ToolResponse {
  const { resultType: _discriminator, ...result } = raw;
  return { ...result, content: Array.isArray(result.content) ? result.content : [] } as ToolResponse;
}

/** True for a plain object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
