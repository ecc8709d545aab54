import type { FsmStateValue } from '../fsm/types.js';
import { randomBytes } from 'node:crypto';
import type { FusionTool } from '../protocol/types.js';
import type { FsmStateStore } from '../fsm/FsmStateStore.js';
import { MemoryFsmStore } from '../fsm/MemoryFsmStore.js';
import { WorkflowSessions } from './WorkflowSessions.js';
import type { StateMachineGate } from '../fsm/StateMachineGate.js';
import type { FsmSnapshot } from '../fsm/types.js';
import type { Holder } from '../ledger/types.js';
import { HandleBudget, type WorkflowHandleLimits } from './HandleBudget.js';
import { workflowSettings, type WorkflowSettings } from '../fsm/workflowSettings.js';

/** Why a handle-keyed call was turned away once its instance was read (under its lock). */
export type HandleRejection =
  | { kind: 'unknown'; handle: string }
  | { kind: 'finished'; handle: string | undefined; state: FsmStateValue };

/**
 * Where a modern call of a bound tool runs, or why it cannot. `run` names the instance without reading it:
 * the run reads it under its lock and calls {@link WorkflowHandles.admit} (one store round trip, not two).
 */
export type HandleResolution =
  | {
      kind: 'run';
      key: string;
      handle: string | undefined;
      minted: boolean;
      createIfMissing: boolean;
      reader?: boolean;
    }
  | { kind: 'unknown'; handle: string }
  | { kind: 'invalid'; given: string }
  | { kind: 'missing' }
  | { kind: 'anonymous' }
  | { kind: 'full'; budget: 'owner' | 'total'; max: number; message?: string };

/**
 * Handle-keyed workflow instances for requests without a session: each instance lives in the store under
 * `<machine>:<owner>:<handle>`, owned by the caller's principal key (`u:`/`c:`/`a:`, see `requestPrincipal`),
 * with a sliding idle expiry. Live instances are budgeted per principal and per process ({@link HandleBudget}).
 */
export class WorkflowHandles {
  readonly settings: WorkflowSettings;
  readonly sessions: WorkflowSessions;
  readonly #gate: StateMachineGate;
  readonly #store: FsmStateStore;
  readonly #now: () => number;
  /** Live instances per principal and in total (this process). */
  readonly budget: HandleBudget;

  constructor(
    gate: StateMachineGate,
    store: FsmStateStore,
    options: { now?: () => number; onError?: (e: unknown) => void; limits?: WorkflowHandleLimits | undefined } = {},
  ) {
    this.#gate = gate;
    this.#store = store;
    this.#now = options.now ?? Date.now;
    this.budget = new HandleBudget(options.limits, this.#now);
    this.settings = workflowSettings(gate);
    this.sessions = new WorkflowSessions(gate, {
      store,
      ttlMs: this.settings.idleTtlMs,
      now: this.#now,
      ...(options.onError !== undefined ? { onError: options.onError } : {}),
    });
  }

  /** Stops the timers of the handle budget and of an in-memory store (they restart with the next instance). */
  dispose(): void {
    this.budget.dispose();
    if (this.#store instanceof MemoryFsmStore) this.#store.dispose();
  }

  /** True for tools bound to the initial state: called without a handle, they start an instance. */
  isEntry(tool: FusionTool): boolean {
    // `.bindState('*')` readers work in every state but never start an instance.
    return (
      tool.fsm !== undefined &&
      !tool.fsm.states.includes('*') &&
      this.#gate.isAllowedIn(this.#gate.initialState, tool.name)
    );
  }

  /** A fresh handle: the prefix and 128 random bits, URL-safe. */
  mint(): string {
    return `${this.settings.prefix}${randomBytes(16).toString('base64url')}`;
  }

  /** The resource URI of an instance. */
  uri(handle: string): string {
    return `fusion://fsm/${this.settings.machine}/${handle}`;
  }

  keyOf(owner: string, handle: string): string {
    return `${this.settings.machine}:${owner}:${handle}`;
  }

  /** Names (or, for an entry tool called without a handle, mints) the instance a call acts on; reads nothing. */
  resolve(tool: FusionTool, handleValue: unknown, owner: string, holder?: Holder): HandleResolution {
    if (this.settings.mode === 'subject') {
      if (owner.startsWith('a:')) return { kind: 'anonymous' };
      return {
        kind: 'run',
        key: this.keyOf(owner, 'subject'),
        handle: undefined,
        minted: false,
        createIfMissing: true,
        reader: readsOnly(tool),
      };
    }
    if (handleValue === undefined || handleValue === null || handleValue === '') {
      if (!this.isEntry(tool)) return { kind: 'missing' };
      const full = this.budget.check(owner);
      if (full !== 'ok')
        return {
          kind: 'full',
          budget: full,
          max: full === 'owner' ? this.budget.maxPerPrincipal : this.budget.maxTotal,
        };
      const refused = this.budget.refusal(owner, holder);
      if (refused !== undefined)
        return {
          kind: 'full',
          budget: refused.budget === 'total' ? 'total' : 'owner',
          max: refused.max,
          message: refused.message,
        };
      const handle = this.mint();
      return { kind: 'run', key: this.keyOf(owner, handle), handle, minted: true, createIfMissing: true };
    }
    // Validated before any use: a non-string (an object without a usable toString, say) is named by its type only.
    if (typeof handleValue !== 'string')
      return {
        kind: 'invalid',
        given: Array.isArray(handleValue)
          ? 'an array'
          : typeof handleValue === 'object'
            ? 'an object'
            : `a ${typeof handleValue}`,
      };
    if (!handleValue.startsWith(this.settings.prefix)) return { kind: 'unknown', handle: handleValue.slice(0, 200) };
    return {
      kind: 'run',
      key: this.keyOf(owner, handleValue),
      handle: handleValue,
      minted: false,
      createIfMissing: false,
      reader: readsOnly(tool),
    };
  }

  /**
   * The existence check of a resolved instance, given what its run read under the lock (`undefined`: none
   * or expired): unknown unless it may be created, finished in a final state, else admitted (`undefined`).
   */
  admit(
    resolved: { handle: string | undefined; createIfMissing: boolean; reader?: boolean },
    stored: FsmSnapshot | undefined,
  ): HandleRejection | undefined {
    if (stored === undefined)
      return resolved.createIfMissing ? undefined : { kind: 'unknown', handle: resolved.handle ?? '' };
    // A `.bindState('*')` reader may read a finished instance; anything else cannot move it.
    if (this.#gate.isFinal(stored.state) && resolved.reader !== true)
      return { kind: 'finished', handle: resolved.handle, state: stored.state };
    return undefined;
  }

  /** Reads an instance for its resource (`undefined` when unknown, expired or foreign). */
  async read(owner: string, handle: string): Promise<FsmSnapshot | undefined> {
    return this.#live(this.keyOf(owner, handle));
  }

  async #live(key: string): Promise<FsmSnapshot | undefined> {
    const snap = await this.#store.load(key);
    if (snap === undefined) return undefined;
    if (snap.expiresAt !== undefined && snap.expiresAt <= this.#now()) {
      await this.#store.delete?.(key);
      return undefined;
    }
    return snap;
  }
}

/** A `.bindState('*')` tool: joins the workflow in every state without moving it, so it may read a finished instance. */
function readsOnly(tool: FusionTool): boolean {
  return tool.fsm?.event === undefined && tool.fsm?.states.length === 1 && tool.fsm.states[0] === '*';
}
