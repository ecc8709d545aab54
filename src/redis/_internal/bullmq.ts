import { requireOptional } from '../../_internal/loadOptional.js';

/** The part of an ioredis client BullMQ made that closing its queue reads. */
export interface BullRedisClient {
  /** ioredis' status: `ready` once it answers; `connecting`, `reconnecting`, `end`… otherwise. */
  readonly status: string;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

/** The part of BullMQ's `Queue` the task queue uses. */
export interface BullQueue {
  add(name: string, data: unknown, options: Record<string, unknown>): Promise<unknown>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  close(): Promise<void>;
  /** BullMQ 6.7 and later: the backend that owns the queue's connection. */
  getBackend?(): BullConnectionOwner;
  /** BullMQ before 6.7: the connection itself. */
  readonly connection?: BullConnectionOwner;
}

/** What owns a queue's connection (its backend, or in older BullMQ the connection): its client and `close`. */
export interface BullConnectionOwner {
  readonly client?: Promise<BullRedisClient>;
  /** With `force`, drops the socket (ioredis `disconnect()`) instead of sending `QUIT`. */
  close?(force?: boolean): Promise<void>;
}

/** The part of BullMQ's `Worker` a task worker uses. */
export interface BullWorker {
  waitUntilReady(): Promise<unknown>;
  on(event: 'error' | 'failed', listener: (...args: unknown[]) => void): unknown;
  close(force?: boolean): Promise<void>;
}

/** The part of the `bullmq` module mcp-fusion uses. */
export interface BullModule {
  Queue: new (name: string, options: Record<string, unknown>) => BullQueue;
  Worker: new (
    name: string,
    processor: (job: { data: unknown }) => Promise<unknown>,
    options: Record<string, unknown>,
  ) => BullWorker;
}

/** BullMQ, imported on first use (an optional peer): a missing install throws a named error saying what to install. */
export function loadBullmq(): Promise<BullModule> {
  return requireOptional<BullModule>('bullmq');
}

/** The job of one run of a task. */
export interface TaskJob {
  readonly taskId: string;
  readonly attempt: number;
}

/** The default name of the task queue. */
export const TASK_QUEUE = 'mcp-fusion-tasks';
