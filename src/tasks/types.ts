import type { Principal } from '../principal/types.js';

/** Where a task is: `working` and `input_required` are active, the other three terminal (never left again). */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The three statuses a task ends in. */
export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** True for `completed`, `failed` and `cancelled`. */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

/** A JSON-RPC error as a failed task carries it. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * One task as stored: who owns it, where it is, and (once terminal) its result or error. Times are epoch
 * milliseconds of the store's clock; `ttlMs` counts from `createdAt`, after which the task is removed.
 */
export interface TaskRecord {
  /** Unguessable (a random UUID): the id is a bearer reference to the task's state. */
  id: string;
  /** The principal key of the caller who started it (`principal.key`); anyone else gets "not found". */
  owner: string;
  /** The tool (its exposed name) the task runs. */
  tool: string;
  /**
   * The OAuth scopes the call needed when it started (its tool's, or its action's): reading, answering or
   * cancelling the task later needs them still, so a token without them cannot read what it could not start.
   */
  requiredScopes?: string[];
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  ttlMs: number;
  pollIntervalMs: number;
  /** The `CallToolResult` of a completed task (a tool error is a completed task with `isError: true`). */
  result?: Record<string, unknown>;
  /** The JSON-RPC error of a failed task. */
  error?: TaskError;
  /** Requests to the client the running work waits for (`input_required`), keyed by unique ids. */
  inputRequests?: Record<string, Record<string, unknown>>;
  /** Answers the client gave (`tasks/update`), keyed like the requests, until the work takes them. */
  inputResponses?: Record<string, unknown>;
  /**
   * Until when the instance running the work vouches for it (renewed while it runs). A reader finding an
   * active task past its lease marks it `failed`: the instance that ran it is gone.
   */
  leaseUntil?: number;
  /**
   * Set once the work has returned and its outcome is being applied (the workflow transition, State Sync):
   * from then on a cancel no longer applies (it waits for the outcome), so a cancelled task never transitions.
   */
  committing?: boolean;
  /** The instance running the work (its `TaskServiceOptions.instanceId`): it alone renews the lease and stores the outcome. */
  instance?: string;
  /** Which run of the work this is, from 1; a takeover under `onLost: 'retry'` starts the next. */
  attempt?: number;
  /** The call, kept so that another instance can run it again: only for tools declared `onLost: 'retry'`. */
  run?: TaskRun;
}

/**
 * A task's call as another instance needs it to run the work again: the arguments and the caller's identity
 * (never its bearer token). JSON only.
 */
export interface TaskRun {
  readonly arguments?: Record<string, unknown> | undefined;
  /** The session key of the call (legacy); undefined on modern calls. */
  readonly sessionKey?: string | undefined;
  readonly era: 'legacy' | 'modern';
  readonly principal: Principal;
  /** The auth info the call was verified with, without its `token`. */
  readonly authInfo?: unknown;
  readonly meta?: Readonly<Record<string, unknown>> | undefined;
  readonly clientCapabilities?: Readonly<Record<string, unknown>> | undefined;
  /**
   * The call's rate limit was spent when the stages admitted it, before its record was made: its runs (a
   * worker's, a retry's) do not spend it again.
   */
  readonly rateLimitSpent?: boolean | undefined;
}

/** A stored record with the version a compare-and-set must name. */
export interface VersionedTask {
  readonly record: TaskRecord;
  readonly version: number;
}

/** How a tool takes part in tasks: `optional` (a task when the client can take one) or `required` (only as a task). */
export type TaskMode = 'optional' | 'required';

/**
 * What happens to a task whose instance died mid-run (its lease ran out): `fail` (the default) ends it
 * `failed` with a text saying the work stopped and may be partly done; `retry` runs it again on another
 * instance, up to `maxAttempts` runs in all, for tools whose work is safe to repeat.
 * @see docs/tasks.md#when-an-instance-dies
 */
export type TaskOnLost = 'fail' | 'retry';

/** What `.task()` declares on a tool. */
export interface TaskDeclaration {
  readonly mode: TaskMode;
  /** What a lost run leads to (default `fail`). */
  readonly onLost: TaskOnLost;
  /** Runs in all, the first included (1 under `fail`; default 3 under `retry`). */
  readonly maxAttempts: number;
  /** How long a task and its result are kept, from its creation (default 1 hour; capped by the budgets). */
  readonly ttlMs: number;
  /** The polling interval suggested to clients (default 1,000 ms). */
  readonly pollIntervalMs: number;
}

/** Budgets of the task service; each refusal says which one was hit and what to do. */
export interface TaskBudgets {
  /** Active (working or input_required) tasks one principal may have, across instances sharing the store. Default 16. */
  maxActivePerPrincipal?: number;
  /** Active tasks this process runs at once. Default 256. */
  maxActivePerProcess?: number;
  /** Largest result (JSON bytes) a task may store; a larger one ends the task with an `isError` result saying so. Default 1 MiB. */
  maxResultBytes?: number;
  /** Results (JSON bytes) one principal's tasks may keep stored at once, across instances sharing the store. Default 16 MiB. */
  maxStoredBytesPerPrincipal?: number;
  /** Longest TTL a task may have; a tool's or client's longer request is capped to it. Default 24 hours. */
  maxTtlMs?: number;
}
