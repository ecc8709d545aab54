import { describe, expect, it } from 'vitest';
import * as advanced from '../../src/advanced/index.js';
import * as root from '../../src/index.js';

describe('the root entry', () => {
  it('exports exactly this public API (update the list on purpose, never by accident)', () => {
    expect(Object.keys(root).sort()).toEqual([
      'AttachError',
      'DefinitionError',
      'FrozenBuilderError',
      'FusionError',
      'JsonRpcCode',
      'META',
      'MemoryEventStore',
      'MemoryFsmStore',
      'MemoryNonceStore',
      'MemoryRateLimitStore',
      'MemorySessionStore',
      'MemoryTaskStore',
      'MissingPeerError',
      'ServerStartError',
      'SessionDataError',
      'StateMachineGate',
      'ToolRegistry',
      'WireError',
      'WorkflowStateError',
      'createDebugObserver',
      'createFusionApp',
      'createPresenter',
      'createStderrLogger',
      'createTool',
      'detectOverlaps',
      'devTokens',
      'initFsmEngine',
      'initFusion',
      'jwksVerifier',
      'matchGlob',
      'serveStdio',
      'startServer',
    ]);
  });

  it('exports what an ordinary server writes: at most 40 values, the seeds’ names among them', () => {
    expect(Object.keys(root).length).toBeLessThanOrEqual(40);
    // The seeds import these from the package root.
    for (const name of [
      'initFusion',
      'ToolRegistry',
      'StateMachineGate',
      'initFsmEngine',
      'matchGlob',
      'detectOverlaps',
    ])
      expect(Object.keys(root), name).toContain(name);
  });

  it('gives f every builder of the seeds', () => {
    const f = root.initFusion();
    expect(Object.keys(f).sort()).toEqual([
      'action',
      'fsm',
      'mutation',
      'prompt',
      'query',
      'registry',
      'resource',
      'resourceTemplate',
      'skill',
      'tool',
    ]);
  });
});

describe('the advanced entry', () => {
  it('holds the composed parts the root leaves out, and repeats no root value', () => {
    for (const name of ['ByteLedger', 'SessionManager', 'PolicyEngine', 'StateSyncLayer', 'FluentToolBuilder', 'Tool'])
      expect(Object.keys(advanced), name).toContain(name);
    expect(Object.keys(advanced).filter((name) => name in root)).toEqual([]);
  });
});
