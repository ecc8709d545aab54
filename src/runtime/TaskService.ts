import type { ToolResponse } from '../protocol/types.js';
import { errorResult, isInputRequired } from '../protocol/normalizeResult.js';
import { WireError, JsonRpcCode } from '../errors/WireError.js';
import { MemoryTaskStore } from '../tasks/MemoryTaskStore.js';
import { TaskLedger, TaskRefused } from '../tasks/TaskLedger.js';
import type { TaskStore } from '../tasks/TaskStore.js';
import {
  answer,
  askInput,
  finish,
  renewLease,
  takeResponse,
  withMessage,
  type TaskOutcome,
} from '../tasks/transitions.js';
import { taskTexts } from '../tasks/taskTexts.js';
import {
  isTerminal,
  type TaskBudgets,
  type TaskDeclaration,
  type TaskRecord,
  type TaskStatus,
} from '../tasks/types.js';
import type { DebugEvent } from '../tracing/types.js';
import { routeTask } from '../surface/compileSurface.js';
import type { RequestContext } from '../surface/types.js';
import type { ToolRuntime } from './ToolRuntime.js';
import { taskExtra } from './taskExtra.js';

/** The `tasks` option: where tasks live and their budgets. */
export interface TaskServiceOptions {
  /** Where tasks live; share a `RedisTaskStore` between instances. Default: a `MemoryTaskStore` of this process. */
  store?: TaskStore;
  budgets?: TaskBudgets;
  /**
   * How long an instance vouches for a task it runs without renewing (ms, default 30,000): a task whose
   * instance died becomes `failed` this long after, and a cancel from another instance reaches the work
   * within a third of it.
   */
  leaseMs?: number;
}

/** How a task-capable `tools/call` was answered: the plain result (it finished at once) or a task. */
export type TaskStart =
  { readonly kind: 'result'; readonly result: ToolResponse } | { readonly kind: 'task'; readonly record: TaskRecord };

