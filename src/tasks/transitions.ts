import { taskTexts } from './taskTexts.js';
import { isTerminal, type TaskError, type TaskOnLost, type TaskRecord } from './types.js';

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

/**
 * The running instance vouches for the work until `until`; nothing when the task is terminal or its current
 * attempt is not `attempt` (another instance took it over).
 */
export function renewLease(record: TaskRecord, until: number, attempt = 1): TaskRecord | undefined {
  if (isTerminal(record.status) || (record.attempt ?? 1) !== attempt) return undefined;
  return { ...record, leaseUntil: until };
}

/** An active task whose lease ran out at `now`: its instance is gone (false while the lease holds). */
export function leaseLost(record: TaskRecord, now: number): boolean {
  return !isTerminal(record.status) && record.leaseUntil !== undefined && record.leaseUntil <= now;
}

/** What another instance does with a lost task: the tool's declared policy, and who takes it over until when. */
export interface Takeover {
  readonly onLost: TaskOnLost;
  readonly maxAttempts: number;
  /** Who runs the next attempt until when; both undefined when it goes to a worker queue (a worker claims it). */
  readonly instance: string | undefined;
  readonly leaseUntil: number | undefined;
}

/**
 * A lost task (its lease ran out) taken over under `policy`: `working` again as the next attempt, owned by
 * `policy.instance`, when the tool is safe to repeat, attempts remain, the call was kept, and the lost run was
 * not applying its outcome; otherwise `failed` with a text saying whether calling again is safe. Undefined
 * when the task is not lost.
 */
export function takeOver(record: TaskRecord, now: number, policy: Takeover): TaskRecord | undefined {
  if (!leaseLost(record, now)) return undefined;
  const attempt = record.attempt ?? 1;
  const applying = record.committing === true;
  const repeatSafe = policy.onLost === 'retry';
  if (repeatSafe && !applying && attempt < policy.maxAttempts && record.run !== undefined) {
    const next: TaskRecord = {
      ...record,
      status: 'working',
      statusMessage: taskTexts.retried(attempt + 1, policy.maxAttempts),
      attempt: attempt + 1,
      lastUpdatedAt: now,
    };
    if (policy.instance === undefined) delete next.instance;
    else next.instance = policy.instance;
    if (policy.leaseUntil === undefined) delete next.leaseUntil;
    else next.leaseUntil = policy.leaseUntil;
    delete next.inputRequests;
    delete next.inputResponses;
    return next;
  }
  const message = taskTexts.lost(record.id, record.tool, { attempt, repeatSafe, applying });
  return finish(record, now, { status: 'failed', error: { code: -32603, message }, statusMessage: message });
}

/**
 * A worker claims run `attempt` of a queued task (no instance runs it): it runs it, vouching until `until`.
 * Undefined when the task is terminal, on another attempt, or already claimed.
 */
export function claimRun(record: TaskRecord, attempt: number, instance: string, until: number): TaskRecord | undefined {
  if (isTerminal(record.status) || (record.attempt ?? 1) !== attempt || record.instance !== undefined) return undefined;
  return { ...record, instance, leaseUntil: until };
}

/** A lost task where no policy is known (a store read outside a task service): it fails as not safe to repeat. */
export function leaseExpired(record: TaskRecord, now: number): TaskRecord | undefined {
  return takeOver(record, now, { onLost: 'fail', maxAttempts: 1, instance: '', leaseUntil: now });
}
