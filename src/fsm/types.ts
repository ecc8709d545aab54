/** One state of a workflow machine. */
export interface FsmStateConfig {
  on?: Record<string, string>;
  type?: 'final';
}

/** The machine definition shared by XState v5 and the built-in engine. */
export interface FsmConfig {
  id?: string;
  initial: string;
  states: Record<string, FsmStateConfig>;
}

/** What a store persists for one session or workflow instance. */
export interface FsmSnapshot {
  state: string;
  updatedAt: number;
  /** Incremented on every saved transition; stores with compare-and-set use it to stay atomic. */
  version?: number;
}

/** Outcome of `gate.transition(event)`. */
export interface TransitionResult {
  changed: boolean;
  previousState: string;
  currentState: string;
}

/** A tool's binding to the machine, as `.bindState(states, event)` declares it. */
export interface FsmBinding {
  readonly states: readonly string[];
  readonly event?: string;
}
