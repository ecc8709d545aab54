import { clockOf, type Clock, type Timer } from '../_internal/clock.js';
import { FusionError } from '../errors/FusionError.js';
import type { FsmLease, FsmStateStore } from './FsmStateStore.js';
import { KeyLock } from './KeyLock.js';
import { storeLease } from './storeLease.js';
import { resolvedEngine, type StateMachineGate } from './StateMachineGate.js';
import { isKnownValue, sameState } from './stateValue.js';
import type { FsmSnapshot, FsmStateValue, TransitionResult } from './types.js';

/** The workflow state of a session could not be read or written. */
export class WorkflowStateError extends FusionError {}

/** Outcome of {@link GateSessions.run}. */
export type GateOutcome<R, A = never> =
  /** `allowed`: the bound tools allowed in `state` (the caller adds the unbound ones it exposes). */
  | { outcome: 'refused'; state: FsmStateValue; allowed: string[] }
  /** `state`: the session's state after the call (bound tools only), e.g. to filter suggested next actions. */
  | { outcome: 'ran'; result: R; state?: FsmStateValue; transition?: TransitionResult; persistError?: Error }
  /** `admit` turned the call away before the gate looked at it (see {@link GateRunOptions.admit}). */
  | ([A] extends [never] ? never : { outcome: 'rejected'; reason: A });

/** Per-call options of {@link GateSessions.run}. */
export interface GateRunOptions<R, A> {
  /**
   * Looks at the stored snapshot (`undefined` when none, or expired) under the key's lock, before the gate
   * does; a returned reason turns the call away without running it (outcome `rejected`). Handle-keyed
   * callers use it for unknown and finished instances, so that the existence check costs no extra read.
   */
  admit?: (stored: FsmSnapshot | undefined) => A | undefined;
  /**
   * With `ttlMs` set: when this returns true for a result that did not change the state, the snapshot is
   * written back with a fresh `expiresAt` in the same store operation that releases the lock — a sliding
   * expiry, and the creation of a new key (version 0) that was called without a transition.
   */
  keepAlive?: (result: R) => boolean;
}

/** Options of {@link GateSessions}. */
export interface GateSessionsOptions {
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

/**
 * Per-session workflow state over one gate: what a session may see, and gated runs that are serialized
 * per session so that concurrent calls never lose a transition or run in a forbidden state.
 *
 * Save-failure rule: when the new state cannot be persisted, the session keeps its previous state (the
 * one every earlier answer described) and the outcome carries `persistError` for the caller to report.
 * @see docs/fsm-state-gate.md
 */
export class GateSessions {
  readonly #gate: StateMachineGate;
  readonly #store: FsmStateStore | undefined;
  readonly #debounceMs: number;
  readonly #onListChanged: GateSessionsOptions['onListChanged'];
  readonly #onError: (error: unknown) => void;
  readonly #now: () => number;
  readonly #clock: Clock;
  readonly #ttlMs: number | undefined;
  readonly #deleteOnRelease: boolean;
  readonly #lockWaitMs: number;
  readonly #memory = new Map<string, FsmSnapshot>();
  readonly #locks = new Map<string, KeyLock>();
  /** Flat state names already checked against the machine (`#checked`). */
  readonly #knownStates = new Set<string>();
  readonly #timers = new Map<string, Timer>();

