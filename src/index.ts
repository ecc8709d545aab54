// mcp-fusion — the public API: what an ordinary server writes (one barrel; test/package/exports.test.ts pins the
// values, etc/mcp-fusion.api.md every name). The builders' classes are types here (`f.tool(…)` and the other
// builders make them); the parts the framework composes (ledgers, session managers, policy engines, the domain
// model, the converters) are in `mcp-fusion/advanced`; the test helpers in `mcp-fusion/testing`.

// Declaring: `initFusion` and the builders it hands out.
export { initFusion, type Fusion, type FusionOptions } from './fusion.js';
export { createTool } from './builder/grouped/GroupedToolBuilder.js';
export type { FluentToolBuilder } from './builder/FluentToolBuilder.js';
export type { GroupedToolBuilder } from './builder/grouped/GroupedToolBuilder.js';
export type { GroupBuilder } from './builder/grouped/GroupBuilder.js';
export type { ActionConfig, ActionInput, ActionMetadata, ToonOptions } from './builder/grouped/types.js';
export type { ToonEncode } from './builder/strategies/types.js';
export type { TaskOptions } from './builder/taskDeclaration.js';
export type {
  ContentBlock,
  FusionTool,
  HandlerExtra,
  HandlerReturn,
  InputRequiredReturn,
  JsonObjectSchema,
  LogLevel,
  Middleware,
  ProtocolEra,
  ToolAnnotations,
  ToolHandler,
  ToolKind,
  ToolResponse,
  ValidationIssue,
} from './protocol/types.js';
export type { PromptBuilder, PromptArgumentConfig } from './prompts/PromptBuilder.js';
export type {
  FusionPrompt,
  GetPromptResult,
  PromptHandler,
  PromptMessage,
  PromptMessageInput,
  PromptResultInput,
  PromptReturn,
  PromptRole,
} from './prompts/types.js';
export type { ResourceBuilder } from './resources/ResourceBuilder.js';
export type { ResourceTemplateBuilder } from './resources/ResourceTemplateBuilder.js';
export type { CompiledUriTemplate } from './resources/compileUriTemplate.js';
export type {
  BlobResourceContents,
  FusionResource,
  FusionResourceTemplate,
  ListedResource,
  ReadResourceResult,
  ResourceContentsInput,
  ResourceHandler,
  ResourceReturn,
  TemplateHandler,
  TemplateLister,
  TemplateVariables,
  TextResourceContents,
} from './resources/types.js';
export type { ResourceSubscriptionOptions } from './resources/ResourceSubscriptions.js';
export type { SkillBuilder } from './skills/SkillBuilder.js';
export type { FusionSkill } from './skills/types.js';
export type { Completer, CompletionContext, CompletionReturn, CompleteResult, Completion } from './completion/types.js';
export type { ContentItem } from './registry/ContentCatalog.js';
export { createPresenter, type PresenterBuilder } from './presenter/PresenterBuilder.js';
export type { PresentOptions, Presenter, SuggestActions, SuggestedAction } from './presenter/types.js';

// Registering and serving.
export { ToolRegistry } from './registry/ToolRegistry.js';
export type { AttachOptions, DebugEvent, NameStyle, ToolFilter, ToolSource } from './registry/types.js';
export type { Attachment } from './adapter/attach.js';
export { startServer, type RunningServer } from './server/app/startServer.js';
export { createFusionApp, type FusionApp, type FusionFetchOptions } from './server/app/createFusionApp.js';
export { serveStdio, type StdioHandle } from './server/stdio/serveStdio.js';
export type { HttpOptions, ServeOptions, StartServerOptions } from './server/types.js';
export type { HttpLimits } from './server/limits.js';
export type { FrontContext, HttpMiddleware } from './server/httpMiddleware.js';
export type { DevConsoleOptions } from './console/types.js';
export type { PeerOptions, Principal } from './principal/types.js';
export type { HeldBytesLimits } from './ledger/types.js';
export type { RequestStateOptions } from './runtime/request-state/RequestStateSeal.js';
export type { WorkflowHandleLimits } from './workflow/HandleBudget.js';
export type { WorkflowChange } from './workflow/WorkflowRuntime.js';
export type { TaskServiceOptions } from './tasks/TaskServiceOptions.js';

