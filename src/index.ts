// mcp-fusion — the public API (one barrel; a test pins this list).
export { initFusion, type Fusion, type FusionOptions } from './fusion.js';
export { FluentToolBuilder } from './builder/FluentToolBuilder.js';
export { detachedExtra } from './builder/detachedExtra.js';
export { isInputRequired } from './protocol/normalizeResult.js';
export type {
  ContentBlock,
  FusionTool,
  HandlerReturn,
  InputRequiredReturn,
  JsonObjectSchema,
  LogLevel,
  Middleware,
  ProtocolEra,
  ToolAnnotations,
  HandlerExtra,
  ToolExtra,
  ToolHandler,
  ToolKind,
  ToolResponse,
  ValidationIssue,
} from './protocol/types.js';
export { createTool, GroupedToolBuilder } from './builder/grouped/GroupedToolBuilder.js';
export { GroupBuilder } from './builder/grouped/GroupBuilder.js';
export type { ActionConfig, ActionInput, ActionMetadata, ToonOptions } from './builder/grouped/types.js';
export type { ToonEncode } from './builder/strategies/types.js';
export { ToolRegistry } from './registry/ToolRegistry.js';
export type { AttachOptions, DebugEvent, NameStyle, ToolFilter, ToolSource } from './registry/types.js';
export type { Attachment } from './adapter/attach.js';
export type { ToolRuntime } from './runtime/tools/ToolRuntime.js';
export type { FusionRuntime } from './runtime/FusionRuntime.js';
export { createDebugObserver, formatDebugEvent } from './tracing/createDebugObserver.js';
export type { ClientAnswer } from './tracing/types.js';
export { createStderrLogger, type StderrLoggerOptions } from './logging/createStderrLogger.js';
export type { LogStream } from './logging/LogQueue.js';
export type { FusionLogLevel, LogFields, LogLimits, Logger } from './logging/types.js';

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
export {
  memorySessionData,
  storeSessionData,
  type SessionData,
  type SessionDataBackend,
  type SessionDataBackendOptions,
  type SessionDataWrite,
  type VersionedData,
} from './session/sessionData.js';
export type { SessionDataLimits } from './session/DataBudget.js';

export * from './domain/index.js';
export { PromptBuilder, type PromptArgumentConfig } from './prompts/PromptBuilder.js';
export { SkillBuilder } from './skills/SkillBuilder.js';
export type { FusionSkill } from './skills/types.js';
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
export { ResourceBuilder } from './resources/ResourceBuilder.js';
export { ResourceTemplateBuilder } from './resources/ResourceTemplateBuilder.js';
export { compileUriTemplate, type CompiledUriTemplate } from './resources/compileUriTemplate.js';
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
export type { ContentItem } from './registry/ContentCatalog.js';
export type {
  ContentRuntime,
  ContentSource,
  PromptListResult,
  ResourceListResult,
  ResourceTemplateListResult,
} from './runtime/content/ContentRuntime.js';

export type { Completer, CompletionContext, CompletionReturn, CompleteResult, Completion } from './completion/types.js';
export type { RequestStateOptions } from './runtime/request-state/RequestStateSeal.js';
export type { NonceStore } from './runtime/request-state/NonceStore.js';
export { MemoryNonceStore, type MemoryNonceStoreOptions } from './runtime/request-state/MemoryNonceStore.js';
export type { ResourceSubscriptionOptions } from './resources/ResourceSubscriptions.js';
export { staleUri } from './runtime/content/systemResources.js';
export type { WorkflowChange } from './workflow/WorkflowRuntime.js';
export { GateSessions, type GateSessionsOptions } from './workflow/GateSessions.js';
export type { PeerOptions, Principal } from './principal/types.js';
export { ByteLedger } from './ledger/ByteLedger.js';
export type { Hold } from './ledger/ByteLedger.js';
export type { HeldBytesLimits, HeldKind, Holder, LedgerRefusal } from './ledger/types.js';

export * from './state-sync/index.js';
export * from './fsm/index.js';
export * from './presenter/index.js';

export * from './session/index.js';
export * from './tasks/index.js';
export type { TaskOptions } from './builder/taskDeclaration.js';
export type { TaskServiceOptions } from './tasks/TaskServiceOptions.js';
export { startServer, type RunningServer } from './server/app/startServer.js';
export { createFusionApp, type FusionApp, type FusionFetchOptions } from './server/app/createFusionApp.js';
export { serveStdio, type StdioHandle } from './server/stdio/serveStdio.js';
export type { HttpOptions, ServeOptions, StartServerOptions } from './server/types.js';
export type { DevConsoleOptions } from './console/types.js';
export type { HttpLimits } from './server/limits.js';
export type { FrontContext, HttpMiddleware } from './server/httpMiddleware.js';
export type { WorkflowHandleLimits } from './workflow/HandleBudget.js';
export type { TracingOptions } from './tracing/types.js';

export * from './auth/index.js';
export * from './limits/index.js';

// Last, so that everything above has loaded (and the SDK with it) first: attach tells a user's server by these classes.
import './adapter/sdkClasses.js';
