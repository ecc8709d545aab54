import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { initFusion } from '../../src/index.js';
import { installedHandler } from '../../src/adapter/sdkHandlers.js';

const f = initFusion();

/** N tools, a third invalidating the next domain and the rest stale (the registry-scale bench's shape). */
function registry(n: number) {
  const r = f.registry();
  for (let i = 0; i < n; i++) {
    const tool = f.query(`domain${i % 10}.tool${i}`).withString('id', 'Identifier');
    r.register((i % 3 === 0 ? tool.invalidates(`domain${(i + 1) % 10}.*`) : tool.stale()).handle((input) => input.id));
  }
  return r;
}

async function connect(server: McpServer): Promise<Client> {
  const [c, s] = InMemoryTransport.createLinkedPair();
  await server.connect(s);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(c);
  return client;
}

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
/** The handler context the SDK passes (only `mcpReq` is read for a list). */
const CTX = { mcpReq: { id: 1, method: 'tools/list' } };

describe('tools/list on an McpServer the registry is attached to', () => {
  it("answers the registry's frozen list itself when the server lists nothing of its own: no per-request merge of N tools", async () => {
    const mcp = new McpServer({ name: 'own', version: '1' });
    registry(300).attachToServer(mcp);
    const list = installedHandler(mcp.server, 'tools/list')!;
    const first = (await list(LIST, CTX)) as { tools: Array<{ name: string; description?: string }> };
    expect(await list(LIST, CTX)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first.tools).toHaveLength(300);
    expect(first.tools[1]!.description).toContain('[Cache-Control: no-store]');

    const client = await connect(mcp);
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(first.tools.map((t) => t.name));
    await client.close();
  });

  it("still merges the server's own tools with the registry's, in order, when it has some", async () => {
    const mcp = new McpServer({ name: 'own', version: '1' });
    mcp.registerTool('own.echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
      content: [{ type: 'text', text }],
    }));
    registry(4).attachToServer(mcp);
    const client = await connect(mcp);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'own.echo',
      'domain0.tool0',
      'domain1.tool1',
      'domain2.tool2',
      'domain3.tool3',
    ]);
    const own = await client.callTool({ name: 'own.echo', arguments: { text: 'hi' } });
    expect(own.content).toEqual([{ type: 'text', text: 'hi' }]);
    await client.close();
  });

  it('merges two registries on one server (neither list is answered alone)', async () => {
    const mcp = new McpServer({ name: 'own', version: '1' });
    registry(2).attachToServer(mcp);
    f.registry()
      .register(f.query('other.one').handle(() => 'one'))
      .attachToServer(mcp);
    const client = await connect(mcp);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'domain0.tool0',
      'domain1.tool1',
      'other.one',
    ]);
    await client.close();
  });
});
