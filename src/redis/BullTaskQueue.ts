import type { TaskQueue } from '../tasks/TaskQueue.js';
import { loadBullmq, TASK_QUEUE, type BullQueue, type TaskJob } from './_internal/bullmq.js';

/** Options of {@link BullTaskQueue}. */
export interface BullTaskQueueOptions {
  /**
   * BullMQ's `connection`: ioredis options (`{ host, port }`) or a client for BullMQ to use. BullMQ opens its
   * own connections from options; workers need `maxRetriesPerRequest: null` (given by default to options).
   */
  connection: Record<string, unknown>;
  /** The queue's name (default `mcp-fusion-tasks`); the workers' must match. */
  queueName?: string;
  /** BullMQ's key prefix (default BullMQ's own, `bull`). */
  prefix?: string;
}

/**
 * A {@link TaskQueue} on BullMQ (the optional peer `bullmq`, imported on first use): the front hands each
 * task's run to a job (one per attempt, its id `<task>-<attempt>`, so handing it twice makes one), and
 * `startTaskWorker` processes run them. Whether a run whose worker died is run again is the tool's
 * `onLost` policy, applied through the task's lease, not BullMQ's stalled-job retries (its jobs are never
 * retried by BullMQ).
 * @example
 * const queue = new BullTaskQueue({ connection: { host: '127.0.0.1', port: 6379 } });
 * startServer(registry, { tasks: { store, bus: events.tasks, queue } });
 * @see docs/tasks.md#workers
 */
export class BullTaskQueue implements TaskQueue {
  readonly #options: BullTaskQueueOptions;
  #queue: Promise<BullQueue> | undefined;

  constructor(options: BullTaskQueueOptions) {
    this.#options = options;
  }

  async enqueue(taskId: string, attempt: number): Promise<void> {
    const queue = await (this.#queue ??= this.#open());
    const job: TaskJob = { taskId, attempt };
    await queue.add('run', job, {
      jobId: `${taskId}-${attempt}`,
      attempts: 1,
      removeOnComplete: true,
      removeOnFail: true,
    });
  }

  async close(): Promise<void> {
    if (this.#queue !== undefined) await (await this.#queue).close();
  }

  async #open(): Promise<BullQueue> {
    const { Queue } = await loadBullmq();
    const { connection, queueName, prefix } = this.#options;
    return new Queue(queueName ?? TASK_QUEUE, { connection, ...(prefix !== undefined ? { prefix } : {}) });
  }
}
