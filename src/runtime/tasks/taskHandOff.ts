import { JsonRpcCode } from '../../errors/WireError.js';
import type { TaskLedger } from '../../tasks/TaskLedger.js';
import type { TaskQueue } from '../../tasks/TaskQueue.js';
import { finish } from '../../tasks/transitions.js';
import { taskTexts } from '../../tasks/taskTexts.js';
import type { TaskRecord } from '../../tasks/types.js';
import { attemptOf } from './taskOutcome.js';

/**
 * Hands run `attempt` of the stored task `record` to the worker queue. When that fails (the queue's Redis
 * refuses, the queue is closed), no worker will ever claim the run and no lease would expire for it, so the
 * task ends `failed` at once with {@link taskTexts.notStarted} (nothing of that run started: calling again is
 * safe) instead of staying `working`. Resolves the task as stored after; rejects only when the store itself
 * cannot be written (the caller's request then fails with that error).
 */
export async function handOff(
  ledger: TaskLedger,
  queue: TaskQueue,
  record: TaskRecord,
  attempt: number,
): Promise<TaskRecord | undefined> {
  try {
    await queue.enqueue(record.id, attempt);
    return record;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const message = taskTexts.notStarted(record.id, record.tool, attempt, reason);
    const failed = { code: JsonRpcCode.InternalError, message };
    // Only the run that was not handed off: a worker cannot have claimed it, but the task may have ended meanwhile.
    return ledger.step(record.id, (r) =>
      attemptOf(r) === attempt && r.instance === undefined
        ? finish(r, ledger.now(), { status: 'failed', error: failed, statusMessage: message })
        : undefined,
    );
  }
}