  constructor(gate: StateMachineGate, options: GateSessionsOptions = {}) {
    this.#gate = gate;
    this.#store = options.store;
    this.#debounceMs = options.debounceMs ?? 50;
    this.#onListChanged = options.onListChanged;
    this.#onError = options.onError ?? (() => {});
    this.#now = options.now ?? Date.now;
    this.#clock = clockOf(options.now);
    this.#ttlMs = options.ttlMs;
    this.#deleteOnRelease = options.deleteOnRelease ?? false;
    this.#lockWaitMs = options.lockWaitMs ?? 10_000;
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
    if (snap !== undefined && !isKnownValue(this.#gate.config, snap.state)) {
      throw new WorkflowStateError(
        'FSM_STORE_STATE',
        `the stored workflow state ${JSON.stringify(snap.state)} is not a state of the machine`,
        { key, state: snap.state },
      );
    }
    return snap ?? { state: this.#gate.initialState, updatedAt: 0 };
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
    options: GateRunOptions<R, A> = {},
  ): Promise<GateOutcome<R, A>> {
    const binding = this.#gate.bindings.get(tool);
    if (binding === undefined) return (async () => ({ outcome: 'ran' as const, result: await fn() }))();
    return this.#gated(key, tool, binding.event, fn, options);
  }

  /** One gated run under the key's lock (taken at once when free: no hop before the run starts). */
  async #gated<R extends { isError?: boolean }, A>(
    key: string,
    tool: string,
    event: string | undefined,
    fn: () => Promise<R>,
    options: GateRunOptions<R, A>,
  ): Promise<GateOutcome<R, A>> {
    const held = this.#locks.get(key);
    if (held === undefined) this.#locks.set(key, new KeyLock());
    else await held.wait();
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
          ? this.#unexpired(this.#memory.get(key))
          : this.#checked(key, this.#unexpired(lease.snapshot));
      const reason = options.admit?.(stored);
      if (reason !== undefined) return { outcome: 'rejected', reason } as GateOutcome<R, A>;
      const state = stored === undefined ? this.#gate.initialState : stored.state;
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
      this.#schedule(key);
      return {
        outcome: 'ran',
        result,
        state: currentState,
        transition: { changed, previousState: state, currentState },
      };
    } finally {
      // The release when the lease did not end with a save, reported but never thrown.
      if (lease !== undefined && open) await lease.end().catch(this.#onError);
      this.#unlock(key);
    }
  }

  /**
   * Forgets a closed session's in-memory state and pending notification; a run still in flight is
   * forgotten again when it settles, so it cannot leave state behind.
   */
  release(key: string): void {
    this.#forget(key);
    const lock = this.#locks.get(key);
    lock?.whenIdle(() => this.#forget(key));
    const store = this.#store;
    if (this.#deleteOnRelease && store?.delete !== undefined) {
      const run = () => void store.delete!(key).catch(this.#onError);
      if (lock === undefined) run();
      else lock.whenIdle(run);
    }
  }

  #allowedIn(state: FsmStateValue): string[] {
    return [...this.#gate.bindings.keys()].filter((name) => this.#gate.isAllowedIn(state, name));
  }

  #forget(key: string): void {
    this.#memory.delete(key);
    this.#timers.get(key)?.cancel();
    this.#timers.delete(key);
  }

  /** Sessions with in-memory state, locks or pending notifications (for leak checks). */
  get size(): number {
    return new Set([...this.#memory.keys(), ...this.#locks.keys(), ...this.#timers.keys()]).size;
  }

  /** Cancels every pending notification. */
  dispose(): void {
    for (const timer of this.#timers.values()) timer.cancel();
    this.#timers.clear();
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

  /** A stored snapshot past its `expiresAt` counts as none (handle-keyed instances whose store kept it a little longer). */
  #unexpired(snap: FsmSnapshot | undefined): FsmSnapshot | undefined {
    return snap !== undefined && snap.expiresAt !== undefined && snap.expiresAt <= this.#now() ? undefined : snap;
  }

  /** A loaded snapshot whose state the machine knows (flat states seen once are remembered). */
  #checked(key: string, snap: FsmSnapshot | undefined): FsmSnapshot | undefined {
    if (snap === undefined) return snap;
    const { state } = snap;
    if (typeof state === 'string' && this.#knownStates.has(state)) return snap;
    if (!isKnownValue(this.#gate.config, state)) {
      throw new WorkflowStateError(
        'FSM_STORE_STATE',
        `the stored workflow state ${JSON.stringify(state)} is not a state of the machine`,
        { key, state },
      );
    }
    if (typeof state === 'string') this.#knownStates.add(state);
    return snap;
  }

  /** Debounces `onListChanged` per key with one timer per burst: a pending timer is restarted, not replaced. */
  #schedule(key: string): void {
    const pending = this.#timers.get(key);
    if (pending !== undefined) {
      pending.refresh();
      return;
    }
    const timer = this.#clock.setTimeout(() => {
      this.#timers.delete(key);
      try {
        const sent = this.#onListChanged?.(key);
        if (sent !== undefined) void Promise.resolve(sent).catch(this.#onError);
      } catch (error) {
        this.#onError(error);
      }
    }, this.#debounceMs);
    this.#timers.set(key, timer);
  }

  /** Hands the key's lock to the next waiting run, or frees it (and tells those waiting for it to go idle). */
  #unlock(key: string): void {
    const lock = this.#locks.get(key);
    if (lock === undefined || lock.handOver()) return;
    this.#locks.delete(key);
    lock.idle();
  }
}
