import { isTerminal, type TaskError, type TaskRecord } from './types.js';

/**
 * The task state machine as pure functions: a record (and the time) in, the next record out, or
 * `undefined` when the step does not apply (the task is terminal, or nothing would change). Persistence
 * and compare-and-set sit outside ({@link TaskLedger}).
 */

/** A progress message on an active task. */
export function withMessage(record: TaskRecord, now: number, statusMessage: string): TaskRecord | undefined {
  if (isTerminal(record.status) || record.statusMessage === statusMessage) return undefined;
  return { ...record, statusMessage, lastUpdatedAt: now };
}

/** The work asks the client for input under `key`: the task waits in `input_required`. */
export function askInput(
  record: TaskRecord,
  now: number,
  key: string,
  request: Record<string, unknown>,
): TaskRecord | undefined {
  if (isTerminal(record.status)) return undefined;
  return {
    ...record,
    status: 'input_required',
    inputRequests: { ...record.inputRequests, [key]: request },
    lastUpdatedAt: now,
  };
}

/**
 * The client answers (`tasks/update`): each answer to a request still outstanding moves to
 * `inputResponses`; others are ignored. With nothing left outstanding the task is `working` again.
 */
export function answer(
  record: TaskRecord,
  now: number,
  responses: Readonly<Record<string, unknown>>,
): TaskRecord | undefined {
  if (isTerminal(record.status) || record.inputRequests === undefined) return undefined;
  const outstanding = { ...record.inputRequests };
  const answered: Record<string, unknown> = { ...record.inputResponses };
  let changed = false;
  for (const [key, value] of Object.entries(responses)) {
    if (!Object.hasOwn(outstanding, key)) continue;
    delete outstanding[key];
    answered[key] = value;
    changed = true;
  }
  if (!changed) return undefined;
  const next: TaskRecord = { ...record, inputResponses: answered, lastUpdatedAt: now };
  if (Object.keys(outstanding).length === 0) {
    delete next.inputRequests;
    next.status = 'working';
  } else next.inputRequests = outstanding;
  return next;
}

/** The work took the answer under `key`. */
export function takeResponse(record: TaskRecord, key: string): TaskRecord | undefined {
  if (record.inputResponses === undefined || !Object.hasOwn(record.inputResponses, key)) return undefined;
  const rest = { ...record.inputResponses };
  delete rest[key];
  const next: TaskRecord = { ...record, inputResponses: rest };
  if (Object.keys(rest).length === 0) delete next.inputResponses;
  return next;
}

/** How a task ends. */
export type TaskOutcome =
  | { readonly status: 'completed'; readonly result: Record<string, unknown>; readonly statusMessage?: string }
  | { readonly status: 'failed'; readonly error: TaskError; readonly statusMessage?: string }
  | { readonly status: 'cancelled'; readonly statusMessage?: string };

/** The terminal step (at most once: a terminal task takes no further step). */
export function finish(record: TaskRecord, now: number, outcome: TaskOutcome): TaskRecord | undefined {
  if (isTerminal(record.status)) return undefined;
  const next: TaskRecord = { ...record, status: outcome.status, lastUpdatedAt: now };
  delete next.inputRequests;
  delete next.inputResponses;
  delete next.leaseUntil;
  delete next.committing;
  if (outcome.statusMessage !== undefined) next.statusMessage = outcome.statusMessage;
  if (outcome.status === 'completed') next.result = outcome.result;
  if (outcome.status === 'failed') next.error = outcome.error;
  return next;
}

/**
 * The work returned and claims its outcome: from now on the task ends with it, and a cancel no longer
 * applies. Undefined (nothing to write) when it is already terminal or claimed.
 */
export function claimOutcome(record: TaskRecord): TaskRecord | undefined {
  if (isTerminal(record.status) || record.committing === true) return undefined;
  return { ...record, committing: true };
}

/** A cancel: the task ends `cancelled`, unless it is terminal or its work has already claimed its outcome. */
export function cancelTask(record: TaskRecord, now: number, statusMessage: string): TaskRecord | undefined {
  if (record.committing === true) return undefined;
  return finish(record, now, { status: 'cancelled', statusMessage });
}

/** The running instance vouches for the work until `until`. */
export function renewLease(record: TaskRecord, until: number): TaskRecord | undefined {
  if (isTerminal(record.status)) return undefined;
  return { ...record, leaseUntil: until };
}

/** An active task whose lease ran out: the instance running it is gone, so it fails (with what to do). */
export function leaseExpired(record: TaskRecord, now: number): TaskRecord | undefined {
  if (isTerminal(record.status) || record.leaseUntil === undefined || record.leaseUntil > now) return undefined;
  const message = `The server instance running task "${record.id}" (${record.tool}) stopped before it finished; call the tool again.`;
  return finish(record, now, { status: 'failed', error: { code: -32603, message }, statusMessage: message });
}
