import { loadOptional, optionalAvailable, requireOptional } from '../_internal/loadOptional.js';
import { DefinitionError } from '../errors/FusionError.js';
import { builtinEngine, type FsmEngine } from './builtinEngine.js';
import { initialValue, isKnownValue, isStatechart, matchesAny, sameState } from './stateValue.js';
import type {
  FsmBinding,
  FsmConfig,
  FsmSnapshot,
  FsmFlatConfig,
  FsmStateValue,
  TransitionEvent,
  TransitionResult,
} from './types.js';
import { assertKnownStates, validateFsmConfig } from './validateFsmConfig.js';
import { xstateEngine, type FsmGuard } from './xstateEngine.js';

/** Which engine computes transitions: XState when installed (`auto`), or a fixed choice. */
export type FsmEngineChoice = 'auto' | 'xstate' | 'builtin';

/** @internal how the server reports a transition a served call made (see {@link StateMachineGate.onTransition}). */
export const reportTransition: unique symbol = Symbol('mcp-fusion.reportTransition');

/** @internal whether anyone hears served transitions (the server builds the event only then). */
export const hasTransitionListeners: unique symbol = Symbol('mcp-fusion.hasTransitionListeners');

/** @internal the transition function once the engine is resolved (`undefined` before the first `next`), for a call without an await. */
export const resolvedEngine: unique symbol = Symbol('mcp-fusion.resolvedEngine');

/** Options of {@link StateMachineGate}. */
export interface StateMachineGateOptions {
  engine?: FsmEngineChoice;
  now?: () => number;
  /**
   * XState guards by name, for guarded transitions (`on: { PAY: [{ target: 'paid', guard: 'funded' }, { target: 'declined' }] }`).
   * Each is called as XState calls guards, `({ context, event }) => boolean`: `context` is the config's
   * static `context` (`{}` when none; the gate never changes it) and `event` is `{ type }`. Guards must be
   * synchronous and should be pure; they may read your own data through closures.
   */
  guards?: Record<string, FsmGuard>;
}

/**
 * A workflow gate: tools bound to states are visible only there, and a successful call sends the
 * tool's event. This object's own state is the standalone, single-instance state; the framework keeps
 * per-session state apart and uses the pure `isAllowedIn` / `next` methods. `S` follows the config: a flat
 * machine's states (`currentState`, `transition()`, `snapshot()`, `onTransition`) are `string`s, a nested
 * or parallel one's full {@link FsmStateValue}s.
 * @see docs/fsm-state-gate.md
 */
class StateMachineGateImpl<S extends FsmStateValue = FsmStateValue> {
  readonly config: Readonly<FsmConfig>;
  readonly #bindings = new Map<string, FsmBinding>();
  readonly #listeners = new Set<(event: TransitionEvent) => void>();
  readonly #choice: FsmEngineChoice;
  readonly #now: () => number;
  readonly #guards: Record<string, FsmGuard>;
  /** True for nested or parallel states or guarded transitions: these need XState. */
  readonly statechart: boolean;
  /** The full starting state value (the initial state entered down to its initial children). */
  readonly initialState: S;
  #engine: Promise<{ name: 'xstate' | 'builtin'; next: FsmEngine }> | undefined;
  #resolved: FsmEngine | undefined;
  #state: FsmStateValue;
  #updatedAt: number;

