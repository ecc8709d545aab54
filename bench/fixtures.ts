import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer, Server, type Tool } from '@modelcontextprotocol/server';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import * as fusion from 'mcp-fusion';
import type { AttachOptions, Middleware, StateSyncConfig, ToolRegistry } from 'mcp-fusion';

/** The package a fixture builds with: this tree's compiled `mcp-fusion`, or another build to compare with. */
export type Fusion = Pick<typeof fusion, 'initFusion'>;

/** The tool every call benchmark invokes; in the FSM fixtures it flips the machine on every call. */
export const CALLED = 'domain1.tool1';
/** The argument the called tool echoes back; every contender's first answer is checked for it. */
export const ECHO = 'bench-echo-7f3a';
export const callArgs = { name: CALLED, arguments: { id: ECHO } };
export const groupedCallArgs = { name: 'domain1', arguments: { action: 'tool1', id: ECHO } };

const passThrough: Middleware<object> = (_ctx, _args, next) => next();
/** Three trivial middlewares, each a real link of the compiled chain. */
export const threeMiddlewares: Middleware<object>[] = [passThrough, passThrough, passThrough];

/** How {@link fusionRegistry} builds its tools. */
export interface RegistryOptions {
  /** Middlewares of every tool (none). */
  middleware?: Middleware<object>[];
  /** The package to build with (this tree's). */
  lib?: Fusion;
  /** Binds tools to {@link toggleMachine} (false): for the variants that serve a gate ({@link isGated}). */
  gated?: boolean;
}

/**
 * N trivial tools with two fields each (`domain<i % 50>.tool<i>`), as mcp-fusion tools. With `gated`, even
 * tools are bound to both states of {@link toggleMachine} and the called tool sends `toggle`, so every call
 * transitions; a registry with bound tools is served only with its gate (`fsm`), so the other variants
 * serve the same tools unbound.
 */
export function fusionRegistry(n: number, options: RegistryOptions = {}): ToolRegistry<object> {
  const { middleware = [], lib = fusion, gated = false } = options;
  const f = lib.initFusion<object>({ middleware });
  const registry = f.registry();
  for (let i = 0; i < n; i++) {
    let tool = f
      .query(`domain${i % 50}.tool${i}`)
      .describe(`Tool number ${i}`)
      .withString('id', 'Identifier')
      .withOptionalNumber('limit', 'Limit');
    if (gated && (i % 2 === 0 || `domain${i % 50}.tool${i}` === CALLED))
      tool = tool.bindState(['idle', 'busy'], `domain${i % 50}.tool${i}` === CALLED ? 'toggle' : undefined);
    registry.register(tool.handle((input) => input.id));
  }
  return registry;
}

/** A two-state machine the called tool flips on every successful call. */
export const toggleMachine = {
  id: 'bench',
  initial: 'idle',
  states: { idle: { on: { toggle: 'busy' } }, busy: { on: { toggle: 'idle' } } },
};

/**
 * State Sync with a policy per domain (even domains `no-store`, odd ones `immutable`: every tool is
 * decorated) and the called tool invalidating `domain0.*`: up to 51 policies, first match wins.
 */
export function stateSync(n: number): StateSyncConfig {
  const policies: StateSyncConfig['policies'] = [{ match: CALLED, invalidates: ['domain0.*'] }];
  for (let d = 0; d < Math.min(n, 50); d++)
    policies.push({ match: `domain${d}.*`, cacheControl: d % 2 === 0 ? 'no-store' : 'immutable' });
  return { policies };
}

export type Variant = 'plain' | 'sync' | 'fsm' | 'sync+fsm' | 'grouped';

/** True for the variants that serve the workflow gate (their registry is built with `gated`). */
export function isGated(variant: Variant): boolean {
  return variant === 'fsm' || variant === 'sync+fsm';
}

/** Attach options of one variant for N tools; each call builds a fresh gate, since attaching binds tools to it. */
export function variantOptions(variant: Variant, n: number, lib: Fusion = fusion): AttachOptions<object> {
  const f = lib.initFusion<object>();
  const gate = () => f.fsm(toggleMachine);
  switch (variant) {
    case 'plain':
      return {};
    case 'sync':
      return { stateSync: stateSync(n) };
    case 'fsm':
      return { fsm: gate() };
    case 'sync+fsm':
      return { stateSync: stateSync(n), fsm: gate() };
    case 'grouped':
      return { toolExposition: 'grouped' };
  }
}

/** The same N tools registered on the bare SDK's McpServer (v2), one schema per tool as a user writes them. */
export function registerBare(server: McpServer, n: number): McpServer {
  for (let i = 0; i < n; i++) {
    const schema = z.object({ id: z.string().describe('Identifier'), limit: z.number().optional().describe('Limit') });
    server.registerTool(
      `domain${i % 50}.tool${i}`,
      { description: `Tool number ${i}`, inputSchema: schema, annotations: { readOnlyHint: true } },
      async ({ id }) => ({
        content: [{ type: 'text', text: id }],
      }),
    );
  }
  return server;
}

/** The same N tools on the v1 SDK's McpServer. */
export function registerV1(server: V1McpServer, n: number): V1McpServer {
  for (let i = 0; i < n; i++) {
    const schema = z.object({ id: z.string().describe('Identifier'), limit: z.number().optional().describe('Limit') });
    server.registerTool(
      `domain${i % 50}.tool${i}`,
      { description: `Tool number ${i}`, inputSchema: schema as never, annotations: { readOnlyHint: true } },
      (async ({ id }: { id: string }) => ({
        content: [{ type: 'text' as const, text: id }],
      })) as never,
    );
  }
  return server;
}

