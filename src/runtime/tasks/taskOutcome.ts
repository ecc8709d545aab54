import type { TaskStart } from './TaskStart.js';
import { JsonRpcCode, WireError } from '../../errors/WireError.js';
import { errorResult, isInputRequired } from '../../protocol/normalizeResult.js';
import type { ToolResponse } from '../../protocol/types.js';
import type { TaskLedger } from '../../tasks/TaskLedger.js';
import { chargedOutcome } from '../../tasks/taskHolds.js';
import { taskTexts } from '../../tasks/taskTexts.js';
import type { TaskOutcome } from '../../tasks/transitions.js';
import type { TaskRecord } from '../../tasks/types.js';

/** How a task's tool call settled: its result, or what it threw. */
export type Settled =
  | { readonly ok: true; readonly result: ToolResponse }
  | { readonly ok: false; readonly error: unknown };

/** A call's outcome as a value: its result, or what it threw. */
export const settle = (call: Promise<ToolResponse>): Promise<Settled> =>
  call.then(
    (result) => ({ ok: true, result }),
    (error: unknown) => ({ ok: false, error }),
  );

/** Which run of its work a task is on (1 until a takeover ran it again). */
export const attemptOf = (record: TaskRecord): number => record.attempt ?? 1;

/**
 * The outcome a task records for its settled call: `completed` with the result, or `failed` with a JSON-RPC
 * error (a {@link WireError}'s code and data, else -32603), also for an `input_required` result, which a task
 * cannot return (its handler should ask with `extra.elicit(...)`).
 */
export function taskOutcome(record: TaskRecord, settled: Settled): TaskOutcome {
  if (!settled.ok) {
    const error = settled.error;
    if (error instanceof WireError)
      return {
        status: 'failed',
        error: {
          code: error.code,
          message: error.message,
          ...(error.data !== undefined ? { data: error.data } : {}),
        },
        statusMessage: error.message,
      };
    const message = error instanceof Error ? error.message : String(error);
    return { status: 'failed', error: { code: JsonRpcCode.InternalError, message }, statusMessage: message };
  }
  if (isInputRequired(settled.result)) {
    const message = `Tool "${record.tool}" returned input_required after its task started; inside a task, ask with extra.elicit(...) instead.`;
    return { status: 'failed', error: { code: JsonRpcCode.InternalError, message }, statusMessage: message };
  }
  return { status: 'completed', result: settled.result };
}

/**
 * A completed result is kept within the task budgets: at most `maxResultBytes`, and counted against its
 * owner's stored bytes until it expires; past either it is replaced by an `isError` result saying what to do.
 * First, the outcome is counted on the task's hold in the held-bytes ledger: one that does not fit ends the
 * task `failed` with the ledger's text.
 */
export async function keptOutcome(ledger: TaskLedger, record: TaskRecord, settled: TaskOutcome): Promise<TaskOutcome> {
  const outcome = chargedOutcome(ledger.holdOf(record.id), settled);
  if (outcome.status !== 'completed') return outcome;
  const { maxResultBytes, maxStoredBytesPerPrincipal: maxBytes } = ledger.budgets;
  const bytes = Buffer.byteLength(JSON.stringify(outcome.result));
  if (bytes > maxResultBytes)
    return { status: 'completed', result: errorResult(taskTexts.resultTooLarge(record.tool, bytes, maxResultBytes)) };
  if (
    await ledger.store.reserveResult(record.owner, record.id, bytes, {
      expiresAt: record.createdAt + record.ttlMs,
      maxBytes,
    })
  )
    return outcome;
  return { status: 'completed', result: errorResult(taskTexts.storedFull(record.tool, maxBytes)) };
}

/** Resolves `undefined` on the event loop's next turn (a call that settles before it is answered inline). */
export const nextTurn = (): Promise<undefined> => new Promise((resolve) => setImmediate(() => resolve(undefined)));

/** A call settled before its task was made, answered as it settled. */
export const startOf = (settled: Settled): TaskStart => {
  if (settled.ok) return { kind: 'result', result: settled.result };
  throw settled.error;
};