  constructor(config: FsmConfig, options: StateMachineGateOptions = {}) {
    validateFsmConfig(config, options.guards);
    this.config = Object.freeze(structuredClone(config));
    this.#choice = options.engine ?? 'auto';
    this.#guards = { ...options.guards };
    this.statechart = isStatechart(config) || Object.keys(this.#guards).length > 0;
    if (
      this.statechart &&
      (this.#choice === 'builtin' || (this.#choice === 'auto' && optionalAvailable('xstate') === false))
    ) {
      const machine = config.id === undefined ? 'The FSM' : `FSM "${config.id}"`;
      throw new DefinitionError(
        'FSM_NEEDS_XSTATE',
        `${machine} uses nested or parallel states or guards, which the built-in engine does not support; install XState (\`npm install xstate\`)${this.#choice === 'builtin' ? ' and use engine "auto" or "xstate"' : ' (installed where this process cannot resolve it? hand it over with setXStateModule(await import("xstate")))'}, or flatten the machine.`,
        { machine: config.id },
      );
    }
    this.#now = options.now ?? Date.now;
    this.initialState = initialValue(config) as S;
    this.#state = this.initialState;
    this.#updatedAt = this.#now();
  }

  /** The machine's `id`, when the config names one. */
  get id(): string | undefined {
    return this.config.id;
  }

  /**
   * Binds a tool to the states where it is visible (one state or a list; `'*'` alone: every top-level
   * state; dotted paths such as `'payment.card'` address nested states, and a parent covers its children);
   * `event` is sent after a successful call.
   */
  bindTool(name: string, given: string | readonly string[], event?: string): this {
    const raw = typeof given === 'string' ? [given] : [...given];
    const list = raw.length === 1 && raw[0] === '*' ? Object.keys(this.config.states) : raw;
    if (list.length === 0)
      throw new DefinitionError('FSM_BINDING', `Tool "${name}" is bound to no state; name at least one.`, {
        tool: name,
      });
    assertKnownStates(this.config, list, `Tool "${name}"`);
    this.#bindings.set(
      name,
      Object.freeze(event === undefined ? { states: Object.freeze(list) } : { states: Object.freeze(list), event }),
    );
    return this;
  }

  /** Every binding, by tool name. */
  get bindings(): ReadonlyMap<string, FsmBinding> {
    return this.#bindings;
  }

  /** Whether any tool is bound to a state. */
  get hasBindings(): boolean {
    return this.#bindings.size > 0;
  }

  /** The standalone (single-instance) state. */
  get currentState(): S {
    return this.#state as S;
  }

  /** Unbound tools are always allowed; bound tools only in their states (standalone state). */
  isToolAllowed(name: string): boolean {
    return this.isAllowedIn(this.#state, name);
  }

  /** Pure visibility check in any state (a value, a name or a dotted path); with parallel states, any active path may match. */
  isAllowedIn(state: FsmStateValue, name: string): boolean {
    const binding = this.#bindings.get(name);
    return binding === undefined || matchesAny(state, binding.states);
  }

  /** The names of `allTools` visible in `state`, in order. */
  visibleIn(state: FsmStateValue, allTools: readonly string[]): string[] {
    return allTools.filter((name) => this.isAllowedIn(state, name));
  }

  /** The names of `allTools` visible in the standalone state, in order. */
  getVisibleToolNames(allTools: readonly string[]): string[] {
    return this.visibleIn(this.#state, allTools);
  }

  /** The event a successful call of `name` sends, if it sends one. */
  getTransitionEvent(name: string): string | undefined {
    return this.#bindings.get(name)?.event;
  }

  /** True for top-level states of `type: 'final'`. */
  isFinal(state: FsmStateValue): boolean {
    return typeof state === 'string' && this.config.states[state]?.type === 'final';
  }

  /** Pure: the state `event` leads to from `state` (the same state when unhandled). */
  async next(state: FsmStateValue, event: string): Promise<FsmStateValue> {
    return (await this.#resolveEngine()).next(state, event);
  }

  /** The engine in use (`xstate` or `builtin`), resolving the lazy import on first use. */
  async engine(): Promise<'xstate' | 'builtin'> {
    return (await this.#resolveEngine()).name;
  }

  /** Sends an event to the standalone state and notifies listeners when it changed. */
  async transition(event: string): Promise<TransitionResult<S>> {
    const engine = await this.#resolveEngine();
    // Read the state only after the await, so concurrent transitions apply in call order and none is lost.
    const previousState = this.#state;
    const currentState = engine.next(previousState, event);
    const result = { changed: !sameState(currentState, previousState), previousState, currentState };
    if (result.changed) {
      this.#state = currentState;
      this.#updatedAt = this.#now();
      this.#notify({ ...result, event });
    }
    return result as TransitionResult<S>;
  }

  /**
   * Registers a listener for state changes; returns the unsubscribe function. It hears the standalone
   * `transition(event)` and every transition a served call makes, in both eras: `previousState`,
   * `currentState`, `event`, the `tool` that sent it, and `sessionId` (legacy per-session state) or
   * `workflowKey`/`handle` (handle- or subject-keyed instances). A listener that throws is ignored.
   */
  onTransition(callback: (event: TransitionEvent<S>) => void): () => void {
    const listener = callback as (event: TransitionEvent) => void;
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** The standalone state, serializable for persistence. */
  snapshot(): FsmSnapshot<S> {
    return { state: this.#state as S, updatedAt: this.#updatedAt };
  }

  /** Restores a persisted snapshot; an unknown state throws. */
  restore(snapshot: FsmSnapshot): void {
    if (!isKnownValue(this.config, snapshot.state))
      assertKnownStates(
        this.config,
        [typeof snapshot.state === 'string' ? snapshot.state : JSON.stringify(snapshot.state)],
        'restore()',
      );
    this.#state = snapshot.state;
    this.#updatedAt = snapshot.updatedAt;
  }

  /** @internal the server reports a transition of one session or instance (not the standalone state). */
  [reportTransition](event: TransitionEvent): void {
    this.#notify(event);
  }

  /** @internal true when `onTransition` has a listener. */
  get [hasTransitionListeners](): boolean {
    return this.#listeners.size > 0;
  }

  /** @internal the resolved engine: the same pure function `next` awaits, without the await. */
  get [resolvedEngine](): FsmEngine | undefined {
    return this.#resolved;
  }

  #notify(event: TransitionEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        // A listener must not break a call or a transition; it is observability only.
      }
    }
  }

  /** Removes listeners. */
  dispose(): void {
    this.#listeners.clear();
  }

  #resolveEngine(): Promise<{ name: 'xstate' | 'builtin'; next: FsmEngine }> {
    this.#engine ??= (async () => {
      const engine = await this.#loadEngine();
      this.#resolved = engine.next;
      return engine;
    })();
    return this.#engine;
  }

  async #loadEngine(): Promise<{ name: 'xstate' | 'builtin'; next: FsmEngine }> {
    if (this.#choice === 'builtin') return { name: 'builtin', next: builtinEngine(this.config) };
    const xstate = await loadOptional('xstate');
    if (xstate === undefined) {
      if (this.#choice === 'xstate' || this.statechart)
        await requireOptional(
          'xstate',
          this.statechart ? 'nested or parallel states and guards (the FSM State Gate)' : undefined,
        );
      return { name: 'builtin', next: builtinEngine(this.config) };
    }
    return { name: 'xstate', next: xstateEngine(xstate, this.config, this.#guards) };
  }
}

/** How `new StateMachineGate(config)` types the gate: `string` states for a flat config, full values otherwise. */
export interface StateMachineGateConstructor {
  new (config: FsmFlatConfig, options?: StateMachineGateOptions): StateMachineGateImpl<string>;
  new (config: FsmConfig, options?: StateMachineGateOptions): StateMachineGateImpl;
  readonly prototype: StateMachineGateImpl;
}

/**
 * A workflow gate (see the class above): `StateMachineGate<string>` for a flat machine, `StateMachineGate`
 * (full {@link FsmStateValue}s) for a nested or parallel one, or when the machine is not known.
 */
export type StateMachineGate<S extends FsmStateValue = FsmStateValue> = StateMachineGateImpl<S>;
export const StateMachineGate: StateMachineGateConstructor = StateMachineGateImpl;
