import { readFileSync } from 'node:fs';
import { McpServer, Server } from '@modelcontextprotocol/server';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server as V1Server } from '@modelcontextprotocol/sdk/server/index.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  hasHandlerTable,
  installedHandler,
  installMcpServerHandlers,
  isMcpServer,
  mcpServerNames,
} from '../../src/adapter/sdkHandlers.js';

// These pin the SDK internals mcp-fusion reads to compose with a server's own entries (src/adapter/sdkHandlers.ts).
// If one fails after an SDK upgrade, attachToServer() can no longer compose: update the adapter, not this test.
describe('SDK internals behind attach composition', () => {
  it('v2: finds installed handlers, makes an McpServer install its own, and reads its registered names', async () => {
    const mcp = new McpServer({ name: 'x', version: '1' });
    expect(isMcpServer(mcp)).toBe(true);
    expect(installedHandler(mcp.server, 'tools/list')).toBeUndefined();
    for (const kind of ['tools', 'prompts', 'resources', 'completions'] as const) installMcpServerHandlers(mcp, kind);
    for (const method of [
      'tools/list',
      'tools/call',
      'prompts/list',
      'prompts/get',
      'resources/list',
      'resources/templates/list',
      'resources/read',
      'completion/complete',
    ]) {
      expect(typeof installedHandler(mcp.server, method), method).toBe('function');
    }
    mcp.registerTool('t1', { inputSchema: z.object({}) }, async () => ({ content: [] }));
    mcp.registerPrompt('p1', {}, async () => ({ messages: [] }));
    mcp.registerResource('r1', 'own://r1', {}, async () => ({ contents: [] }));
    expect(mcpServerNames(mcp)).toEqual({ tools: ['t1'], prompts: ['p1'], resources: ['own://r1'], templates: [] });
    const listed = (await installedHandler(mcp.server, 'tools/list')!(
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      {},
    )) as { tools: Array<{ name: string }> };
    expect(listed.tools.map((t) => t.name)).toEqual(['t1']);
    expect(installedHandler(new Server({ name: 'x', version: '1' }), 'ping')).toBeTypeOf('function');
  });

  it('v1: the same through the v1 SDK', async () => {
    const mcp = new V1McpServer({ name: 'x', version: '1' });
    expect(isMcpServer(mcp)).toBe(true);
    for (const kind of ['tools', 'prompts', 'resources', 'completions'] as const) installMcpServerHandlers(mcp, kind);
    expect(typeof installedHandler(mcp.server, 'tools/call')).toBe('function');
    mcp.registerTool('t1', { inputSchema: {} }, async () => ({ content: [] }));
    expect(mcpServerNames(mcp).tools).toEqual(['t1']);
    const listed = (await installedHandler(mcp.server, 'tools/list')!(
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      {},
    )) as { tools: Array<{ name: string }> };
    expect(listed.tools.map((t) => t.name)).toEqual(['t1']);
    expect(installedHandler(new V1Server({ name: 'x', version: '1' }), 'ping')).toBeTypeOf('function');
    // How attach tells a v1 server (once a v2 one is ruled out): the same private table.
    expect(hasHandlerTable(new V1Server({ name: 'x', version: '1' }))).toBe(true);
    expect(hasHandlerTable(mcp.server)).toBe(true);
    expect(hasHandlerTable({ setRequestHandler: () => {} })).toBe(false);
  });

  it('fails loudly on a server without the expected internals', () => {
    expect(() => installedHandler({}, 'tools/list')).toThrow(/cannot find them/);
    expect(() => installMcpServerHandlers({}, 'tools')).toThrow(/no setToolRequestHandlers\(\)/);
    expect(() => mcpServerNames({})).toThrow(/no _registeredTools/);
  });
});

describe('the SDK versions mcp-fusion admits', () => {
  it('admits the installed @modelcontextprotocol/server, and no other major version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      peerDependencies: Record<string, string>;
    };
    const installed = JSON.parse(
      readFileSync(new URL('../../node_modules/@modelcontextprotocol/server/package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    // Widen the range only to releases that pass `npm run sdk:range` (scripts/sdk-range.sh: this file, the type
    // check, the equivalence suite and conformance, against the lowest and the newest release it admits).
    const range = pkg.peerDependencies['@modelcontextprotocol/server']!;
    const lowest = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(range);
    expect(lowest, `a caret range of one major version, not ${range}`).not.toBeNull();
    const [major, minor, patch] = installed.version.split('.').map(Number) as [number, number, number];
    const [lowMajor, lowMinor, lowPatch] = lowest!.slice(1).map(Number) as [number, number, number];
    expect(major).toBe(lowMajor);
    expect(minor * 1e6 + patch).toBeGreaterThanOrEqual(lowMinor * 1e6 + lowPatch);
  });
});
