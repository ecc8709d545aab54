import { randomUUID } from 'node:crypto';
import { clockOf, type Clock } from '../../_internal/clock.js';
import type { ByteLedger } from '../../ledger/ByteLedger.js';
import { ledgerHolder } from '../../principal/ledgerHolder.js';
import { errorResult } from '../../protocol/normalizeResult.js';
import { MemoryTaskStore } from '../../tasks/MemoryTaskStore.js';
import { TaskLedger, TaskRefused } from '../../tasks/TaskLedger.js';
import type { TaskBus } from '../../tasks/TaskBus.js';
import type { TaskQueue } from '../../tasks/TaskQueue.js';
import type { TaskServiceOptions } from '../../tasks/TaskServiceOptions.js';
import { answer, cancelTask, claimRun } from '../../tasks/transitions.js';
import { taskTexts } from '../../tasks/taskTexts.js';
import { isTerminal, type TaskDeclaration, type TaskRecord } from '../../tasks/types.js';
import type { DebugEvent } from '../../tracing/types.js';
import { routeTask, type Route } from '../../surface/compileSurface.js';
import type { RequestContext } from '../../surface/types.js';
import type { ToolRuntime } from '../tools/ToolRuntime.js';
import { runExtra } from './taskExtra.js';
import { CallExtra } from '../core/CallExtra.js';
import type { Ticket } from '../core/CallTracker.js';
import { attemptOf, nextTurn, settle, startOf } from './taskOutcome.js';
import { TaskWatchers } from './TaskWatchers.js';
import type { ResolvedCall } from '../stages/pickAction.js';
import type { TaskInputParts } from './taskInput.js';
import { replayContext, replayExtra, taskRunOf } from './taskRun.js';
import { admissionOf } from './taskAdmission.js';
import { admitQueued } from './admitQueued.js';
import { TaskRuns } from './TaskRuns.js';
import { TaskTakeovers } from './TaskTakeovers.js';
import { handOff } from './taskHandOff.js';
import type { TaskStart } from './TaskStart.js';

type NewTask = Parameters<TaskLedger['create']>[0];
type Resolved = Omit<ResolvedCall, 'name'>;

/**
 * Runs task-supporting tools as tasks: the call goes through every stage of the tool, detached from its request,
 * its outcome stored once. Also answers the task methods in era-neutral terms (the adapter shapes the wire).
 * @see docs/tasks.md
 */
export class TaskService {
  readonly ledger: TaskLedger;
  readonly #tools: ToolRuntime<any>;
  readonly #leaseMs: number;
  readonly #pageSize: number;
  /** The timers of lease renewals and waits: the clock the `now` it is given carries (the `clock` option's; real, unref'd timers by default). */
  readonly #clock: Clock;
  readonly #ownsStore: boolean;
  readonly #runs: TaskRuns;
  readonly #queue: TaskQueue | undefined;
  readonly #watchers: TaskWatchers;
  readonly #input: TaskInputParts;
  readonly #bus: TaskBus | undefined;
  readonly #unsubscribe: () => void;
  readonly #instance: string;
  readonly #takeovers: TaskTakeovers;

