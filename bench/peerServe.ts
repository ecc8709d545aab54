/**
 * The server side of the peers benchmark (bench/peers.ts): `tsx bench/peerServe.ts --serve <kind> <n>` serves one
 * contender with N tools on 127.0.0.1 and speaks bench/httpServe.ts' child protocol (`PORT`, `CPU`). Every
 * contender serves the same N tools (`domain<i % 50>.tool<i>`, a required string `id` and an optional number
 * `limit`, validated by the framework from a zod schema) and echoes `id`. The peer frameworks come from
 * bench/peers/node_modules (bench/peers/load.ts), never from the library's own manifest.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { startServer } from 'mcp-fusion';
import { bareV2, fusionRegistry } from './fixtures.js';
import { freePort } from './freePort.js';
import { listen, serveKind, sessionful, SERVERS } from './httpServe.js';
import { load } from './peers/load.js';
import type * as zodTypes from 'zod';

/** The peers' own zod (its type is the library's zod 4, the same major). */
type Zod = typeof zodTypes;
const toolName = (i: number): string => `domain${i % 50}.tool${i}`;
const schemaOf = ({ z }: Zod) =>
  z.object({ id: z.string().describe('Identifier'), limit: z.number().optional().describe('Limit') });

/** The SDK's sessionful transport answering with plain JSON bodies instead of SSE streams. */
class JsonTransport extends NodeStreamableHTTPServerTransport {
  constructor(options: ConstructorParameters<typeof NodeStreamableHTTPServerTransport>[0]) {
    super({ ...options, enableJsonResponse: true });
  }
}

/**
 * tmcp (SDK-free) with its zod adapter, over its own HTTP transport (both eras) on node:http; `redisUrl`: its
 * sessions, their streams and listen subscriptions kept in Redis by @tmcp/session-manager-redis (several instances).
 */
async function tmcp(n: number, redisUrl?: string): Promise<number> {
  const [{ McpServer }, { ZodJsonSchemaAdapter }, { HttpTransport }, { getRequestListener }, zod] = await Promise.all([
    load<any>('tmcp'),
    load<any>('@tmcp/adapter-zod'),
    load<any>('@tmcp/transport-http'),
    load<any>('@hono/node-server'),
    load<Zod>('zod'),
  ]);
  const server = new McpServer(
    { name: 'tmcp', version: '1', description: 'bench' },
    { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: { listChanged: true } } },
  );
  for (let i = 0; i < n; i++)
    server.tool(
      {
        name: toolName(i),
        description: `Tool number ${i}`,
        schema: schemaOf(zod),
        annotations: { readOnlyHint: true },
      },
      async ({ id }: { id: string }) => ({ content: [{ type: 'text', text: id }] }),
    );
  let shared = {};
  if (redisUrl !== undefined) {
    const { RedisStreamSessionManager, RedisInfoSessionManager, RedisSubscriptionManager } =
      await load<any>('@tmcp/session-manager-redis');
    shared = {
      sessionManager: {
        streams: new RedisStreamSessionManager(redisUrl),
        info: new RedisInfoSessionManager(redisUrl),
      },
      subscriptionManager: new RedisSubscriptionManager(redisUrl),
    };
  }
  const transport = new HttpTransport(server, { path: '/mcp', ...shared });
  const http = createServer(
    getRequestListener(
      async (request: Request) => (await transport.respond(request)) ?? new Response(null, { status: 404 }),
    ),
  );
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return (http.address() as AddressInfo).port;
}

/** fastmcp (punkpeye, on SDK v1) with its HTTP streaming transport, sessionful (its default). */
async function fastmcp(n: number): Promise<number> {
  const [{ FastMCP }, zod] = await Promise.all([load<any>('fastmcp'), load<Zod>('zod')]);
  const server = new FastMCP({ name: 'fastmcp', version: '1.0.0' });
  for (let i = 0; i < n; i++)
    server.addTool({
      name: toolName(i),
      description: `Tool number ${i}`,
      parameters: schemaOf(zod),
      annotations: { readOnlyHint: true },
      execute: async ({ id }: { id: string }) => id,
    });
  const port = await freePort();
  await server.start({ transportType: 'httpStream', httpStream: { port, host: '127.0.0.1', endpoint: '/mcp' } });
  return port;
}

/** mcp-use's MCPServer (an SDK v2 McpServer built per request from its registry), listening on its own. */
async function mcpUse(n: number): Promise<number> {
  // Its anonymous usage telemetry (on by default: events sent out, a .mcp-use/ folder written) stays off here.
  process.env.MCP_USE_ANONYMIZED_TELEMETRY = 'false';
  const [{ MCPServer }, zod] = await Promise.all([load<any>('mcp-use'), load<Zod>('zod')]);
  const server = new MCPServer({ name: 'mcp-use', version: '1.0.0' });
  for (let i = 0; i < n; i++)
    server.tool(
      {
        name: toolName(i),
        description: `Tool number ${i}`,
        inputSchema: schemaOf(zod),
        annotations: { readOnlyHint: true },
      },
      async ({ id }: { id: string }) => ({ content: [{ type: 'text', text: id }] }),
    );
  return (await server.listen(0, { host: '127.0.0.1' })).port;
}

/** The redis-server of a two-instance contender (bench/peers.ts starts it and passes its URL). */
function redisUrl(): string {
  const url = process.env.BENCH_REDIS_URL;
  if (url === undefined)
    throw new Error('BENCH_REDIS_URL is not set: the Redis contenders need the URL of a redis-server');
  return url;
}

/**
 * mcp-fusion as one of several instances on one Redis (docs/scaling.md's wiring): legacy session records in
 * `RedisSessionStore`, streams and notifications on `RedisEventBus`, resumable events in `RedisEventStore`; any
 * instance serves any session.
 */
async function fusionRedis(n: number): Promise<number> {
  const [{ Redis }, { failFastRedisOptions, RedisEventBus, RedisEventStore, RedisSessionStore }] = await Promise.all([
    import('ioredis'),
    import('mcp-fusion/redis'),
  ]);
  const client = new Redis(redisUrl(), failFastRedisOptions());
  const subscriber = new Redis(redisUrl(), failFastRedisOptions());
  const bus = new RedisEventBus({ publisher: client, subscriber, prefix: 'bench:bus:' });
  await bus.ready();
  const sessionStore = new RedisSessionStore({ client, prefix: 'bench:session:' });
  const eventStore = new RedisEventStore({ client, prefix: 'bench:events:' });
  return (await startServer(fusionRegistry(n), { port: 0, sessionStore, bus, eventStore })).port!;
}

/** Every contender kind of the peers benchmark, each serving N tools; resolves the port. */
export const PEER_SERVERS = {
  'v2-sessions': SERVERS['v2-sessions'],
  'v2-sessions-json': (n: number) => listen(sessionful(() => bareV2(n), JsonTransport as never)),
  'v2-factory': SERVERS['v2-factory'],
  fusion: SERVERS.fusion,
  tmcp: (n: number) => tmcp(n),
  'tmcp-redis': (n: number) => tmcp(n, redisUrl()),
  'fusion-redis': fusionRedis,
  fastmcp,
  'mcp-use': mcpUse,
  floor: SERVERS.floor,
} satisfies Record<string, (n: number) => Promise<number>>;

export type PeerKind = keyof typeof PEER_SERVERS;

if (process.argv[2] === '--serve') await serveKind(PEER_SERVERS, process.argv[3]!, Number(process.argv[4]));
