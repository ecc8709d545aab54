import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import type { ToolResponse } from '../builder/types.js';
import type { ToolRegistry } from '../registry/ToolRegistry.js';
import { buildServer } from '../server/buildServer.js';
import type { ServeOptions } from '../server/types.js';

/** A connected SDK client over an in-memory link, with helpers for tests. */
export interface TestClient {
  /** The real SDK `Client` (legacy era, in-memory). */
  readonly client: Client;
  /** Names from `tools/list`, in order. */
  listToolNames(): Promise<string[]>;
  /** Calls a tool; resolves to the raw result. */
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolResponse>;
  /** Calls a tool and returns its text blocks, JSON-parsed where they parse. */
  call(name: string, args?: Record<string, unknown>): Promise<{ isError: boolean; content: unknown[]; result: ToolResponse }>;
  /** Count of `notifications/tools/list_changed` received so far. */
  readonly listChangedCount: number;
  /** Resolves on the next `notifications/tools/list_changed`. */
  nextListChanged(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Connects a real SDK `Client` to a registry in-process (legacy era: one connection = one session).
 * @example
 * await using t = await createTestClient(registry, { fsm: gate });
 * expect(await t.listToolNames()).toContain('cart.add_item');
 */
export async function createTestClient<Ctx>(registry: ToolRegistry<Ctx>, options: ServeOptions<Ctx> = {}): Promise<TestClient> {
  const pipeline = registry.pipeline(options);
  const { server } = buildServer(pipeline, options, 'legacy');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'mcp-fusion-test', version: '1.0.0' });
  let count = 0;
  let waiters: Array<() => void> = [];
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    count++;
    const ready = waiters;
    waiters = [];
    for (const w of ready) w();
  });
  await server.connect(serverSide);
  await client.connect(clientSide);
  const callTool = async (name: string, args: Record<string, unknown> = {}): Promise<ToolResponse> =>
    (await client.callTool({ name, arguments: args })) as ToolResponse;
  const close = async (): Promise<void> => {
    await client.close();
    await server.close();
  };
  return {
    client,
    async listToolNames() {
      return (await client.listTools()).tools.map((t) => t.name);
    },
    callTool,
    async call(name, args) {
      const result = await callTool(name, args);
      const content = result.content.map((block) => (block.type === 'text' ? parseMaybe(block.text) : block));
      return { isError: result.isError === true, content, result };
    },
    get listChangedCount() {
      return count;
    },
    nextListChanged(timeoutMs = 2_000) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no notifications/tools/list_changed within ${timeoutMs} ms`)), timeoutMs);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

function parseMaybe(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
