import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { initFusion, type ToolRegistry } from '../src/index.js';

export const f = initFusion<object>();

/** N trivial tools with two fields each, as mcp-fusion tools. */
export function fusionRegistry(n: number): ToolRegistry<object> {
  const registry = f.registry();
  for (let i = 0; i < n; i++) {
    registry.register(
      f.query(`domain${i % 50}.tool${i}`).describe(`Tool number ${i}`).withString('id', 'Identifier').withOptionalNumber('limit', 'Limit').handle((input) => input.id),
    );
  }
  return registry;
}

/** The same N tools registered on the bare SDK's McpServer (v2). */
export function registerBare(server: McpServer, n: number): McpServer {
  const schema = z.object({ id: z.string().describe('Identifier'), limit: z.number().optional().describe('Limit') });
  for (let i = 0; i < n; i++) {
    server.registerTool(`domain${i % 50}.tool${i}`, { description: `Tool number ${i}`, inputSchema: schema }, async ({ id }) => ({
      content: [{ type: 'text', text: id }],
    }));
  }
  return server;
}

/** The same N tools on the v1 SDK's McpServer. */
export function registerV1(server: V1McpServer, n: number): V1McpServer {
  const schema = z.object({ id: z.string().describe('Identifier'), limit: z.number().optional().describe('Limit') });
  for (let i = 0; i < n; i++) {
    server.registerTool(`domain${i % 50}.tool${i}`, { description: `Tool number ${i}`, inputSchema: schema as never }, (async ({ id }: { id: string }) => ({
      content: [{ type: 'text' as const, text: id }],
    })) as never);
  }
  return server;
}

/** Connects a v2 SDK client to any SDK server over the in-memory pair. */
export async function connectV2(server: { connect(t: unknown): Promise<void> }): Promise<Client> {
  const [c, s] = InMemoryTransport.createLinkedPair();
  await server.connect(s);
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(c);
  return client;
}

export { McpServer, V1McpServer };
