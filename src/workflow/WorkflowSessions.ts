import { clockOf } from '../_internal/clock.js';
import type { FsmLease, FsmStateStore } from '../fsm/FsmStateStore.js';
import { KeyLocks } from './KeyLocks.js';
import { ListChangedDebounce } from './ListChangedDebounce.js';
import { storeLease } from './storeLease.js';
import { resolvedEngine, type StateMachineGate } from '../fsm/StateMachineGate.js';
import { sameState } from '../fsm/stateValue.js';
import { StoredStates } from './StoredStates.js';
import type { FsmSnapshot, FsmStateValue, WorkflowOutcome, WorkflowRunOptions } from '../fsm/types.js';
import { WorkflowStateError } from '../fsm/WorkflowStateError.js';

export { WorkflowStateError } from '../fsm/WorkflowStateError.js';
export type { WorkflowOutcome, WorkflowRunOptions } from '../fsm/types.js';

/** Options of {@link WorkflowSessions}. */
export interface WorkflowSessionsOptions {
  /** External persistence; without it each key's state lives in memory until `release(key)`. */
  store?: FsmStateStore;
  /** A burst of transitions within this window yields one `onListChanged` (trailing edge). Default 50 ms. */
  debounceMs?: number;
  /** Called once per burst of changing transitions of `key` (emit `notifications/tools/list_changed`). */
  onListChanged?: (key: string) => void | Promise<void>;
  /** Receives failures of `onListChanged` and of release-time deletes; they never reach a caller. */
  onError?: (error: unknown) => void;
  /** Clock for `updatedAt` / `expiresAt` and the debounce timer (default `Date.now` and real timers). */
  now?: () => number;
  /** When set, saved snapshots carry `expiresAt = now + ttlMs` (handle-keyed instances). */
  ttlMs?: number;
  /** `release(key)` also deletes the key from the store (errors go to `onError`). Default false. */
  deleteOnRelease?: boolean;
  /** How long a run waits for the store's cross-process lock (`FsmStateStore.lock`) before it is refused (10 s). */
  lockWaitMs?: number;
}

/** The state moved while a detached run's work ran: its transition is not applied. */
function moved(from: FsmStateValue, to: FsmStateValue, key: string): WorkflowStateError {
  return new WorkflowStateError(
    'FSM_STORE_CONFLICT',
    `the workflow moved from ${JSON.stringify(from)} to ${JSON.stringify(to)} while this task ran, so its transition was not applied`,
    { key },
  );
}

/**
 * Per-session workflow state over one gate: what a session may see, and gated runs that are serialized
 * per session so that concurrent calls never lose a transition or run in a forbidden state.
 *
 * Save-failure rule: when the new state cannot be persisted, the session keeps its previous state (the
 * one every earlier answer described) and the outcome carries `persistError` for the caller to report.
 * @see docs/fsm-state-gate.md
 */
export class WorkflowSessions {
  readonly #gate: StateMachineGate;
  readonly #store: FsmStateStore | undefined;
  readonly #onError: (error: unknown) => void;
  readonly #now: () => number;
  readonly #ttlMs: number | undefined;
  readonly #deleteOnRelease: boolean;
  readonly #lockWaitMs: number;
  readonly #memory = new Map<string, FsmSnapshot>();
  readonly #locks = new KeyLocks();
  readonly #stored: StoredStates;
  readonly #listChanged: ListChangedDebounce;

  constructor(gate: StateMachineGate, options: WorkflowSessionsOptions = {}) {
    this.#gate = gate;
    this.#store = options.store;
    this.#onError = options.onError ?? (() => {});
    this.#now = options.now ?? Date.now;
    this.#ttlMs = options.ttlMs;
    this.#deleteOnRelease = options.deleteOnRelease ?? false;
    this.#lockWaitMs = options.lockWaitMs ?? 10_000;
    this.#stored = new StoredStates(gate.config, this.#now);
    const clock = clockOf(options.now);
    this.#listChanged = new ListChangedDebounce(clock, options.debounceMs ?? 50, options.onListChanged, this.#onError);
  }

