import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer, Server } from '@modelcontextprotocol/server';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as V1InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AttachError, initFusion } from '../../src/index.js';
import { texts } from '../_helpers/clients.js';

const f = initFusion<{ greeting: string }>();
const registry = f.registry().registerAll(
  f
    .query('greet.hello')
    .describe('Say hello')
    .withString('name', 'Who')
    .handle((input, ctx) => `${ctx.greeting}, ${input.name}!`),
  f
    .mutation('greet.reset')
    .describe('Reset')
    .handle(() => ({ ok: true })),
);
const options = { contextFactory: async () => ({ greeting: 'Hello' }) };

async function roundTrip(client: {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(p: unknown): Promise<unknown>;
}) {
  const names = (await client.listTools()).tools.map((t) => t.name);
  const result = (await client.callTool({ name: 'greet.hello', arguments: { name: 'Ada' } })) as { content: unknown };
  return { names, text: texts(result) };
}

describe('attachToServer', () => {
  it('attaches the same registry to a v2 McpServer, a v2 low-level Server and a v1 McpServer', async () => {
    const v2Mcp = new McpServer({ name: 'a', version: '1' });
    const v2Low = new Server({ name: 'b', version: '1' }, { capabilities: {} });
    const v1Mcp = new V1McpServer({ name: 'c', version: '1' });
    expect(registry.attachToServer(v2Mcp, options).sdk).toBe('v2');
    expect(registry.attachToServer(v2Low, options).sdk).toBe('v2');
    expect(registry.attachToServer(v1Mcp, options).sdk).toBe('v1');

    for (const server of [v2Mcp, v2Low]) {
      const [c, s] = InMemoryTransport.createLinkedPair();
      await server.connect(s);
      const client = new Client({ name: 't', version: '1' });
      await client.connect(c);
      expect(await roundTrip(client)).toEqual({ names: ['greet.hello', 'greet.reset'], text: ['Hello, Ada!'] });
      expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
      await client.close();
    }
    const [c1, s1] = V1InMemoryTransport.createLinkedPair();
    await v1Mcp.connect(s1);
    const v1Client = new V1Client({ name: 't', version: '1' });
    await v1Client.connect(c1);
    expect(await roundTrip(v1Client as never)).toEqual({
      names: ['greet.hello', 'greet.reset'],
      text: ['Hello, Ada!'],
    });
    await v1Client.close();
  });

  it('validates arguments behind a v1 server too', async () => {
    const v1 = new V1McpServer({ name: 'c', version: '1' });
    registry.attachToServer(v1, options);
    const [c, s] = V1InMemoryTransport.createLinkedPair();
    await v1.connect(s);
    const client = new V1Client({ name: 't', version: '1' });
    await client.connect(c);
    const result = (await client.callTool({ name: 'greet.hello', arguments: { name: 1 } })) as {
      isError?: boolean;
      content: unknown;
    };
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toMatch(/- name: expected string, received number/);
    await client.close();
  });

  it('renders dotted names for clients that reject dots, while routing by the declared name', async () => {
    const server = new Server({ name: 'b', version: '1' }, { capabilities: {} });
    registry.attachToServer(server, { ...options, nameStyle: 'underscores' });
    const [c, s] = InMemoryTransport.createLinkedPair();
    await server.connect(s);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(c);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['greet_hello', 'greet_reset']);
    expect(texts(await client.callTool({ name: 'greet_hello', arguments: { name: 'Bo' } }))).toEqual(['Hello, Bo!']);
    await client.close();
  });

  it('refuses what is not an SDK server', () => {
    expect(() => registry.attachToServer({})).toThrow(AttachError);
    expect(() => registry.attachToServer({})).toThrow(/needs an MCP SDK server/);
  });

  it('attaches beside a server that already has tools of its own (the rest is in attachCompose.test.ts)', async () => {
    const owned = new McpServer({ name: 'x', version: '1' }, { capabilities: { tools: {} } });
    owned.registerTool('own', { inputSchema: z.object({}) }, async () => ({
      content: [{ type: 'text', text: 'own' }],
    }));
    registry.attachToServer(owned, options);
    const [c, s] = InMemoryTransport.createLinkedPair();
    await owned.connect(s);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(c);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['own', 'greet.hello', 'greet.reset']);
    await client.close();
  });

  it('refuses to attach after connect with a clear error', async () => {
    const server = new Server({ name: 'b', version: '1' }, { capabilities: {} });
    const [, s] = InMemoryTransport.createLinkedPair();
    await server.connect(s);
    expect(() => registry.attachToServer(server)).toThrow(/must run before server.connect\(\)/);
  });

  it('reuses the derived pipeline across attaches with the same options (cheap per-request attach)', () => {
    expect(registry.runtime(options).tools).toBe(registry.runtime(options).tools);
    expect(registry.runtime(options).tools.surface.wire).toBe(registry.runtime(options).tools.surface.wire);
  });
});
