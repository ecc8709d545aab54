// State Sync: the public names (the root barrel re-exports this list).
export { matchGlob } from './matchGlob.js';
export { PolicyEngine } from './PolicyEngine.js';
export { validatePolicies } from './PolicyValidator.js';
export { detectOverlaps } from './detectOverlaps.js';
export { resolveSyncPolicy } from './resolveSyncPolicy.js';
export { StateSyncLayer } from './StateSyncLayer.js';
export { META } from './metaKeys.js';
export type {
  CacheDirective,
  InlineSyncDeclaration,
  InvalidationEvent,
  InvalidationMeta,
  OverlapWarning,
  ResolvedPolicy,
  ResourceNotification,
  StateSyncConfig,
  StateSyncLayerOptions,
  SyncPolicy,
} from './types.js';