  constructor(
    tools: ToolRuntime<any>,
    options: TaskServiceOptions = {},
    now?: () => number,
    debug?: (event: DebugEvent) => void,
    held?: ByteLedger,
  ) {
    this.#clock = clockOf(now);
    this.#watchers = new TaskWatchers(this.#clock, debug);
    this.#tools = tools;
    this.#ownsStore = options.store === undefined;
    const store = options.store ?? new MemoryTaskStore(now === undefined ? {} : { now });
    this.#instance = options.instanceId ?? randomUUID();
    const lost = (r: TaskRecord): Promise<TaskRecord | undefined> => this.#takeovers.lost(r);
    this.ledger = new TaskLedger({ store, budgets: options.budgets, now, held, lost });
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#input = { ledger: this.ledger, watchers: this.#watchers };
    this.#runs = new TaskRuns({ ...this.#input, clock: this.#clock, leaseMs: this.#leaseMs });
    const [ledger, clock, leaseMs, instance] = [this.ledger, this.#clock, this.#leaseMs, this.#instance];
    const policyOf = (tool: string): TaskDeclaration | undefined =>
      this.declarationOf(this.#tools.surface.routes.get(tool));
    this.#queue = options.queue;
    const rerun = (r: TaskRecord): void => void this.#rerun(r);
    const emit = (r: TaskRecord | undefined): void => this.#watchers.emit(r);
    const queued = this.#queue !== undefined;
    this.#takeovers = new TaskTakeovers({ ledger, clock, leaseMs, instance, policyOf, rerun, emit, queued });
    // A store of this process alone has no other instance to take over from.
    if (!this.#ownsStore) this.#takeovers.start();
    this.#bus = options.bus;
    this.#pageSize = Math.max(1, Math.trunc(options.pageSize ?? 50));
    // A cancel taken on another instance: abort the work here at once (when it runs here).
    this.#unsubscribe =
      this.#bus?.subscribeCancel((id) => this.#runs.abort(id, new Error(`task ${id} was cancelled`))) ?? (() => {});
  }

  /** The task declaration of the tool a `tools/call` resolved to (its `route`), when it supports tasks. */
  declarationOf(route: Route | undefined): TaskDeclaration | undefined {
    return route === undefined ? undefined : routeTask(route);
  }

  /**
   * Calls `name` as a task owned by the caller. With `immediate`, a call that settles within the current
   * turn is answered with its plain result (or its `input_required` round) and no task is made. `call` is
   * the call's route and action, resolved once by the caller (a task-supporting tool's).
   */
  async start(
    call: Resolved,
    name: string,
    args: Record<string, unknown> | undefined,
    rctx: RequestContext,
    how: { immediate: boolean; ttlMs?: number | undefined; ticket?: Ticket | undefined },
  ): Promise<TaskStart> {
    const declaration = routeTask(call.route!)!;
    if (this.#queue !== undefined) return this.#enqueue(call, name, args, rctx, how);
    const controller = new AbortController();
    let created!: (id: string) => void;
    const id = new Promise<string>((resolve) => (created = resolve));
    let taskId: string | undefined = undefined;
    // The stages admit the call before its record exists: a refused call takes no task slot. Not `immediate`:
    // the handler then waits for the record (`stored`); `immediate` runs it at once, to answer it inline.
    const admission = admissionOf(how.immediate);
    // No task yet (a call settling before its task is stored): nothing could have cancelled it.
    const base = CallExtra.of(rctx.extra, rctx.sessionKey);
    const claim = (): Promise<boolean> | true => (taskId === undefined ? true : this.#runs.claim(taskId, 1));
    const extra = runExtra(this.#input, base, controller, id, claim, { admitted: admission.admitted });
    // Not the request's span: it ends when the request does, long before the work.
    const running = settle(this.#tools.callTool(name, args, { sessionKey: rctx.sessionKey, extra }, call, how.ticket));
    if (how.immediate) {
      const first = await Promise.race([running, nextTurn()]);
      if (first !== undefined) return startOf(first);
    }
    // Settled before its handler ran: a stage refused it (scopes, gate, arguments, rate limit): no task.
    const past = await Promise.race([running, admission.reached]);
    if (past !== undefined) return startOf(past);
    let record: TaskRecord;
    try {
      record = await this.#store(call, name, args, rctx, how.ttlMs, {
        leaseUntil: this.ledger.now() + this.#leaseMs,
        instance: this.#instance,
        ...(declaration.onLost === 'retry' ? { run: taskRunOf(args, rctx) } : {}),
      });
    } catch (error) {
      controller.abort(error);
      const refused = errorResult(error instanceof TaskRefused ? error.message : 'the task could not be stored');
      admission.refused(refused);
      if (error instanceof TaskRefused) return { kind: 'result', result: refused };
      throw error;
    }
    taskId = record.id;
    created(record.id);
    admission.stored();
    this.#runs.drive(record, controller, extra, running, rctx.sessionKey);
    return { kind: 'task', record };
  }

  /**
   * A worker's side: claims run `attempt` of the queued task `id` and runs it here; resolves once its outcome
   * is stored (or at once when the task ended, moved on to another attempt, or another worker claimed it).
   */
  async work(id: string, attempt: number): Promise<void> {
    const until = this.ledger.now() + this.#leaseMs;
    const claimed = await this.ledger.step(id, (r) => claimRun(r, attempt, this.#instance, until));
    if (claimed === undefined || isTerminal(claimed.status) || claimed.instance !== this.#instance) return;
    if (attemptOf(claimed) === attempt) await this.#rerun(claimed, true);
  }

  /** Stores a new task of `call` (owner, scopes, lifetimes from its route's declaration) with `more`. */
  #store(
    call: Resolved,
    name: string,
    args: Record<string, unknown> | undefined,
    rctx: RequestContext,
    ttlMs: number | undefined,
    more: Partial<NewTask>,
  ): Promise<TaskRecord> {
    const declaration = routeTask(call.route!)!;
    return this.ledger.create({
      owner: rctx.extra.principal.key,
      holder: ledgerHolder(rctx),
      tool: name,
      arguments: args,
      requiredScopes: call.action?.tool.requiredScopes ?? [],
      ttlMs: Math.min(ttlMs ?? declaration.ttlMs, declaration.ttlMs),
      pollIntervalMs: declaration.pollIntervalMs,
      ...more,
    });
  }

  /** A task of a queued service: admitted by the stages here, then stored with its call kept and queued. */
  async #enqueue(
    call: Resolved,
    name: string,
    args: Record<string, unknown> | undefined,
    rctx: RequestContext,
    how: { ttlMs?: number | undefined; ticket?: Ticket | undefined },
  ): Promise<TaskStart> {
    const refused = await admitQueued(this.#tools, call, name, args, rctx, how.ticket);
    if (refused !== undefined) return { kind: 'result', result: refused };
    let record: TaskRecord;
    try {
      record = await this.#store(call, name, args, rctx, how.ttlMs, { run: taskRunOf(args, rctx) });
    } catch (error) {
      if (error instanceof TaskRefused) return { kind: 'result', result: errorResult(error.message) };
      throw error;
    }
    // The work runs on a worker: this process holds no run of it.
    this.ledger.release(record.id);
    const handed = (await handOff(this.ledger, this.#queue!, record, 1)) ?? record;
    this.#watchers.emit(handed, rctx.sessionKey);
    return { kind: 'task', record: handed };
  }

  /**
   * Runs `record` as its current attempt: claimed by this worker (`worker`), or taken over from a lost
   * instance (here, or handed to the queue when runs go there).
   */
  async #rerun(record: TaskRecord, worker = false): Promise<void> {
    if (!worker && this.#queue !== undefined)
      return this.#watchers.emit(
        await handOff(this.ledger, this.#queue, record, attemptOf(record)).catch(() => undefined),
      );
    if (this.#runs.has(record.id) || record.run === undefined) return;
    const controller = new AbortController();
    const claim = (): Promise<boolean> => this.#runs.claim(record.id, attemptOf(record));
    const spent = { rateLimitSpent: record.run.rateLimitSpent };
    const id = Promise.resolve(record.id);
    const extra = runExtra(this.#input, replayExtra(record.run, record), controller, id, claim, spent);
    this.ledger.adopt();
    const call = this.#tools.callTool(record.tool, record.run.arguments, replayContext(record.run, extra));
    return this.#runs.drive(record, controller, extra, settle(call));
  }

  /** Hears every change of a task this process sees (legacy status notifications); returns unsubscribe. */
  onStatus(listener: (record: TaskRecord) => void): () => void {
    return this.#watchers.onStatus(listener);
  }

  /** The task as its owner may see it; undefined for an unknown, expired or another caller's task. */
  get(id: string, owner: string): Promise<TaskRecord | undefined> {
    return this.ledger.get(id, owner);
  }

  /** One page of the caller's tasks (`tasks/list`), after the opaque `cursor` of the previous page. */
  list(owner: string, cursor: string | undefined): Promise<{ records: TaskRecord[]; nextCursor?: string }> {
    return this.ledger.list(owner, cursor, this.#pageSize);
  }

  /**
   * Cancels an active task (once; a terminal task stays as it is), aborts its work here and, through the bus,
   * on the instance running it; undefined when not found. A task whose work already returned and is applying
   * its outcome cannot be cancelled any more: this resolves its outcome once stored (waiting on `signal`).
   */
  async cancel(id: string, owner: string, signal?: AbortSignal): Promise<TaskRecord | undefined> {
    const found = await this.ledger.get(id, owner);
    if (found === undefined || isTerminal(found.status)) return found;
    const after = await this.ledger.step(id, (r) => cancelTask(r, this.ledger.now(), taskTexts.cancelled(r.tool)));
    if (after?.status !== 'cancelled') return after === undefined ? after : this.settled(id, owner, signal);
    this.#runs.abort(id, new Error(taskTexts.cancelled(found.tool)));
    this.#bus?.publishCancel(id);
    this.#watchers.emit(after);
    return after;
  }

  /** Delivers answers to outstanding input requests (`tasks/update`); undefined when not found. */
  async update(
    id: string,
    owner: string,
    responses: Readonly<Record<string, unknown>>,
  ): Promise<TaskRecord | undefined> {
    const found = await this.ledger.get(id, owner);
    if (found === undefined) return undefined;
    const after = await this.ledger.step(id, (r) => answer(r, this.ledger.now(), responses));
    this.#watchers.emit(after);
    return after;
  }

  /** Resolves the task once it is terminal (legacy `tasks/result`), polling at its interval; undefined when not found. */
  async settled(id: string, owner: string, signal?: AbortSignal): Promise<TaskRecord | undefined> {
    for (;;) {
      const found = await this.ledger.get(id, owner);
      if (found === undefined || isTerminal(found.status)) return found;
      await this.#watchers.pause(id, found.pollIntervalMs, signal);
      if (signal?.aborted === true) throw signal.reason;
    }
  }

  /**
   * Graceful shutdown, after the drain: resolves once every task of this process has its outcome in the store
   * (those still running were aborted by the drain and end as failed), or after `ms` of the service's clock.
   */
  stored(ms: number): Promise<void> {
    return this.#runs.stored(ms);
  }

  /** Closes the store when the service made it. */
  dispose(): void {
    this.#unsubscribe();
    this.#takeovers.stop();
    this.#runs.abortAll(new Error('the server is shutting down'));
    if (this.#ownsStore) this.ledger.store.close?.();
  }
}
