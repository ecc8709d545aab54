import { WorkflowStateError } from '../fsm/WorkflowStateError.js';
import { isKnownValue } from '../fsm/stateValue.js';
import type { FsmConfig, FsmSnapshot } from '../fsm/types.js';

/**
 * What {@link WorkflowSessions} accepts from a store: a snapshot past its `expiresAt` counts as none, and one whose
 * state the machine does not have is refused (flat state names checked once are remembered).
 */
export class StoredStates {
  readonly #config: Readonly<FsmConfig>;
  readonly #now: () => number;
  readonly #known = new Set<string>();

  constructor(config: Readonly<FsmConfig>, now: () => number) {
    this.#config = config;
    this.#now = now;
  }

  /** `undefined` for a snapshot past its `expiresAt` (handle-keyed instances whose store kept it a little longer). */
  unexpired(snap: FsmSnapshot | undefined): FsmSnapshot | undefined {
    return snap !== undefined && snap.expiresAt !== undefined && snap.expiresAt <= this.#now() ? undefined : snap;
  }

  /** `snap` when its state is one of the machine's; throws {@link WorkflowStateError} `FSM_STORE_STATE` otherwise. */
  checked(key: string, snap: FsmSnapshot | undefined): FsmSnapshot | undefined {
    if (snap === undefined) return snap;
    const { state } = snap;
    if (typeof state === 'string' && this.#known.has(state)) return snap;
    if (!isKnownValue(this.#config, state)) {
      throw new WorkflowStateError(
        'FSM_STORE_STATE',
        `the stored workflow state ${JSON.stringify(state)} is not a state of the machine`,
        { key, state },
      );
    }
    if (typeof state === 'string') this.#known.add(state);
    return snap;
  }
}
