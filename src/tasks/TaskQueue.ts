/**
 * Where a task service hands the runs of its tasks instead of running them in its own process: worker
 * processes take them from it (`BullTaskQueue` and `startTaskWorker` of `mcp-fusion/redis`). The task's
 * record stays in the shared task store, so progress, results and cancels flow as for in-process tasks.
 * @see docs/tasks.md#workers
 */
export interface TaskQueue {
  /** Hands run `attempt` of task `taskId` (stored, with its call kept) to a worker; idempotent per attempt. */
  enqueue(taskId: string, attempt: number): Promise<void>;
  /** Releases the queue's connections. */
  close?(): Promise<void>;
}
