import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer, ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as V1InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server as V1Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AttachError, initFusion, StateMachineGate, type ServeOptions } from '../../src/index.js';
import { buildServer } from '../../src/server/buildServer.js';
import { httpServer, texts, v1HttpClient, v2HttpClient } from '../_helpers/clients.js';
import { approval, checkout } from '../fsm/fixtures.js';

const f = initFusion();
const greetings = () =>
  f.registry().registerAll(
    f
      .query('greet.hello')
      .describe('Say hello')
      .withString('name', 'Who')
      .handle((input) => `Hello, ${input.name}!`),
    f
      .prompt('greet_prompt')
      .describe('A greeting prompt')
      .handle(() => 'Greet the user.'),
    f
      .resource('fusion-test://motto')
      .name('motto')
      .describe('The motto')
      .handle(() => 'Be kind.'),
  );

type Caps = Record<string, Record<string, never>>;
const ALL: Caps = { tools: {}, prompts: {}, resources: {}, logging: {}, completions: {} };

/** A v2 McpServer with one entry of each kind of its own. */
function v2Mcp(capabilities?: Caps): McpServer {
  const server = new McpServer({ name: 'own', version: '1' }, capabilities === undefined ? {} : { capabilities });
  server.registerTool(
    'own.echo',
    { description: 'Echo', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text: `own: ${text}` }] }),
  );
  server.registerPrompt('own_prompt', { description: 'Own prompt' }, async () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'own prompt' } }],
  }));
  server.registerResource('own-note', 'own://note', { description: 'Own note' }, async (uri) => ({
    contents: [{ uri: uri.href, text: 'own note' }],
  }));
  return server;
}

function v1Mcp(capabilities?: Caps): V1McpServer {
  const server = new V1McpServer({ name: 'own', version: '1' }, capabilities === undefined ? {} : { capabilities });
  server.registerTool('own.echo', { description: 'Echo', inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text: `own: ${text}` }],
  }));
  server.registerPrompt('own_prompt', { description: 'Own prompt' }, async () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'own prompt' } }],
  }));
  server.registerResource('own-note', 'own://note', { description: 'Own note' }, async (uri) => ({
    contents: [{ uri: uri.href, text: 'own note' }],
  }));
  return server;
}

/** A low-level server whose own tools/list and tools/call answer one tool. */
function v2Low(capabilities: Caps): Server {
  const server = new Server({ name: 'own', version: '1' }, { capabilities: { ...capabilities, tools: {} } });
  server.setRequestHandler('tools/list', () => ({
    tools: [{ name: 'own.echo', inputSchema: { type: 'object' as const } }],
  }));
  server.setRequestHandler('tools/call', (request) => {
    if (request.params.name !== 'own.echo')
      throw Object.assign(new Error(`Tool ${request.params.name} not found`), { code: -32602 });
    return { content: [{ type: 'text' as const, text: `own: ${String(request.params.arguments?.text)}` }] };
  });
  return server;
}

