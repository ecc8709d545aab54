export { matchGlob, isValidGlob, MAX_ITERATIONS } from './matchGlob.js';
export { PolicyEngine, MAX_CACHE_ENTRIES } from './PolicyEngine.js';
export { validatePolicies } from './PolicyValidator.js';
export { detectOverlaps, type OverlapWarning } from './detectOverlaps.js';
export { StateSyncLayer } from './StateSyncLayer.js';
export { invalidationBlock } from './ResponseDecorator.js';
export { decorateDescription } from './DescriptionDecorator.js';
export { META } from './metaKeys.js';
export type { CacheDirective, InlineSyncDeclaration, InvalidationEvent, ResolvedPolicy, ResourceNotification, StateSyncConfig, SyncPolicy } from './types.js';
