import { keepAliveClock, type Clock } from '../_internal/clock.js';
import type { ToolResponse } from '../protocol/types.js';
import { channelOf, type TaskTarget } from './taskChannel.js';
import { TaskEndedError, TaskHelperError, TaskNotStartedError, TaskWaitTimeoutError } from './taskErrors.js';
import {
  isObject,
  isTaskDone,
  taskIdOf,
  toSnapshot,
  toolResult,
  type TaskRef,
  type TaskSnapshot,
} from './taskSnapshot.js';

/** Options of {@link callToolAsTask}. */
export interface CallToolAsTaskOptions {
  /** 2025-11-25 only: the TTL the client asks for (`task.ttl`; the server caps it). 2026-07-28 has none. */
  ttlMs?: number;
}

/** Options of {@link waitForTask} and {@link taskResult}. */
export interface WaitForTaskOptions {
  /**
   * The time and timers of the waits between polls: `createClock()` in a test that moves time by hand. By
   * default the wall clock, with timers that keep the process alive while it waits.
   */
  clock?: Pick<Clock, 'now' | 'setTimeout'>;
  /** The wait between polls when the server suggests none (its `pollInterval` hint wins). Default 1,000. */
  pollIntervalMs?: number;
  /** Give up (a {@link TaskWaitTimeoutError}) when the next poll would come later than this. Default 30,000. */
  timeoutMs?: number;
  /** When to stop polling: by default when the task is done (`completed`, `failed` or `cancelled`). */
  until?: (task: TaskSnapshot) => boolean;
  /** Called with every snapshot polled, first to last. */
  onPoll?: (task: TaskSnapshot) => void;
  /** Stops waiting (rejects with its reason); the task itself runs on. */
  signal?: AbortSignal;
}

/**
 * Calls a tool as a task and resolves the task the server created (`status` `working` as a rule). On
 * 2025-11-25 the call carries `params.task`; on 2026-07-28 it declares the Tasks extension. Throws a
 * {@link TaskNotStartedError} (its `result` is the answer) when the server answers with the tool's result
 * instead: a plain tool, a call that finished at once (2026-07-28), or a refused task (a budget).
 * @example
 * await using t = await createTestClient(registry);
 * const task = await callToolAsTask(t, 'reports.generate', { sprint_id: 'S1' });
 * expect(task.status).toBe('working');
 * @see docs/tasks.md
 */
export async function callToolAsTask(
  target: TaskTarget,
  name: string,
  args: Record<string, unknown> = {},
  options: CallToolAsTaskOptions = {},
): Promise<TaskSnapshot> {
  const channel = channelOf(target);
  if (channel.era === 'modern') {
    if (options.ttlMs !== undefined) {
      throw new TaskHelperError(
        'TASK_TTL_MODERN',
        `callToolAsTask("${name}", …, { ttlMs }): on 2026-07-28 a task's TTL is the tool's (.task({ ttlMs })), not the client's; leave ttlMs out.`,
      );
    }
    const answer = await channel.request('tools/call', { name, arguments: args });
    if (answer.resultType === 'task') return toSnapshot('modern', answer);
    throw new TaskNotStartedError(name, toolResult(answer));
  }
  const task = options.ttlMs === undefined ? {} : { ttl: options.ttlMs };
  const answer = await channel.request('tools/call', { name, arguments: args, task });
  if (isObject(answer.task)) return toSnapshot('legacy', answer.task);
  throw new TaskNotStartedError(name, toolResult(answer));
}

/**
 * One `tasks/get`: the task as the server has it now. Another principal's task, or an unknown id, rejects
 * with the server's "not found" error (`code` -32602).
 */
export async function getTask(target: TaskTarget, task: TaskRef): Promise<TaskSnapshot> {
  const channel = channelOf(target);
  return toSnapshot(channel.era, await channel.request('tasks/get', { taskId: taskIdOf(task) }));
}

/**
 * Polls `tasks/get` until the task is done (or `until` says so) and resolves its last snapshot. Between polls
 * it waits the server's `pollInterval` hint on `options.clock`; a test clock makes the waits move only when the
 * test advances it. Throws a {@link TaskWaitTimeoutError} after `timeoutMs`.
 * @example
 * const done = await waitForTask(t, task);
 * expect(done.status).toBe('completed');
 */
export async function waitForTask(
  target: TaskTarget,
  task: TaskRef,
  options: WaitForTaskOptions = {},
): Promise<TaskSnapshot> {
  const clock = options.clock ?? keepAliveClock;
  const until = options.until ?? ((t: TaskSnapshot) => isTaskDone(t.status));
  const timeoutMs = options.timeoutMs ?? 30_000;
  const started = clock.now();
  for (;;) {
    const now = await getTask(target, task);
    options.onPoll?.(now);
    if (until(now)) return now;
    const interval = now.pollIntervalMs ?? options.pollIntervalMs ?? 1_000;
    if (clock.now() - started + interval > timeoutMs) throw new TaskWaitTimeoutError(now, timeoutMs);
    await pause(clock, interval, options.signal);
  }
}

/**
 * The result of a completed task (the tool's `CallToolResult`, an `isError` one included). 2025-11-25 asks
 * `tasks/result`, which the server holds until the task ends (no polling, so `options` do not apply; the SDK
 * Client's request timeout, 60 s by default, bounds the wait); 2026-07-28 has no such method, so this polls
 * as {@link waitForTask} does (with `options`) and reads the result `tasks/get` inlines. A task that ended
 * `failed` or `cancelled` throws a {@link TaskEndedError} (`task.error` is the failure's JSON-RPC error).
 * @example
 * const result = await taskResult(t, task);
 * expect(result.content).toEqual([{ type: 'text', text: 'Report of S1 ready.' }]);
 */
export async function taskResult(
  target: TaskTarget,
  task: TaskRef,
  options: WaitForTaskOptions = {},
): Promise<ToolResponse> {
  const channel = channelOf(target);
  if (channel.era === 'modern') {
    const done = await waitForTask(channel, task, options);
    if (done.status === 'completed' && done.result !== undefined) return done.result;
    throw new TaskEndedError(done);
  }
  try {
    return toolResult(await channel.request('tasks/result', { taskId: taskIdOf(task) }));
  } catch (error) {
    const now = await getTask(channel, task).catch(() => undefined);
    if (now?.status === 'cancelled') throw new TaskEndedError(now);
    if (now?.status === 'failed') {
      const { code, message, data } = error as { code: number; message: string; data?: unknown };
      throw new TaskEndedError({ ...now, error: { code, message, ...(data === undefined ? {} : { data }) } });
    }
    throw error;
  }
}

/**
 * Cancels a task (`tasks/cancel`) and resolves it as it is then (`status` `cancelled`). A task already done
 * rejects on 2025-11-25 (`code` -32602, "already completed"); 2026-07-28 acknowledges and leaves it as it is.
 */
export async function cancelTask(target: TaskTarget, task: TaskRef): Promise<TaskSnapshot> {
  const channel = channelOf(target);
  const answer = await channel.request('tasks/cancel', { taskId: taskIdOf(task) });
  // 2026-07-28 acknowledges with an empty result: the task is read back.
  return channel.era === 'legacy' ? toSnapshot('legacy', answer) : getTask(channel, task);
}

/** Waits `ms` on `clock`; rejects with the reason when `signal` aborts. */
function pause(clock: Pick<Clock, 'setTimeout'>, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      timer.cancel();
      reject(signal!.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
