export {
  StateMachineGate,
  type FsmEngineChoice,
  type StateMachineGateOptions,
  type StateMachineGateConstructor,
} from './StateMachineGate.js';
export { initFsmEngine } from './initFsmEngine.js';
export { setXStateModule } from './setXStateModule.js';
export { MemoryFsmStore } from './MemoryFsmStore.js';
export { WorkflowStateError } from './WorkflowStateError.js';
export { fsmWarnings } from './analyzeFsm.js';
export type { FsmLease, FsmLeaseEnd, FsmStateStore } from './FsmStateStore.js';
export type {
  WorkflowOutcome,
  WorkflowRunOptions,
  FsmBinding,
  FsmConfig,
  FsmSnapshot,
  FsmStateConfig,
  FsmStateValue,
  FsmFlatConfig,
  FsmFlatStateConfig,
  FsmTransitionConfig,
  TransitionEvent,
  TransitionResult,
} from './types.js';