function v1Low(): V1Server {
  const server = new V1Server({ name: 'own', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'own.echo', inputSchema: { type: 'object' as const } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => ({
    content: [{ type: 'text' as const, text: `own: ${String(request.params.arguments?.text)}` }],
  }));
  return server;
}

interface AnyClient {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(p: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  listPrompts(): Promise<{ prompts: Array<{ name: string }> }>;
  listResources(): Promise<{ resources: Array<{ uri: string }> }>;
  getPrompt(p: { name: string }): Promise<unknown>;
  readResource(p: { uri: string }): Promise<unknown>;
  getServerCapabilities(): Record<string, unknown> | undefined;
  close(): Promise<void>;
}

async function connectV2(server: McpServer | Server): Promise<AnyClient> {
  const [c, s] = InMemoryTransport.createLinkedPair();
  await server.connect(s);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(c);
  return client as unknown as AnyClient;
}

async function connectV1(server: V1McpServer | V1Server): Promise<AnyClient> {
  const [c, s] = V1InMemoryTransport.createLinkedPair();
  await server.connect(s);
  const client = new V1Client({ name: 't', version: '1' });
  await client.connect(c);
  return client as unknown as AnyClient;
}

const call = async (client: AnyClient, name: string, args: Record<string, unknown>) =>
  texts((await client.callTool({ name, arguments: args })) as { content: unknown });

describe('attachToServer composes with what the server already serves', () => {
  const forms: Array<
    [
      string,
      () => {
        server: McpServer | Server | V1McpServer | V1Server;
        connect: (s: any) => Promise<AnyClient>;
        contentToo: boolean;
      },
    ]
  > = [
    ['v2 McpServer, no capabilities', () => ({ server: v2Mcp(), connect: connectV2, contentToo: true })],
    [
      'v2 McpServer, capabilities { tools }',
      () => ({ server: v2Mcp({ tools: {} }), connect: connectV2, contentToo: true }),
    ],
    ['v2 McpServer, every capability', () => ({ server: v2Mcp(ALL), connect: connectV2, contentToo: true })],
    ['v2 Server, capabilities { tools }', () => ({ server: v2Low({}), connect: connectV2, contentToo: false })],
    ['v2 Server, every capability', () => ({ server: v2Low(ALL), connect: connectV2, contentToo: false })],
    ['v1 McpServer, no capabilities', () => ({ server: v1Mcp(), connect: connectV1, contentToo: true })],
    ['v1 McpServer, every capability', () => ({ server: v1Mcp(ALL), connect: connectV1, contentToo: true })],
    ['v1 Server, capabilities { tools }', () => ({ server: v1Low(), connect: connectV1, contentToo: false })],
  ];

  it.each(forms)(
    "%s: its own entries and the registry's are listed and callable side by side",
    async (_label, make) => {
      const { server, connect, contentToo } = make();
      greetings().attachToServer(server);
      const client = await connect(server);
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['own.echo', 'greet.hello']);
        expect(await call(client, 'own.echo', { text: 'hi' })).toEqual(['own: hi']);
        expect(await call(client, 'greet.hello', { name: 'Ada' })).toEqual(['Hello, Ada!']);
        expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
        const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
        const resources = (await client.listResources()).resources.map((r) => r.uri);
        expect(prompts).toEqual(contentToo ? ['own_prompt', 'greet_prompt'] : ['greet_prompt']);
        expect(resources).toEqual(contentToo ? ['own://note', 'fusion-test://motto'] : ['fusion-test://motto']);
        // A name neither serves: the registry's answer (it names what exists), whatever the server's own error said.
        const unknownPrompt = await client.getPrompt({ name: 'nope' }).catch((error: unknown) => error);
        expect(unknownPrompt).toMatchObject({ code: -32602, message: expect.stringContaining('greet_prompt') });
        // -32002 on the wire of the v1 SDK; the v2 SDK encodes it as -32602 on 2025 revisions.
        const unknownResource = await client.readResource({ uri: 'nowhere://x' }).catch((error: unknown) => error);
        expect(unknownResource).toMatchObject({ message: expect.stringContaining('fusion-test://motto') });
      } finally {
        await client.close();
      }
    },
  );

  it('passes on the server\'s own "invalid params" error for a prompt it serves, whatever its wording', async () => {
    const server = new McpServer({ name: 'x', version: '1' });
    server.registerPrompt('lookup', {}, () => {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Customer 42 not found');
    });
    greetings().attachToServer(server);
    const client = await connectV2(server);
    await expect(client.getPrompt({ name: 'lookup' })).rejects.toThrow('Customer 42 not found');
    await client.close();
  });

  it('keeps registerTool() working after attach, on v2 and v1 McpServers declared without capabilities', async () => {
    for (const [server, connect] of [
      [new McpServer({ name: 'x', version: '1' }), connectV2],
      [new V1McpServer({ name: 'x', version: '1' }), connectV1],
    ] as const) {
      greetings().attachToServer(server);
      if (server instanceof McpServer)
        server.registerTool('late.tool', { inputSchema: z.object({}) }, async () => ({
          content: [{ type: 'text', text: 'late' }],
        }));
      else
        server.registerTool('late.tool', { inputSchema: {} }, async () => ({
          content: [{ type: 'text', text: 'late' }],
        }));
      const client = await connect(server as never);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['late.tool', 'greet.hello']);
      expect(await call(client, 'late.tool', {})).toEqual(['late']);
      await client.close();
    }
  });

  it('offers logging on a v1 server constructed without the capability (levels filtered per session)', async () => {
    const logs: unknown[] = [];
    const registry = f.registry().register(
      f.query('noisy').handle(async (_input, _ctx, extra) => {
        await extra.log('debug', 'too low');
        await extra.log('warning', 'shown');
        return 'ok';
      }),
    );
    const server = v1Mcp();
    registry.attachToServer(server, { logging: true });
    const [c, s] = V1InMemoryTransport.createLinkedPair();
    await server.connect(s);
    const client = new V1Client({ name: 't', version: '1' });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    await client.connect(c);
    await client.setLoggingLevel('info');
    // The handler awaits each log before it answers: the messages travel ahead of the answer on the one connection.
    expect(texts((await client.callTool({ name: 'noisy', arguments: {} })) as { content: unknown })).toEqual(['ok']);
    expect(logs).toEqual(['shown']);
    await client.close();
  });

  it('refuses a tool, prompt or resource both define, naming it', () => {
    const clash = f.registry().register(f.query('own.echo').handle(() => 'mine'));
    for (const server of [v2Mcp(), v1Mcp()]) {
      expect(() => clash.attachToServer(server)).toThrow(AttachError);
      expect(() => clash.attachToServer(server)).toThrow(
        'Tool "own.echo" is served both by this registry and by the server itself (its own registerTool(), registerPrompt() or registerResource()). One server answers one "own.echo": rename one of them (or register it in one place only), or give this registry\'s exposed names another style (the nameStyle option).',
      );
    }
    const prompt = f.registry().register(f.prompt('own_prompt').handle(() => 'mine'));
    expect(() => prompt.attachToServer(v2Mcp())).toThrow(
      expect.objectContaining({ code: 'ATTACH_NAME_TAKEN', data: { kind: 'prompts', name: 'own_prompt' } }),
    );
    const resource = f.registry().register(
      f
        .resource('own://note')
        .name('n')
        .handle(() => 'mine'),
    );
    expect(() => resource.attachToServer(v1Mcp())).toThrow(
      expect.objectContaining({ data: { kind: 'resources', name: 'own://note' } }),
    );
  });

  it('refuses a name two registries both define, naming it; the first attachment keeps working', async () => {
    const server = new McpServer({ name: 'x', version: '1' });
    greetings().attachToServer(server);
    const second = f.registry().register(f.query('greet.hello').handle(() => 'again'));
    expect(() => second.attachToServer(server)).toThrow(
      /Tool "greet.hello" is served both by this registry and by registry #1 attached to this server earlier/,
    );
    const client = await connectV2(server);
    expect(await call(client, 'greet.hello', { name: 'Bo' })).toEqual(['Hello, Bo!']);
    await client.close();
  });

  it('names a tool the server registered after the attach under a name the registry serves, on the first list', async () => {
    const server = new McpServer({ name: 'x', version: '1' });
    greetings().attachToServer(server);
    server.registerTool('greet.hello', { inputSchema: z.object({}) }, async () => ({ content: [] }));
    const client = await connectV2(server);
    await expect(client.listTools()).rejects.toThrow(
      'Tool "greet.hello" is served twice on this server (by the server\'s own entries and by an attached mcp-fusion registry, or by two registries). Rename one of them.',
    );
    await client.close();
  });

  it("names every tool the caller may call when one is unknown: the server's and the registry's", async () => {
    const server = v2Mcp({ tools: {} });
    greetings().attachToServer(server);
    const client = await connectV2(server);
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(
      'Unknown tool "nope". Available tools: own.echo, greet.hello. Call tools/list to see them.',
    );
    await client.close();
    const v1 = v1Mcp({ tools: {} });
    greetings().attachToServer(v1);
    const v1Client = await connectV1(v1);
    await expect(v1Client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(
      'Unknown tool "nope". Available tools: own.echo, greet.hello. Call tools/list to see them.',
    );
    await v1Client.close();
  });
});

