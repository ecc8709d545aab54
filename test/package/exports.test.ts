import { describe, expect, it } from 'vitest';
import * as root from '../../src/index.js';

describe('the root entry', () => {
  it('exports exactly this public API (update the list on purpose, never by accident)', () => {
    expect(Object.keys(root).sort()).toEqual([
      'AttachError', 'BaseModel', 'ContentPipeline', 'ContentRuntime', 'ConverterBase', 'DefinitionError', 'FluentToolBuilder', 'FrozenBuilderError',
      'FusionError', 'GateSessions', 'Group', 'GroupBuilder', 'GroupItem', 'GroupedToolBuilder', 'JsonRpcCode', 'META', 'MemoryEventStore', 'MemoryFsmStore', 'MemoryNonceStore',
      'MemoryRateLimitStore', 'MemorySessionStore', 'MemoryTaskStore', 'MissingPeerError', 'PolicyEngine', 'PresenterBuilder', 'Prompt', 'PromptArgument', 'PromptBuilder',
      'PromptConverter', 'RequestPipeline', 'Resource', 'ResourceBuilder', 'ResourceConverter', 'ResourceTemplateBuilder', 'ServerStartError', 'SessionDataError', 'SessionManager',
      'StateMachineGate', 'StateSyncLayer', 'Tool', 'ToolConverter', 'ToolRegistry', 'ToolRuntime', 'WireError', 'WorkflowStateError', 'compileUriTemplate',
      'createDebugObserver', 'createFusionApp', 'createPresenter', 'createStderrLogger', 'createTool', 'detachedExtra', 'detectOverlaps', 'formatDebugEvent', 'fsmWarnings', 'initFsmEngine', 'initFusion',
      'isInputRequired', 'jwksVerifier', 'matchGlob', 'memorySessionData', 'presentResult', 'resolveSyncPolicy', 'serveStdio', 'sessionFsmStore', 'setXStateModule', 'staleUri',
      'startServer', 'storeSessionData', 'validatePolicies',
    ]);
  });

  it('gives f every builder of the seeds', () => {
    const f = root.initFusion();
    expect(Object.keys(f).sort()).toEqual(['action', 'fsm', 'mutation', 'prompt', 'query', 'registry', 'resource', 'resourceTemplate', 'tool']);
  });
});
