import type { TaskLedger } from '../../tasks/TaskLedger.js';
import { answer, askInput, takeResponse } from '../../tasks/transitions.js';
import { isTerminal } from '../../tasks/types.js';
import type { TaskWatchers } from './TaskWatchers.js';

/** The `_meta` key that ties a request to the task it serves (MCP 2025-11-25 tasks). */
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** What the input steps of one task's run work with. */
export interface TaskInputParts {
  readonly ledger: TaskLedger;
  readonly watchers: TaskWatchers;
}

/**
 * Asks the client through the task (2026-07-28): the task waits in `input_required` with the request under
 * `key` until `tasks/update` answers it (on any instance), then resolves that answer.
 */
export async function askThroughTask(
  parts: TaskInputParts,
  id: string,
  key: string,
  request: Record<string, unknown>,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const { ledger, watchers } = parts;
  let record = await ledger.step(id, (r) => askInput(r, ledger.now(), key, request));
  watchers.emit(record);
  for (;;) {
    if (record === undefined || isTerminal(record.status)) throw new Error(`task ${id} ended while waiting for input`);
    if (record.inputResponses !== undefined && Object.hasOwn(record.inputResponses, key)) {
      const value = record.inputResponses[key] as Record<string, unknown>;
      await ledger.step(id, (r) => takeResponse(r, key));
      return value;
    }
    await watchers.pause(id, record.pollIntervalMs, signal);
    if (signal.aborted) throw signal.reason;
    record = (await ledger.store.get(id))?.record;
  }
}

/**
 * Sends a request to a legacy client itself (`send`, its params carrying the related-task `_meta`), the task
 * showing `input_required` meanwhile and `working` again once answered.
 */
export async function relayThroughTask(
  parts: TaskInputParts,
  id: string,
  key: string,
  request: { method: string; params: Record<string, unknown> },
  send: (params: Record<string, unknown>) => Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const { ledger, watchers } = parts;
  watchers.emit(await ledger.step(id, (r) => askInput(r, ledger.now(), key, request)));
  const meta = { ...(request.params._meta as Record<string, unknown> | undefined), [RELATED_TASK]: { taskId: id } };
  try {
    return await send({ ...request.params, _meta: meta });
  } finally {
    const now = ledger.now();
    watchers.emit(await ledger.step(id, (r) => takeResponse(answer(r, now, { [key]: true }) ?? r, key)));
  }
}
