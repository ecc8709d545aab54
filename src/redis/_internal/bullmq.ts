import { requireOptional } from '../../_internal/loadOptional.js';

/** The part of BullMQ's `Queue` the task queue uses. */
export interface BullQueue {
  add(name: string, data: unknown, options: Record<string, unknown>): Promise<unknown>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  close(): Promise<void>;
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
