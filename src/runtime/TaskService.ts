import { clockOf, type Clock, type Timer } from '../_internal/clock.js';
import type { ByteLedger } from '../ledger/ByteLedger.js';
import { ledgerHolder } from '../principal/ledgerHolder.js';
import type { ToolResponse } from '../protocol/types.js';
import { errorResult } from '../protocol/normalizeResult.js';
import { MemoryTaskStore } from '../tasks/MemoryTaskStore.js';
import { TaskLedger, TaskRefused } from '../tasks/TaskLedger.js';
import type { TaskStore } from '../tasks/TaskStore.js';
import type { TaskBus } from '../tasks/TaskBus.js';
import { answer, cancelTask, claimOutcome, finish, renewLease, withMessage } from '../tasks/transitions.js';
import { taskTexts } from '../tasks/taskTexts.js';
import { isTerminal, type TaskBudgets, type TaskDeclaration, type TaskRecord } from '../tasks/types.js';
import type { DebugEvent } from '../tracing/types.js';
import { routeTask, type Route } from '../surface/compileSurface.js';
import type { RequestContext } from '../surface/types.js';
import type { ToolRuntime } from './ToolRuntime.js';
import { taskExtra } from './taskExtra.js';
import { keptOutcome, taskOutcome, type Settled } from './taskOutcome.js';
import { TaskWatchers } from './TaskWatchers.js';
import { routeScopes } from './requiredScopesOf.js';
import { askThroughTask, relayThroughTask } from './taskInput.js';

/** The `tasks` option: where tasks live and their budgets. */
export interface TaskServiceOptions {
  /** Where tasks live; share a `RedisTaskStore` between instances. Default: a `MemoryTaskStore` of this process. */
  store?: TaskStore;
  budgets?: TaskBudgets;
  /**
   * How long an instance vouches for a task it runs without renewing (ms, default 30,000): a task whose
   * instance died becomes `failed` this long after; without a `bus`, a cancel from another instance reaches
   * the work within a third of it.
   */
  leaseMs?: number;
  /**
   * Carries cancels to the instance running the task at once (`RedisEventBus`'s `tasks`; `createFusionApp`
   * takes it from its `bus` option when that has one). Without it a cancel from another instance reaches the
   * work at its next lease renewal; it never transitions the workflow either way.
   */
  bus?: TaskBus;
  /** Tasks per `tasks/list` page (default 50). */
  pageSize?: number;
}

/** How a task-capable `tools/call` was answered: the plain result (it finished at once) or a task. */
export type TaskStart =
  { readonly kind: 'result'; readonly result: ToolResponse } | { readonly kind: 'task'; readonly record: TaskRecord };

const nextTurn = (): Promise<undefined> => new Promise((resolve) => setImmediate(() => resolve(undefined)));

/**
 * Runs task-supporting tools as tasks: the call goes through the tool's usual call path (scopes, limits,
 * workflow, validation, State Sync), detached from its request, and its outcome lands in the task store
 * once. Also answers the task methods in era-neutral terms (the adapter shapes them for the wire).
 * @see docs/tasks.md
 */