  /** The session's current snapshot (the initial state when it has none). */
  async snapshot(key: string): Promise<FsmSnapshot> {
    if (this.#store === undefined) return this.#memory.get(key) ?? { state: this.#gate.initialState, updatedAt: 0 };
    let snap: FsmSnapshot | undefined;
    try {
      // `?? undefined`: many stores answer a missing key with null (`JSON.parse(await redis.get(k))`).
      snap = (await this.#store.load(key)) ?? undefined;
    } catch (error) {
      throw new WorkflowStateError(
        'FSM_STORE_LOAD',
        `the workflow state store failed to load (${(error as Error)?.message ?? String(error)})`,
        { key },
      );
    }
    return this.#stored.checked(key, snap) ?? { state: this.#gate.initialState, updatedAt: 0 };
  }

  /** The names of `names` visible to the session now. */
  async visible(key: string, names: readonly string[]): Promise<string[]> {
    return this.#gate.visibleIn((await this.snapshot(key)).state, names);
  }

  /**
   * Runs a call of `tool` for the session. Unbound tools run directly. Bound tools run under the
   * session's lock: refused (without running) outside their states, and after a non-error result the
   * tool's event is sent, the new state persisted and `onListChanged` scheduled.
   *
   * Resolves `{ outcome: 'refused', state, allowed }` without running `fn` when the tool is hidden in the
   * key's state, else `{ outcome: 'ran', result, state, transition? }`. When the new state cannot be saved
   * (store error or compare-and-set conflict), the key keeps its previous state, `transition` says
   * `changed: false`, no notification is scheduled, and `persistError` carries the cause: the action ran,
   * but the workflow is still in `state`. Rejects with {@link WorkflowStateError} when the state cannot be
   * loaded (then `fn` has not run), and with whatever `fn` throws.
   */
  run<R extends { isError?: boolean }, A = never>(
    key: string,
    tool: string,
    fn: () => Promise<R>,
    options: WorkflowRunOptions<R, A> = {},
  ): Promise<WorkflowOutcome<R, A>> {
    const binding = this.#gate.bindings.get(tool);
    if (binding === undefined) return (async () => ({ outcome: 'ran' as const, result: await fn() }))();
    if (options.detached === true) return this.#detached(key, tool, binding.event, fn, options);
    return this.#gated(key, tool, binding.event, fn, options);
  }

  /** A detached run: the state checked under the lock, `fn` run without it, the transition applied under it. */
  async #detached<R extends { isError?: boolean }, A>(
    key: string,
    tool: string,
    event: string | undefined,
    fn: () => Promise<R>,
    options: WorkflowRunOptions<R, A>,
  ): Promise<WorkflowOutcome<R, A>> {
    const checked = await this.#gated(key, tool, undefined, async () => ({}) as R, options);
    if (checked.outcome !== 'ran' || checked.persistError !== undefined) return checked;
    const result = await fn();
    return this.#gated(key, tool, event, async () => result, { ...options, expected: checked.state });
  }

  /** One gated run under the key's lock (taken at once when free: no hop before the run starts). */
  async #gated<R extends { isError?: boolean }, A>(
    key: string,
    tool: string,
    event: string | undefined,
    fn: () => Promise<R>,
    options: WorkflowRunOptions<R, A> & { expected?: FsmStateValue | undefined },
  ): Promise<WorkflowOutcome<R, A>> {
    const handedOver = this.#locks.take(key);
    if (handedOver !== undefined) await handedOver;
    // Without a store the state is this process's map: read and written in place, no lease, no await.
    let lease: FsmLease | undefined;
    // Until `end` has been called once (a lease ends once: a second call does nothing, so it is not awaited).
    let open = true;
    try {
      if (this.#store !== undefined)
        lease = await storeLease(
          this.#store,
          key,
          this.#lockWaitMs,
          this.#onError,
          (code, message) => new WorkflowStateError(code, message, { key }),
        );
      const stored =
        lease === undefined
          ? this.#stored.unexpired(this.#memory.get(key))
          : this.#stored.checked(key, this.#stored.unexpired(lease.snapshot));
      const reason = options.admit?.(stored);
      if (reason !== undefined) return { outcome: 'rejected', reason } as WorkflowOutcome<R, A>;
      const state = stored === undefined ? this.#gate.initialState : stored.state;
      if (options.expected !== undefined && !sameState(state, options.expected))
        return { outcome: 'ran', result: await fn(), state, persistError: moved(options.expected, state, key) };
      if (!this.#gate.isAllowedIn(state, tool)) return { outcome: 'refused', state, allowed: this.#allowedIn(state) };
      const result = await fn();
      // An error, or a multi-round-trip `input_required` round (not a final result), moves nothing.
      const moves =
        result.isError !== true &&
        event !== undefined &&
        (result as { resultType?: unknown }).resultType !== 'input_required';
      const engine = this.#gate[resolvedEngine];
      const currentState = !moves
        ? state
        : engine !== undefined
          ? engine(state, event!)
          : await this.#gate.next(state, event!);
      const changed = !sameState(currentState, state);
      const now = this.#now();
      if (!changed) {
        if (this.#ttlMs !== undefined && options.keepAlive?.(result) === true) {
          const snap = stored ?? { state, updatedAt: 0 };
          const kept = {
            ...snap,
            updatedAt: stored === undefined ? now : snap.updatedAt,
            version: snap.version ?? 0,
            expiresAt: now + this.#ttlMs,
          };
          try {
            if (lease === undefined) this.#memory.set(key, kept);
            else {
              open = false;
              await lease.end(kept);
            }
          } catch (error) {
            return {
              outcome: 'ran',
              result,
              state,
              persistError: error instanceof Error ? error : new Error(String(error)),
            };
          }
        }
        return moves
          ? { outcome: 'ran', result, state, transition: { changed, previousState: state, currentState } }
          : { outcome: 'ran', result, state };
      }
      const version = (stored?.version ?? 0) + 1;
      const next: FsmSnapshot =
        this.#ttlMs === undefined
          ? { state: currentState, updatedAt: now, version }
          : { state: currentState, updatedAt: now, version, expiresAt: now + this.#ttlMs };
      if (lease === undefined) this.#memory.set(key, next);
      else {
        try {
          open = false;
          await this.#save(key, lease, next);
        } catch (error) {
          const persistError = error instanceof Error ? error : new Error(String(error));
          return {
            outcome: 'ran',
            result,
            state,
            transition: { changed: false, previousState: state, currentState: state },
            persistError,
          };
        }
      }
      this.#listChanged.schedule(key);
      return {
        outcome: 'ran',
        result,
        state: currentState,
        transition: { changed, previousState: state, currentState },
      };
    } finally {
      // The release when the lease did not end with a save, reported but never thrown.
      if (lease !== undefined && open) await lease.end().catch(this.#onError);
      this.#locks.unlock(key);
    }
  }

  /**
   * Forgets a closed session's in-memory state and pending notification; a run still in flight is
   * forgotten again when it settles, so it cannot leave state behind.
   */
  release(key: string): void {
    this.#forget(key);
    const busy = this.#locks.whenIdle(key, () => this.#forget(key));
    const store = this.#store;
    if (this.#deleteOnRelease && store?.delete !== undefined) {
      const run = () => void store.delete!(key).catch(this.#onError);
      if (!busy) run();
      else this.#locks.whenIdle(key, run);
    }
  }

  #allowedIn(state: FsmStateValue): string[] {
    return [...this.#gate.bindings.keys()].filter((name) => this.#gate.isAllowedIn(state, name));
  }

  #forget(key: string): void {
    this.#memory.delete(key);
    this.#listChanged.cancel(key);
  }

  /** Sessions with in-memory state, locks or pending notifications (for leak checks). */
  get size(): number {
    return new Set([...this.#memory.keys(), ...this.#locks.keys(), ...this.#listChanged.keys()]).size;
  }

  /** Cancels every pending notification. */
  dispose(): void {
    this.#listChanged.dispose();
  }

  /** Writes a transition and ends the lease; throws when it was not stored. */
  async #save(key: string, lease: FsmLease, next: FsmSnapshot): Promise<void> {
    const ended = await lease.end(next);
    if (ended === 'conflict')
      throw new WorkflowStateError('FSM_STORE_CONFLICT', 'the workflow state changed concurrently in another process', {
        key,
      });
    if (ended === 'expired') {
      throw new WorkflowStateError(
        'FSM_STORE_LEASE',
        'the lock on the workflow expired before the save (this process or the store stalled longer than the lease), so the save was refused',
        { key },
      );
    }
  }
}
