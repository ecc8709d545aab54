// mcp-fusion/advanced — the parts the framework composes, for custom pipelines, tools and tests: the byte ledger,
// session and stream bookkeeping, the workflow's per-session state, the State Sync engine, the domain model and
// its converters, the builders' classes and the pure helpers behind the options. An ordinary server needs none
// of these (the root, `mcp-fusion`, has what it writes); they may change between minor releases.

// Builders' classes (`initFusion()` hands them out; the root exports their types).
export { FluentToolBuilder } from '../builder/FluentToolBuilder.js';
export { GroupedToolBuilder } from '../builder/grouped/GroupedToolBuilder.js';
export { GroupBuilder } from '../builder/grouped/GroupBuilder.js';
export { PromptBuilder } from '../prompts/PromptBuilder.js';
export { ResourceBuilder } from '../resources/ResourceBuilder.js';
export { ResourceTemplateBuilder } from '../resources/ResourceTemplateBuilder.js';
export { SkillBuilder } from '../skills/SkillBuilder.js';
export { PresenterBuilder } from '../presenter/PresenterBuilder.js';
export { presentResult } from '../presenter/presentResult.js';
export { detachedExtra } from '../builder/detachedExtra.js';
export { isInputRequired } from '../protocol/normalizeResult.js';
export { compileUriTemplate } from '../resources/compileUriTemplate.js';

// The domain model (MCP primitives as an object tree) and its converters to wire shapes.
export * from '../domain/index.js';

// State Sync's engine.
export { PolicyEngine } from '../state-sync/PolicyEngine.js';
export { validatePolicies } from '../state-sync/PolicyValidator.js';
export { resolveSyncPolicy } from '../state-sync/resolveSyncPolicy.js';
export { StateSyncLayer } from '../state-sync/StateSyncLayer.js';
export type { StateSyncLayerOptions } from '../state-sync/types.js';
export { staleUri } from '../runtime/content/systemResources.js';

// Workflows: the engine hand-over, the attach-time warnings, the per-session state the server keeps.
export { setXStateModule } from '../fsm/setXStateModule.js';
export { fsmWarnings } from '../fsm/analyzeFsm.js';
export type { WorkflowOutcome, WorkflowRunOptions } from '../fsm/types.js';
export { WorkflowSessions, type WorkflowSessionsOptions } from '../workflow/WorkflowSessions.js';

// Sessions, streams and the bytes held for clients.
export { SessionManager, type SessionManagerOptions } from '../session/SessionManager.js';
export { sessionFsmStore } from '../session/sessionFsmStore.js';
export { memorySessionData, storeSessionData } from '../session/sessionData.js';
export { StreamHolds, type EventOwner } from '../session/StreamHolds.js';
export { ByteLedger, type Hold } from '../ledger/ByteLedger.js';
export type { HeldKind, Holder, LedgerRefusal } from '../ledger/types.js';
export { taskPosition } from '../tasks/TaskStore.js';

// The runtime the registry builds (types: its constructors need parts the framework wires).
export type { ToolRuntime } from '../runtime/tools/ToolRuntime.js';
export type { FusionRuntime } from '../runtime/FusionRuntime.js';
export type {
  ContentRuntime,
  ContentSource,
  PromptListResult,
  ResourceListResult,
  ResourceTemplateListResult,
} from '../runtime/content/ContentRuntime.js';
export { formatDebugEvent } from '../tracing/createDebugObserver.js';

// Loaded like the root, so that attach tells a user's server by these classes.
import '../adapter/sdkClasses.js';