export const bareV2 = (n: number): McpServer => registerBare(new McpServer({ name: 'bare-v2', version: '1' }), n);
export const bareV1 = (n: number): V1McpServer => registerV1(new V1McpServer({ name: 'bare-v1', version: '1' }), n);

/** The precomputed wire list of the N tools (what the floor server answers with). */
export function wireList(n: number): Tool[] {
  const tools: Tool[] = [];
  for (let i = 0; i < n; i++) {
    tools.push({
      name: `domain${i % 50}.tool${i}`,
      description: `Tool number ${i}`,
      inputSchema: {
        type: 'object',
        properties: {
          id: { type: 'string', description: 'Identifier' },
          limit: { type: 'number', description: 'Limit' },
        },
        required: ['id'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true },
    });
  }
  return tools;
}

/**
 * The floor a framework can approach: a low-level v2 `Server` answering `tools/list` from a precomputed
 * object and `tools/call` by a name switch, without argument validation.
 */
export function floorServer(
  n: number,
  tools: Tool[] = wireList(n),
  answer?: (id: unknown) => Record<string, unknown>,
): Server {
  const server = new Server({ name: 'floor', version: '1' }, { capabilities: { tools: { listChanged: true } } });
  const names = new Set(tools.map((t) => t.name));
  const list = Object.freeze({ tools });
  server.setRequestHandler('tools/list', () => list);
  server.setRequestHandler('tools/call', (request) => {
    if (!names.has(request.params.name)) throw new Error(`unknown tool ${request.params.name}`);
    return answer === undefined
      ? { content: [{ type: 'text', text: String(request.params.arguments?.id) }] }
      : (answer(request.params.arguments?.id) as never);
  });
  return server;
}

/**
 * What the full stack answers (the invalidation block, the echo and the workflow's Next line, with their
 * `_meta`), for a floor server that answers the same: what the SDK alone costs for a result of that size.
 */
export async function fullStackAnswer(n: number): Promise<(id: unknown) => Record<string, unknown>> {
  const probe = await RawClient.connect(
    fusionServer(fusionRegistry(n, { middleware: threeMiddlewares, gated: true }), variantOptions('sync+fsm', n)),
  );
  const sample = (await probe.request('tools/call', callArgs)) as {
    content: Array<{ text: string }>;
    _meta: Record<string, unknown>;
  };
  await probe.close();
  return (id) => ({
    _meta: sample._meta,
    content: [sample.content[0], { type: 'text', text: String(id) }, sample.content[2]],
  });
}

/** A fresh low-level v2 `Server` with a registry attached (what mcp-fusion does per connection or request). */
export function fusionServer(registry: ToolRegistry<object>, options: AttachOptions<object>): Server {
  const server = new Server({ name: 'fusion', version: '1' }, { capabilities: { tools: { listChanged: true } } });
  registry.attachToServer(server, options);
  return server;
}

/** Connects a v2 SDK client (default, legacy mode) to any SDK server, v1 or v2, over the in-memory pair. */
export async function connectV2(server: { connect(t: never): Promise<void> }): Promise<Client> {
  const [c, s] = InMemoryTransport.createLinkedPair();
  await server.connect(s as never);
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(c);
  return client;
}

/**
 * Raw JSON-RPC over the in-memory pair, without an SDK client: what the server alone costs
 * (no client-side result validation).
 */
export class RawClient {
  readonly #pending = new Map<number, (message: any) => void>();
  readonly #transport: InMemoryTransport;
  #id = 0;

  private constructor(transport: InMemoryTransport) {
    this.#transport = transport;
    transport.onmessage = (message: any) => this.#pending.get(message.id)?.(message);
  }

  static async connect(server: { connect(t: never): Promise<void> }): Promise<RawClient> {
    const [c, s] = InMemoryTransport.createLinkedPair();
    await server.connect(s as never);
    const raw = new RawClient(c);
    await c.start();
    await raw.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    await c.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return raw;
  }

  request(method: string, params: unknown): Promise<any> {
    const id = ++this.#id;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, (message) => {
        this.#pending.delete(id);
        if (message.error !== undefined) reject(new Error(`${method}: ${message.error.message}`));
        else resolve(message.result);
      });
      void this.#transport.send({ jsonrpc: '2.0', id, method, params } as never);
    });
  }

  close(): Promise<void> {
    return this.#transport.close();
  }
}

/** Texts of a tool result. */
export function textsOf(result: unknown): string[] {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.filter((b) => b.type === 'text').map((b) => b.text ?? '');
}

/** Throws unless a tool result echoes {@link ECHO}: a contender that answers an error would look fast. */
export function assertEcho(label: string, result: unknown): void {
  if ((result as { isError?: boolean }).isError === true || !textsOf(result).includes(ECHO)) {
    throw new Error(
      `${label}: the tool call did not return the echoed text; got ${JSON.stringify(result).slice(0, 300)}`,
    );
  }
}

/** Throws unless a tools/list result has `count` tools. */
export function assertListed(label: string, result: unknown, count: number): void {
  const got = (result as { tools?: unknown[] }).tools?.length;
  if (got !== count) throw new Error(`${label}: tools/list returned ${String(got)} tools, expected ${count}`);
}

export { McpServer, V1McpServer };
