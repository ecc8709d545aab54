/**
 * A workflow state: a name (`'draft'`) for flat machines; with XState, an object for nested and parallel
 * states (`{ payment: 'card' }`, `{ review: { legal: 'open', tech: 'done' } }`), as XState reports it.
 */
export type FsmStateValue = string | { readonly [region: string]: FsmStateValue };

/** A guarded transition (XState only): `guard` names a function of the gate's `guards` option. */
export interface FsmTransitionConfig {
  target?: string;
  guard?: string;
}

/**
 * One state of a workflow machine. `on` maps events to targets. With XState installed, a state may also
 * nest `states` (with an `initial` child), be `type: 'parallel'` (every child region active at once), and
 * take guarded transitions (`{ target, guard }` or a list of them, the first whose guard passes wins).
 */
export interface FsmStateConfig {
  on?: Record<string, string | FsmTransitionConfig | FsmTransitionConfig[]>;
  type?: 'final' | 'parallel' | 'compound';
  initial?: string;
  states?: Record<string, FsmStateConfig>;
}

/** A state of a flat machine: no children, so the machine's states are plain names. */
export interface FsmFlatStateConfig {
  on?: NonNullable<FsmStateConfig['on']>;
  type?: 'final';
  initial?: never;
  states?: never;
}

/**
 * A config none of whose states nests `states`: the seeds' machines. A gate over one (`f.fsm({ … })`,
 * `new StateMachineGate({ … })`) types its states as `string`; any other config gives {@link FsmStateValue}s.
 * @see docs/fsm-state-gate.md#state-types
 */
export interface FsmFlatConfig extends Omit<FsmConfig, 'states'> {
  states: Record<string, FsmFlatStateConfig>;
}

/** The machine definition shared by XState v5 and the built-in engine. */
export interface FsmConfig {
  id?: string;
  initial: string;
  states: Record<string, FsmStateConfig>;
  /** XState machine context, read by guards (`({ context, event }) => boolean`); it never changes. */
  context?: Record<string, unknown>;
  /**
   * What names a workflow instance on modern (2026-07-28) requests: a server-minted handle the client
   * passes back (`'handle'`, default), or the caller's auth subject (`'subject'`, one per user).
   */
  key?: 'handle' | 'subject';
  /** Name of the handle argument (default `<id>_id`, e.g. `checkout_id`). */
  handleArg?: string;
  /** Prefix of minted handles (default: the first three letters of the id and `_`). */
  handlePrefix?: string;
  /** Sliding idle expiry of a workflow instance in ms (default 24 h). */
  idleTtlMs?: number;
  /** How legacy clients are served: per-session state (`'session'`, the seeds) or handles like modern ones. */
  legacy?: 'session' | 'handle';
}

/** What a store persists for one session or workflow instance (`S`: `string` for a flat machine's gate). */
export interface FsmSnapshot<S extends FsmStateValue = FsmStateValue> {
  /** The full state value (an object for nested or parallel states). */
  state: S;
  updatedAt: number;
  /** Incremented on every saved transition; stores with compare-and-set use it to stay atomic. */
  version?: number;
  /** Handle-keyed instances: when the instance expires unless used again (ms since epoch). */
  expiresAt?: number;
}

/** Outcome of `gate.transition(event)` (`S`: `string` for a flat machine's gate). */
export interface TransitionResult<S extends FsmStateValue = FsmStateValue> {
  changed: boolean;
  previousState: S;
  currentState: S;
}

/**
 * What `gate.onTransition(cb)` receives: the change, the event that caused it and, for a transition a
 * served call made, the tool and whose workflow moved (`sessionId` for legacy per-session state,
 * `workflowKey` — and `handle` when one was minted — for handle- or subject-keyed instances).
 */
export interface TransitionEvent<S extends FsmStateValue = FsmStateValue> extends TransitionResult<S> {
  event: string;
  tool?: string;
  sessionId?: string;
  workflowKey?: string;
  handle?: string;
}

/** A tool's binding to the machine, as `.bindState(states, event)` declares it. */
export interface FsmBinding {
  readonly states: readonly string[];
  readonly event?: string;
}

/** Outcome of {@link WorkflowSessions.run}. */
export type WorkflowOutcome<R, A = never> =
  /** `allowed`: the bound tools allowed in `state` (the caller adds the unbound ones it exposes). */
  | { outcome: 'refused'; state: FsmStateValue; allowed: string[] }
  /** `state`: the session's state after the call (bound tools only), e.g. to filter suggested next actions. */
  | { outcome: 'ran'; result: R; state?: FsmStateValue; transition?: TransitionResult; persistError?: Error }
  /** `admit` turned the call away before the gate looked at it (see {@link WorkflowRunOptions.admit}). */
  | ([A] extends [never] ? never : { outcome: 'rejected'; reason: A });

/** Per-call options of {@link WorkflowSessions.run}. */
export interface WorkflowRunOptions<R, A> {
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
  /**
   * Long work (a task): the key's lock is held only to check the state before `fn` runs and to apply the
   * transition after, not while `fn` runs, so other calls of the key are served meanwhile. When the state
   * moved in between, the transition is not applied: the outcome carries a `persistError` saying so.
   */
  detached?: boolean;
}
