import { clockOf, type Timer } from '../_internal/clock.js';
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
  /**
   * How long a hand-off may take (ms, default 30,000): BullMQ waits for its Redis to become ready, so a queue
   * whose Redis refuses connections would hold the `tools/call` forever; past this the hand-off fails and the
   * task ends `failed`, saying it was not started. Give `connection` fail-fast options
   * (`failFastRedisOptions()`) so that a Redis that goes away mid-life fails the hand-off at once.
   */
  handOffMs?: number;
  /** The clock of the hand-off deadline (the `now` of `createClock()` in tests); default the system clock. */
  now?: () => number;
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

  /** Adds the run's job; rejects when BullMQ refuses it or does not take it within `handOffMs`. */
  async enqueue(taskId: string, attempt: number): Promise<void> {
    // BullMQ imported and its queue made first: the deadline is for Redis, not for loading the module.
    const queue = await (this.#queue ??= this.#open());
    const ms = this.#options.handOffMs ?? 30_000;
    let timer: Timer | undefined;
    const late = new Promise<never>((_, reject) => {
      const text = `BullMQ did not take the job within ${ms} ms; check that the queue's Redis is reachable`;
      timer = clockOf(this.#options.now).setTimeout(() => reject(new Error(text)), ms);
    });
    const job: TaskJob = { taskId, attempt };
    const options = { jobId: `${taskId}-${attempt}`, attempts: 1, removeOnComplete: true, removeOnFail: true };
    try {
      await Promise.race([queue.add('run', job, options), late]);
    } finally {
      timer?.cancel();
    }
  }

  /**
   * Closes BullMQ's connection: a `QUIT` when its Redis answers, else (Redis gone, ioredis reconnecting) the
   * socket is dropped at once, which ends the reconnection: a `QUIT` would wait for a Redis that may never
   * come back, or fail on the closed stream. Errors the client reports after it are not printed.
   */
  async close(): Promise<void> {
    if (this.#queue === undefined) return;
    const queue = await this.#queue;
    const owner = queue.getBackend?.() ?? queue.connection;
    // A connection that was never ready has no client yet (BullMQ's own close drops that one): do not wait for it.
    const client = await Promise.race([owner?.client, undefined]).catch(() => undefined);
    // ioredis prints "Unhandled error event" for errors nobody listens to (BullMQ stops listening on close).
    client?.on('error', () => {});
    if (client !== undefined && client.status !== 'ready') await owner?.close?.(true);
    await queue.close();
  }

  async #open(): Promise<BullQueue> {
    const { Queue } = await loadBullmq();
    const { connection, queueName, prefix } = this.#options;
    const queue = new Queue(queueName ?? TASK_QUEUE, { connection, ...(prefix !== undefined ? { prefix } : {}) });
    // Connection errors (BullMQ logs them when nobody listens) reach the caller as a failed hand-off.
    queue.on('error', () => {});
    return queue;
  }
}