/** The seed's two workflows, each in its own registry with its own gate. */
function twoWorkflows() {
  const checkoutRegistry = f.registry().registerAll(
    f
      .mutation('cart.add_item')
      .bindState(['empty', 'has_items'], 'ADD_ITEM')
      .handle(() => 'added'),
    f
      .mutation('cart.checkout')
      .bindState('has_items', 'CHECKOUT')
      .handle(() => 'checking out'),
  );
  const approvalRegistry = f.registry().registerAll(
    f
      .mutation('doc.submit')
      .bindState('draft', 'SUBMIT')
      .handle(() => 'submitted'),
    f
      .mutation('doc.approve')
      .bindState('review', 'APPROVE')
      .handle(() => 'approved'),
  );
  const checkoutOptions = { fsm: new StateMachineGate(checkout) };
  const approvalOptions = { fsm: new StateMachineGate(approval) };
  return { checkoutRegistry, approvalRegistry, checkoutOptions, approvalOptions };
}

describe('the server option', () => {
  it('refuses a factory that returns the same server twice, saying to build one per call', () => {
    const shared = new McpServer({ name: 'shared', version: '1' });
    const registry = greetings();
    const options: ServeOptions<void> = { server: () => shared };
    expect(buildServer(registry.runtime(options), options, 'legacy').instance).toBe(shared);
    expect(() => buildServer(registry.runtime(options), options, 'legacy')).toThrow(
      'The server option returned a server it had returned before; build a new McpServer or Server inside the function on every call (each legacy session, modern request and stdio connection needs its own).',
    );
    expect(() => buildServer(registry.runtime(options), { server: () => ({}) as never }, 'modern')).toThrow(
      /must return a new McpServer or Server/,
    );
  });
});