export class TaskService {
  readonly ledger: TaskLedger;
  readonly #tools: ToolRuntime<any>;
  readonly #leaseMs: number;
  readonly #pageSize: number;
  /** The timers of lease renewals and waits: the `now` option's clock (real, unref'd timers by default). */
  readonly #clock: Clock;
  readonly #ownsStore: boolean;
  readonly #running = new Map<string, AbortController>();
  /** The tasks of this process whose outcome is not in the store yet (running, or being written). */
  readonly #outcomes = new Set<Promise<void>>();
  readonly #watchers: TaskWatchers;
  readonly #bus: TaskBus | undefined;
  readonly #unsubscribe: () => void;

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
    this.ledger = new TaskLedger({ store, budgets: options.budgets, now, held });
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#bus = options.bus;
    this.#pageSize = Math.max(1, Math.trunc(options.pageSize ?? 50));
    // A cancel taken on another instance: abort the work here at once (when it runs here).
    this.#unsubscribe =
      this.#bus?.subscribeCancel((id) => this.#running.get(id)?.abort(new Error(`task ${id} was cancelled`))) ??
      (() => {});
  }

  /** The task declaration of the tool a `tools/call` resolved to (its `route`), when it supports tasks. */
  declarationOf(route: Route | undefined): TaskDeclaration | undefined {
    return route === undefined ? undefined : routeTask(route);
  }

  /**
   * Calls `name` as a task owned by the caller. With `immediate`, a call that settles within the current
   * turn is answered with its plain result (or its `input_required` round) and no task is made. `route` is
   * the call's route, resolved once by the caller (a task-supporting tool's).
   */
  async start(
    route: Route,
    name: string,
    args: Record<string, unknown> | undefined,
    scope: RequestContext,
    how: { immediate: boolean; ttlMs?: number | undefined },
  ): Promise<TaskStart> {
    const declaration = routeTask(route)!;
    const controller = new AbortController();
    let created!: (id: string) => void;
    const id = new Promise<string>((resolve) => (created = resolve));
    let taskId: string | undefined = undefined;
    let asked = 0;
    const input = { ledger: this.ledger, watchers: this.#watchers };
    const keyOf = (method: string): string => `${method === 'elicitation/create' ? 'elicit' : 'sample'}-${++asked}`;
    const extra = taskExtra(scope.extra, {
      signal: controller.signal,
      progress: async (done, total, message) => {
        const text = message ?? (total === undefined ? `${done}` : `${done}/${total}`);
        this.#watchers.emit(await this.ledger.step(await id, (r) => withMessage(r, this.ledger.now(), text)));
      },
      ask: async (method, params) =>
        askThroughTask(input, await id, keyOf(method), { method, params }, controller.signal),
      relay: async (method, params, send) => relayThroughTask(input, await id, keyOf(method), { method, params }, send),
      // No task yet (a call settling before its task is stored): nothing could have cancelled it.
      claimResult: () => (taskId === undefined ? true : this.#claim(taskId)),
    });
    // Not the request's span: it ends when the request does, long before the work.
    const begin = (): Promise<Settled> =>
      this.#tools.callTool(name, args, { sessionKey: scope.sessionKey, extra }, route).then(
        (result) => ({ ok: true, result }),
        (error: unknown) => ({ ok: false, error }),
      );
    let running: Promise<Settled> | undefined;
    if (how.immediate) {
      running = begin();
      const first = await Promise.race([running, nextTurn()]);
      if (first !== undefined) {
        if (first.ok) return { kind: 'result', result: first.result };
        throw first.error;
      }
    }
    let record: TaskRecord;
    try {
      record = await this.ledger.create({
        owner: scope.extra.principal.key,
        holder: ledgerHolder(scope),
        tool: name,
        arguments: args,
        requiredScopes: routeScopes(route, args),
        ttlMs: Math.min(how.ttlMs ?? declaration.ttlMs, declaration.ttlMs),
        pollIntervalMs: declaration.pollIntervalMs,
        leaseUntil: this.ledger.now() + this.#leaseMs,
      });
    } catch (error) {
      controller.abort(error);
      if (error instanceof TaskRefused) return { kind: 'result', result: errorResult(error.message) };
      throw error;
    }
    this.#running.set(record.id, controller);
    this.#watchers.emit(record);
    taskId = record.id;
    created(record.id);
    const renewEvery = Math.max(10, this.#leaseMs / 3);
    const renew = this.#clock.setInterval(() => void this.#renew(record.id, controller), renewEvery);
    // The run's own signal aborts on timeout, on cancel (the task's controller) and on shutdown (after the drain).
    const shutDown = (settled: Settled): boolean =>
      settled.ok &&
      settled.result.isError === true &&
      settled.result._meta?.['fusion/timeout'] === undefined &&
      !controller.signal.aborted &&
      extra.signal.aborted;
    const outcome = (running ?? begin())
      .then((settled) =>
        this.#settle(
          record,
          shutDown(settled) ? { ok: false, error: new Error(taskTexts.shutDown(record.id, record.tool)) } : settled,
        ),
      )
      .finally(() => {
        renew.cancel();
        this.#running.delete(record.id);
        this.#outcomes.delete(outcome);
        this.ledger.release(record.id);
      });
    this.#outcomes.add(outcome);
    return { kind: 'task', record };
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
    this.#running.get(id)?.abort(new Error(taskTexts.cancelled(found.tool)));
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
  async stored(ms: number): Promise<void> {
    let timer: Timer | undefined;
    await Promise.race([
      Promise.allSettled([...this.#outcomes]),
      new Promise((resolve) => (timer = this.#clock.setTimeout(() => resolve(undefined), ms))),
    ]);
    timer?.cancel();
  }

  /** Closes the store when the service made it. */
  dispose(): void {
    this.#unsubscribe();
    for (const controller of this.#running.values()) controller.abort(new Error('the server is shutting down'));
    if (this.#ownsStore) this.ledger.store.close?.();
  }

  /** The work returned: keep its result only if the task is still active, and from now on refuse cancels. */
  async #claim(id: string): Promise<boolean> {
    const after = await this.ledger.step(id, claimOutcome);
    return after !== undefined && !isTerminal(after.status);
  }

  async #settle(record: TaskRecord, settled: Settled): Promise<void> {
    try {
      const outcome = await keptOutcome(this.ledger, record, taskOutcome(record, settled));
      this.#watchers.emit(await this.ledger.step(record.id, (r) => finish(r, this.ledger.now(), outcome)));
    } catch {
      // The store is unreachable: the lease runs out and the next reader marks the task failed.
    }
  }

  async #renew(id: string, controller: AbortController): Promise<void> {
    try {
      const after = await this.ledger.step(id, (r) => renewLease(r, this.ledger.now() + this.#leaseMs));
      // Cancelled (or gone) through another instance: stop the work here.
      if (after === undefined || isTerminal(after.status)) controller.abort(new Error(`task ${id} ended elsewhere`));
      else this.#watchers.wake(id);
    } catch {
      // The store is unreachable; the next tick tries again.
    }
  }
}
