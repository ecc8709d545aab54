import type { TaskBus } from './TaskBus.js';
import type { TaskQueue } from './TaskQueue.js';
import type { TaskStore } from './TaskStore.js';
import type { TaskBudgets } from './types.js';

/** The `tasks` option: where tasks live and their budgets. */
export interface TaskServiceOptions {
  /** Where tasks live; share a `RedisTaskStore` between instances. Default: a `MemoryTaskStore` of this process. */
  store?: TaskStore;
  budgets?: TaskBudgets;
  /**
   * How long an instance vouches for a task it runs without renewing (ms, default 30,000): a task whose
   * instance died is taken over by another instance sharing the store (per its tool's `onLost`: failed, or
   * run again) between this long and a quarter more after; without a `bus`, a cancel from another instance
   * reaches the work within a third of it.
   */
  leaseMs?: number;
  /**
   * Carries cancels to the instance running the task at once (`RedisEventBus`'s `tasks`; `createFusionApp`
   * takes it from its `bus` option when that has one). Without it a cancel from another instance reaches the
   * work at its next lease renewal; it never transitions the workflow either way.
   */
  bus?: TaskBus;
  /** Tasks per `tasks/list` page (default 50). */
  pageSize?: number;
  /**
   * This instance's id in the tasks it runs (default: a random UUID per process). A task whose instance
   * stopped renewing its lease is taken over by another instance sharing the store, per its tool's `onLost`.
   */
  instanceId?: string;
  /**
   * Hands the tasks' runs to worker processes instead of running them here (`BullTaskQueue` of
   * `mcp-fusion/redis`, with `startTaskWorker` in the workers); needs a shared `store`. Default: tasks run in
   * this process.
   * @see docs/tasks.md#workers
   */
  queue?: TaskQueue;
}