describe('several registries on one server', () => {
  it("merges their lists and keeps each gate's state apart (in-memory, v2 McpServer)", async () => {
    const { checkoutRegistry, approvalRegistry, checkoutOptions, approvalOptions } = twoWorkflows();
    const server = new McpServer({ name: 'shop', version: '1' });
    checkoutRegistry.attachToServer(server, checkoutOptions);
    approvalRegistry.attachToServer(server, approvalOptions);
    const client = await connectV2(server);
    const names = async () => (await client.listTools()).tools.map((t) => t.name);
    expect(await names()).toEqual(['cart.add_item', 'doc.submit']);
    await call(client, 'cart.add_item', {});
    expect(await names()).toEqual(['cart.add_item', 'cart.checkout', 'doc.submit']);
    await call(client, 'doc.submit', {});
    expect(await names()).toEqual(['cart.add_item', 'cart.checkout', 'doc.approve']);
    const refused = (await client.callTool({ name: 'doc.submit', arguments: {} })) as {
      isError?: boolean;
      content: unknown;
    };
    expect(refused.isError).toBe(true);
    expect(texts(refused)[0]).toContain(
      'Tool "doc.submit" is not available in the current workflow state "review" (workflow "approval")',
    );
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(
      'Unknown tool "nope". Available tools: cart.add_item, cart.checkout, doc.approve. Call tools/list to see them.',
    );
    await client.close();
  });

  it("serves both through startServer with the user's server factory: per-session gates in legacy HTTP (v1 and v2 clients), every tool in the modern era", async () => {
    const { checkoutRegistry, approvalRegistry, checkoutOptions, approvalOptions } = twoWorkflows();
    const factory = () => {
      const server = new McpServer({ name: 'shop', version: '1' });
      server.registerTool('own.ping', { inputSchema: z.object({}) }, async () => ({
        content: [{ type: 'text', text: 'pong' }],
      }));
      approvalRegistry.attachToServer(server, approvalOptions);
      return server;
    };
    await using srv = await httpServer(checkoutRegistry, { ...checkoutOptions, server: factory });
    await using a = await v2HttpClient(srv.url);
    await using b = await v1HttpClient(srv.url);
    const names = async (c: AnyClient) => (await c.listTools()).tools.map((t) => t.name);
    expect(await names(a as unknown as AnyClient)).toEqual(['own.ping', 'doc.submit', 'cart.add_item']);
    expect(texts(await a.callTool({ name: 'doc.submit', arguments: {} }))).toContain('submitted');
    expect(texts(await a.callTool({ name: 'cart.add_item', arguments: {} }))).toContain('added');
    expect(await names(a as unknown as AnyClient)).toEqual([
      'own.ping',
      'doc.approve',
      'cart.add_item',
      'cart.checkout',
    ]);
    // The other session's gates did not move.
    expect(await names(b as unknown as AnyClient)).toEqual(['own.ping', 'doc.submit', 'cart.add_item']);
    expect(texts((await b.callTool({ name: 'own.ping', arguments: {} })) as { content: unknown })).toEqual(['pong']);
    await using modern = await v2HttpClient(srv.url, 'auto');
    expect(modern.getProtocolEra?.()).toBe('modern');
    expect((await modern.listTools()).tools.map((t) => t.name)).toEqual([
      'own.ping',
      'doc.submit',
      'doc.approve',
      'cart.add_item',
      'cart.checkout',
    ]);
    expect(texts(await modern.callTool({ name: 'own.ping', arguments: {} }))).toEqual(['pong']);
  });
});
