export { StateMachineGate, type FsmEngineChoice, type GateOptions } from './StateMachineGate.js';
export { initFsmEngine } from './initFsmEngine.js';
export { setXStateModule } from './setXStateModule.js';
export { MemoryFsmStore } from './MemoryFsmStore.js';
export { GateSessions, WorkflowStateError, type GateOutcome, type GateSessionsOptions } from './GateSessions.js';
export { fsmWarnings } from './analyzeFsm.js';
export type { FsmStateStore } from './FsmStateStore.js';
export type { FsmBinding, FsmConfig, FsmSnapshot, FsmStateConfig, TransitionEvent, TransitionResult } from './types.js';