// Auth and limits.
export type { AuthOptions, ResourceMetadataOptions } from './auth/types.js';
export { jwksVerifier, type JoseModule, type JwksVerifierOptions } from './auth/jwksVerifier.js';
export { devTokens, type DevTokensOptions } from './auth/devTokens.js';
export type { RateLimit, RateLimitCount, RateLimitStore } from './limits/types.js';
export { MemoryRateLimitStore } from './limits/MemoryRateLimitStore.js';

// State Sync.
export { matchGlob } from './state-sync/matchGlob.js';
export { detectOverlaps } from './state-sync/detectOverlaps.js';
export { META } from './state-sync/metaKeys.js';
export type {
  CacheDirective,
  InlineSyncDeclaration,
  InvalidationEvent,
  InvalidationMeta,
  OverlapWarning,
  ResolvedPolicy,
  ResourceNotification,
  StateSyncConfig,
  SyncPolicy,
} from './state-sync/types.js';

// Workflows (the FSM State Gate).
export {
  StateMachineGate,
  type FsmEngineChoice,
  type StateMachineGateOptions,
  type StateMachineGateConstructor,
} from './fsm/StateMachineGate.js';
export { initFsmEngine } from './fsm/initFsmEngine.js';
export { MemoryFsmStore } from './fsm/MemoryFsmStore.js';
export type { FsmLease, FsmLeaseEnd, FsmStateStore } from './fsm/FsmStateStore.js';
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
} from './fsm/types.js';

// Stores (memory here, Redis in `mcp-fusion/redis`) and the contracts a store of your own implements.
export { MemorySessionStore } from './session/MemorySessionStore.js';
export type { SessionStore } from './session/SessionStore.js';
export type { SessionEvent, SessionPhase, SessionRecord, SessionTimeouts } from './session/types.js';
export type { SessionBus, SessionNotification } from './session/SessionBus.js';
export { MemoryEventStore, type MemoryEventStoreOptions } from './session/MemoryEventStore.js';
export type { EventStore, EventStoreLimits, ReplayResult, StoredEvent } from './session/EventStore.js';
export type {
  SessionData,
  SessionDataBackend,
  SessionDataBackendOptions,
  SessionDataWrite,
  VersionedData,
} from './session/sessionData.js';
export type { SessionDataLimits } from './session/DataBudget.js';
export { MemoryTaskStore, type MemoryTaskStoreOptions } from './tasks/MemoryTaskStore.js';
export type { TaskPage, TaskStore, TaskWrite } from './tasks/TaskStore.js';
export type { TaskBus } from './tasks/TaskBus.js';
export type { TaskQueue } from './tasks/TaskQueue.js';
export type {
  TaskBudgets,
  TaskDeclaration,
  TaskError,
  TaskMode,
  TaskOnLost,
  TaskRecord,
  TaskRun,
  TaskStatus,
  VersionedTask,
} from './tasks/types.js';
export type { NonceStore } from './runtime/request-state/NonceStore.js';
export { MemoryNonceStore, type MemoryNonceStoreOptions } from './runtime/request-state/MemoryNonceStore.js';

// Logging and tracing.
export { createStderrLogger, type StderrLoggerOptions } from './logging/createStderrLogger.js';
export type { LogStream } from './logging/LogQueue.js';
export type { FusionLogLevel, LogFields, LogLimits, Logger } from './logging/types.js';
export { createDebugObserver } from './tracing/createDebugObserver.js';
export type { ClientAnswer, TracingOptions } from './tracing/types.js';

// Errors a server catches or throws.
export {
  FusionError,
  DefinitionError,
  FrozenBuilderError,
  AttachError,
  MissingPeerError,
  ServerStartError,
} from './errors/FusionError.js';
export { WireError, JsonRpcCode } from './errors/WireError.js';
export { SessionDataError } from './errors/SessionDataError.js';
export { WorkflowStateError } from './fsm/WorkflowStateError.js';

// Last, so that everything above has loaded (and the SDK with it) first: attach tells a user's server by these classes.
import './adapter/sdkClasses.js';