type Settled = { readonly ok: true; readonly result: ToolResponse } | { readonly ok: false; readonly error: unknown };

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
  readonly #ownsStore: boolean;
  readonly #running = new Map<string, AbortController>();
  /** The tasks of this process whose outcome is not in the store yet (running, or being written). */
  readonly #outcomes = new Set<Promise<void>>();
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #listeners = new Set<(record: TaskRecord) => void>();

  readonly #debug: ((event: DebugEvent) => void) | undefined;
  readonly #statuses = new Map<string, TaskStatus>();

  constructor(
    tools: ToolRuntime<any>,
    options: TaskServiceOptions = {},
    now?: () => number,
    debug?: (event: DebugEvent) => void,
  ) {
    this.#debug = debug;
    this.#tools = tools;
    this.#ownsStore = options.store === undefined;
    const store = options.store ?? new MemoryTaskStore(now === undefined ? {} : { now });
    this.ledger = new TaskLedger({ store, budgets: options.budgets, now });
    this.#leaseMs = options.leaseMs ?? 30_000;
  }

  /** The task declaration of the tool a `tools/call` names, when it supports tasks. */
  declarationOf(name: unknown): TaskDeclaration | undefined {
    const route = typeof name === 'string' ? this.#tools.surface.routes.get(name) : undefined;
    return route === undefined ? undefined : routeTask(route);
  }

  /**
   * Calls `name` as a task owned by the caller. With `immediate`, a call that settles within the current
   * turn is answered with its plain result (or its `input_required` round) and no task is made.
   */
  async start(
    name: string,
    args: Record<string, unknown> | undefined,
    scope: RequestContext,
    how: { immediate: boolean; ttlMs?: number | undefined },
  ): Promise<TaskStart> {
    const declaration = this.declarationOf(name)!;
    const controller = new AbortController();
    let created!: (id: string) => void;
    const id = new Promise<string>((resolve) => (created = resolve));
    let asked = 0;
    const extra = taskExtra(scope.extra, {
      signal: controller.signal,
      progress: async (done, total, message) => {
        const text = message ?? (total === undefined ? `${done}` : `${done}/${total}`);
        this.#emit(await this.ledger.step(await id, (r) => withMessage(r, this.ledger.now(), text)));
      },
      ask: async (method, params) =>
        this.#ask(
          await id,
          `${method === 'elicitation/create' ? 'elicit' : 'sample'}-${++asked}`,
          { method, params },
          controller.signal,
        ),
      relay: async (method, params, send) =>
        this.#relay(
          await id,
          `${method === 'elicitation/create' ? 'elicit' : 'sample'}-${++asked}`,
          { method, params },
          send,
        ),
    });
    // Not the request's span: it ends when the request does, long before the work.
    const begin = (): Promise<Settled> =>
      this.#tools.callTool(name, args, { sessionKey: scope.sessionKey, extra }).then(
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
        tool: name,
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
    this.#emit(record);
    created(record.id);
    const renew = setInterval(() => void this.#renew(record.id, controller), Math.max(10, this.#leaseMs / 3));
    renew.unref?.();
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
        clearInterval(renew);
        this.#running.delete(record.id);
        this.#outcomes.delete(outcome);
        this.ledger.release();
      });
    this.#outcomes.add(outcome);
    return { kind: 'task', record };
  }

  /** Hears every change of a task this process sees (legacy status notifications); returns unsubscribe. */
  onStatus(listener: (record: TaskRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The task as its owner may see it; undefined for an unknown, expired or another caller's task. */
  get(id: string, owner: string): Promise<TaskRecord | undefined> {
    return this.ledger.get(id, owner);
  }

  /** Cancels an active task (once; a terminal task stays as it is) and aborts its work; undefined when not found. */
  async cancel(id: string, owner: string): Promise<TaskRecord | undefined> {
    const found = await this.ledger.get(id, owner);
    if (found === undefined || isTerminal(found.status)) return found;
    const after = await this.ledger.step(id, (r) =>
      finish(r, this.ledger.now(), { status: 'cancelled', statusMessage: taskTexts.cancelled(r.tool) }),
    );
    this.#running.get(id)?.abort(new Error(taskTexts.cancelled(found.tool)));
    this.#emit(after);
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
    this.#emit(after);
    return after;
  }

  /** Resolves the task once it is terminal (legacy `tasks/result`), polling at its interval; undefined when not found. */
  async settled(id: string, owner: string, signal?: AbortSignal): Promise<TaskRecord | undefined> {
    for (;;) {
      const found = await this.ledger.get(id, owner);
      if (found === undefined || isTerminal(found.status)) return found;
      await this.#pause(id, found.pollIntervalMs, signal);
      if (signal?.aborted === true) throw signal.reason;
    }
  }

  /**
   * Graceful shutdown, after the drain: resolves once every task of this process has its outcome in the store
   * (those still running were aborted by the drain and end as failed), or after `ms`.
   */
  async stored(ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.allSettled([...this.#outcomes]),
      new Promise((resolve) => (timer = setTimeout(resolve, ms))),
    ]);
    clearTimeout(timer);
  }

  /** Closes the store when the service made it. */
  dispose(): void {
    for (const controller of this.#running.values()) controller.abort(new Error('the server is shutting down'));
    if (this.#ownsStore) this.ledger.store.close?.();
  }

  async #ask(
    id: string,
    key: string,
    request: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    let record = await this.ledger.step(id, (r) => askInput(r, this.ledger.now(), key, request));
    this.#emit(record);
    for (;;) {
      if (record === undefined || isTerminal(record.status))
        throw new Error(`task ${id} ended while waiting for input`);
      if (record.inputResponses !== undefined && Object.hasOwn(record.inputResponses, key)) {
        const value = record.inputResponses[key] as Record<string, unknown>;
        await this.ledger.step(id, (r) => takeResponse(r, key));
        return value;
      }
      await this.#pause(id, record.pollIntervalMs, signal);
      if (signal.aborted) throw signal.reason;
      record = (await this.ledger.store.get(id))?.record;
    }
  }

  async #relay(
    id: string,
    key: string,
    request: Record<string, unknown>,
    send: () => Promise<Record<string, unknown>>,
  ): Promise<Record<string, unknown>> {
    this.#emit(await this.ledger.step(id, (r) => askInput(r, this.ledger.now(), key, request)));
    try {
      return await send();
    } finally {
      const now = this.ledger.now();
      this.#emit(await this.ledger.step(id, (r) => takeResponse(answer(r, now, { [key]: true }) ?? r, key)));
    }
  }

  async #settle(record: TaskRecord, settled: Settled): Promise<void> {
    try {
      const outcome = await this.#kept(record, this.#outcome(record, settled));
      this.#emit(await this.ledger.step(record.id, (r) => finish(r, this.ledger.now(), outcome)));
    } catch {
      // The store is unreachable: the lease runs out and the next reader marks the task failed.
    }
  }

  /**
   * A completed result is kept within the budgets: at most `maxResultBytes`, and counted against its owner's
   * stored bytes until it expires; past either it is replaced by an `isError` result saying what to do.
   */
  async #kept(record: TaskRecord, outcome: TaskOutcome): Promise<TaskOutcome> {
    if (outcome.status !== 'completed') return outcome;
    const { maxResultBytes, maxStoredBytesPerPrincipal: maxBytes } = this.ledger.budgets;
    const bytes = Buffer.byteLength(JSON.stringify(outcome.result));
    if (bytes > maxResultBytes)
      return { status: 'completed', result: errorResult(taskTexts.resultTooLarge(record.tool, bytes, maxResultBytes)) };
    if (
      await this.ledger.store.reserveResult(record.owner, record.id, bytes, {
        expiresAt: record.createdAt + record.ttlMs,
        maxBytes,
      })
    )
      return outcome;
    return { status: 'completed', result: errorResult(taskTexts.storedFull(record.tool, maxBytes)) };
  }

  #outcome(record: TaskRecord, settled: Settled): TaskOutcome {
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

  async #renew(id: string, controller: AbortController): Promise<void> {
    try {
      const after = await this.ledger.step(id, (r) => renewLease(r, this.ledger.now() + this.#leaseMs));
      // Cancelled (or gone) through another instance: stop the work here.
      if (after === undefined || isTerminal(after.status)) controller.abort(new Error(`task ${id} ended elsewhere`));
      else this.#wake(id);
    } catch {
      // The store is unreachable; the next tick tries again.
    }
  }

  #pause(id: string, ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(id) ?? new Set();
      this.#waiters.set(id, waiters);
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        waiters.delete(done);
        if (waiters.size === 0) this.#waiters.delete(id);
        resolve();
      };
      const timer = setTimeout(done, Math.max(10, ms));
      signal?.addEventListener('abort', done, { once: true });
      waiters.add(done);
    });
  }

  #wake(id: string): void {
    for (const waiter of [...(this.#waiters.get(id) ?? [])]) waiter();
  }

  #emit(record: TaskRecord | undefined): void {
    if (record === undefined) return;
    this.#wake(record.id);
    // The debug observer hears status changes, not every progress message.
    if (this.#debug !== undefined && this.#statuses.get(record.id) !== record.status) {
      if (isTerminal(record.status)) this.#statuses.delete(record.id);
      else this.#statuses.set(record.id, record.status);
      this.#debug({
        type: 'task',
        tool: record.tool,
        taskId: record.id,
        status: record.status,
        ...(record.statusMessage !== undefined ? { statusMessage: record.statusMessage } : {}),
      });
    }
    for (const listener of this.#listeners) listener(record);
  }
}
