export {
  StateMachineGate,
  type FsmEngineChoice,
  type GateOptions,
  type StateMachineGateConstructor,
} from './StateMachineGate.js';
export { initFsmEngine } from './initFsmEngine.js';
export { setXStateModule } from './setXStateModule.js';
export { MemoryFsmStore } from './MemoryFsmStore.js';
export {
  GateSessions,
  WorkflowStateError,
  type GateOutcome,
  type GateRunOptions,
  type GateSessionsOptions,
} from '../workflow/GateSessions.js';
export { fsmWarnings } from './analyzeFsm.js';
export type { FsmLease, FsmLeaseEnd, FsmStateStore } from './FsmStateStore.js';
export type {
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
