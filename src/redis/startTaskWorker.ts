import { AttachError } from '../errors/FusionError.js';
import type { AttachOptions } from '../runtime/core/options.js';
import type { TaskServiceOptions } from '../tasks/TaskServiceOptions.js';
import type { ToolRegistry } from '../registry/ToolRegistry.js';
import { loadBullmq, TASK_QUEUE, type TaskJob } from './_internal/bullmq.js';

/** Options of {@link startTaskWorker}. */
export interface TaskWorkerOptions<Ctx> {
  /** The same registry the front serves (the same module). */
  registry: ToolRegistry<Ctx>;
  /** The front's task options: the same shared `store` (a `RedisTaskStore`), `bus` (cancels) and `leaseMs`. */
  tasks: Omit<TaskServiceOptions, 'queue'>;
  /** BullMQ's `connection` (ioredis options, as the front's `BullTaskQueue`). */
  connection: Record<string, unknown>;
  /** The rest of the front's runtime options (`fsm`, `fsmStore`, `contextFactory`, …), so calls run alike. */
  runtime?: Omit<AttachOptions<Ctx>, 'tasks'>;
  /** Task runs at once in this worker (default 1). */
  concurrency?: number;
  queueName?: string;
  prefix?: string;
}

/** A running worker process's side: stop it with {@link TaskWorker.close}. */
export interface TaskWorker {
  /** Stops taking runs, waits for those running to store their outcome, releases the connections. */
  close(): Promise<void>;
}

/**
 * Runs the task handlers of `registry` in this process for a front whose tasks go to a `BullTaskQueue`:
 * each job claims its task's run in the shared store, runs it through the tool's usual call path, and stores
 * its progress and outcome there, where the front reads them. Cancels reach it through the `bus`; a worker
 * killed mid-run is handled by the tool's `onLost` policy when its lease runs out.
 * @example
 * const worker = await startTaskWorker({ registry, connection: { host: '127.0.0.1', port: 6379 },
 *   tasks: { store: new RedisTaskStore({ client }), bus: events.tasks }, concurrency: 4 });
 * @see docs/tasks.md#workers
 */
export async function startTaskWorker<Ctx>(options: TaskWorkerOptions<Ctx>): Promise<TaskWorker> {
  const { Worker } = await loadBullmq();
  const runtime = options.registry.runtime({ ...options.runtime, tasks: options.tasks } as AttachOptions<Ctx>);
  const tasks = runtime.tasks;
  if (tasks === undefined)
    throw new AttachError(
      'TASK_WORKER',
      'startTaskWorker: the registry has no tool declared with .task(), so no task can run here; give it the registry the front serves.',
      {},
    );
  const worker = new Worker(
    options.queueName ?? TASK_QUEUE,
    async (job) => {
      const { taskId, attempt } = job.data as TaskJob;
      await tasks.work(taskId, attempt);
    },
    {
      connection: { maxRetriesPerRequest: null, ...options.connection },
      concurrency: Math.max(1, Math.trunc(options.concurrency ?? 1)),
      // A job of a dead worker is not run again by BullMQ: the task's lease and the tool's onLost decide.
      maxStalledCount: 0,
      ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
    },
  );
  worker.on('error', () => {});
  await worker.waitUntilReady();
  return {
    close: async () => {
      await worker.close();
      runtime.dispose();
    },
  };
}
