import { describe, expect, it } from 'vitest';
import { factsOf, requestAttributes, type RequestFacts } from '../../src/tracing/requestAttributes.js';

const legacyHttp: RequestFacts = { sessionId: 's-1', requestId: 7, protocolVersion: '2025-11-25', http: true };
const bare: RequestFacts = { sessionId: undefined, requestId: undefined, protocolVersion: undefined, http: false };

describe('requestAttributes', () => {
  it('names a tool call after its tool and marks it execute_tool; the metric leaves out per-request ids', () => {
    expect(requestAttributes('tools/call', { name: 'notes.delete', arguments: {} }, legacyHttp)).toEqual({
      name: 'tools/call notes.delete',
      span: {
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'notes.delete',
        'gen_ai.operation.name': 'execute_tool',
        'mcp.protocol.version': '2025-11-25',
        'network.transport': 'tcp',
        'network.protocol.name': 'http',
        'mcp.session.id': 's-1',
        'jsonrpc.request.id': '7',
      },
      metric: {
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'notes.delete',
        'gen_ai.operation.name': 'execute_tool',
        'mcp.protocol.version': '2025-11-25',
        'network.transport': 'tcp',
        'network.protocol.name': 'http',
      },
    });
  });

  it('names a prompt get after its prompt, and keeps resource URIs out of the name and the metric', () => {
    expect(requestAttributes('prompts/get', { name: 'plan' }, bare).name).toBe('prompts/get plan');
    expect(requestAttributes('prompts/get', { name: 'plan' }, bare).span).toEqual({
      'mcp.method.name': 'prompts/get',
      'gen_ai.prompt.name': 'plan',
    });
    const read = requestAttributes('resources/read', { uri: 'file:///a.txt' }, bare);
    expect(read.name).toBe('resources/read');
    expect(read.span['mcp.resource.uri']).toBe('file:///a.txt');
    expect(read.metric['mcp.resource.uri']).toBeUndefined();
  });

  it('uses the bare method name when the target is missing or not a string', () => {
    expect(requestAttributes('tools/call', { name: 42 }, bare)).toMatchObject({
      name: 'tools/call',
      span: { 'mcp.method.name': 'tools/call' },
    });
    expect(requestAttributes('tools/list', undefined, bare)).toEqual({
      name: 'tools/list',
      span: { 'mcp.method.name': 'tools/list' },
      metric: { 'mcp.method.name': 'tools/list' },
    });
  });
});

describe('factsOf', () => {
  it('reads a v2 context: the modern envelope revision wins over the negotiated one', () => {
    const modern = {
      mcpReq: { id: 3, envelope: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
      http: { req: new Request('http://x') },
    };
    expect(factsOf(modern, () => '2025-11-25')).toEqual({
      sessionId: undefined,
      requestId: 3,
      protocolVersion: '2026-07-28',
      http: true,
    });
    const legacy = { sessionId: 'abc', mcpReq: { id: 'r1' } };
    expect(factsOf(legacy, () => '2025-11-25')).toEqual({
      sessionId: 'abc',
      requestId: 'r1',
      protocolVersion: '2025-11-25',
      http: false,
    });
  });

  it('reads a v1 extra', () => {
    expect(factsOf({ requestId: 9, sessionId: 's', requestInfo: { headers: {} } }, () => undefined)).toEqual({
      sessionId: 's',
      requestId: 9,
      protocolVersion: undefined,
      http: true,
    });
  });
});
