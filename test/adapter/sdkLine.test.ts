import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer, Server } from '@modelcontextprotocol/server';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as V1InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server as V1Server } from '@modelcontextprotocol/sdk/server/index.js';
import { describe, expect, it } from 'vitest';
import { AttachError, initFusion } from '../../src/index.js';
import { texts } from '../_helpers/clients.js';

const f = initFusion();
const registry = f.registry().register(
  f
    .query('greet.hello')
    .withString('name', 'Who')
    .handle((input) => `Hello, ${input.name}!`),
);

type Callable = { callTool(params: unknown): Promise<unknown> };

async function greet(client: Callable): Promise<string[]> {
  return texts((await client.callTool({ name: 'greet.hello', arguments: { name: 'Ada' } })) as never);
}

/** Connects a v2 server to a real v2 Client in memory and calls the registry's tool through it. */
async function callV2(server: McpServer | Server): Promise<string[]> {
  const [c, s] = InMemoryTransport.createLinkedPair();
  await server.connect(s);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(c);
  try {
    return await greet(client);
  } finally {
    await client.close();
  }
}

/** The same through the v1 SDK's Client. */
async function callV1(server: V1McpServer | V1Server): Promise<string[]> {
  const [c, s] = V1InMemoryTransport.createLinkedPair();
  await server.connect(s);
  const client = new V1Client({ name: 't', version: '1' });
  await client.connect(c);
  try {
    return await greet(client as unknown as Callable);
  } finally {
    await client.close();
  }
}

function refusal(server: unknown): AttachError {
  try {
    registry.attachToServer(server);
  } catch (error) {
    return error as AttachError;
  }
  throw new Error('attachToServer() accepted it');
}

describe('attachToServer tells the SDK line by type', () => {
  it('detects a v2 McpServer, its subclass, a v2 Server and an McpServer’s own .server as v2, and serves through each', async () => {
    class Shop extends McpServer {}
    const servers = [
      new McpServer({ name: 'a', version: '1' }),
      new Shop({ name: 'b', version: '1' }),
      new Server({ name: 'c', version: '1' }, { capabilities: {} }),
      new McpServer({ name: 'd', version: '1' }).server,
    ];
    for (const server of servers) {
      expect(registry.attachToServer(server).sdk).toBe('v2');
      expect(await callV2(server)).toEqual(['Hello, Ada!']);
    }
  });

  it('detects a v1 McpServer and a v1 low-level Server as v1 (by shape: the v1 SDK is never loaded), and serves through each', async () => {
    const mcp = new V1McpServer({ name: 'a', version: '1' });
    const low = new V1Server({ name: 'b', version: '1' }, { capabilities: {} });
    expect(registry.attachToServer(mcp).sdk).toBe('v1');
    expect(registry.attachToServer(low).sdk).toBe('v1');
    expect(await callV1(mcp)).toEqual(['Hello, Ada!']);
    expect(await callV1(low)).toEqual(['Hello, Ada!']);
  });

  it('refuses a v2 look-alike (the methods without the class) and says what to pass instead', () => {
    const real = new McpServer({ name: 'a', version: '1' });
    const lookAlikeLow = {
      setRequestHandler: () => {},
      registerCapabilities: () => {},
      projectCallToolResult: (r: unknown) => r,
      _requestHandlers: new Map(),
    };
    const lookAlikeMcp = { registerTool: () => {}, server: lookAlikeLow };
    // A wrapper that forwards to a real server's methods is not one either.
    const wrapper = { registerTool: real.registerTool.bind(real), server: { ...real.server } };
    for (const server of [lookAlikeLow, lookAlikeMcp, wrapper]) {
      const error = refusal(server);
      expect(error).toBeInstanceOf(AttachError);
      expect(error.code).toBe('ATTACH_SERVER');
    }
    expect(refusal(lookAlikeMcp).message).toMatchInlineSnapshot(
      `"attachToServer() got a server that looks like the v2 SDK's but is not an McpServer or Server of the @modelcontextprotocol/server mcp-fusion loads (a wrapper, a look-alike, or a second copy of the SDK: check \`npm ls @modelcontextprotocol/server\`). Pass the McpServer or Server instance itself."`,
    );
  });

  it('refuses an object with setRequestHandler() but neither class nor a v1 handler table', () => {
    const error = refusal({ setRequestHandler: () => {} });
    expect(error.code).toBe('ATTACH_SERVER');
    expect(error.message).toMatchInlineSnapshot(
      `"attachToServer() needs an MCP SDK server: an McpServer or Server of @modelcontextprotocol/server (v2), or of @modelcontextprotocol/sdk (v1). The value given is neither (a v1 server has setRequestHandler() and its handler table)."`,
    );
  });
});
