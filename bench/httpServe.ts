/**
 * The server side of the HTTP benchmark: `tsx bench/httpServe.ts --serve <kind> <n>` serves one kind of
 * server with N tools on 127.0.0.1, prints `PORT <port>`, answers each stdin line with `CPU <µs>` (its own CPU
 * time so far) and exits when stdin closes. A new server kind is one entry of {@link SERVERS}.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import {
  localhostHostValidation,
  localhostOriginValidation,
  NodeStreamableHTTPServerTransport,
  toNodeHandler,
} from '@modelcontextprotocol/node';
import { createMcpHandler, isInitializeRequest } from '@modelcontextprotocol/server';
import { StreamableHTTPServerTransport as V1Transport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { startServer } from 'mcp-fusion';
import { bareV1, bareV2, fusionRegistry, wireList } from './fixtures.js';

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** The SDK's documented sessionful setup on node:http: one server and transport per `Mcp-Session-Id`. */
export function sessionful(
  make: () => { connect(t: never): Promise<void> },
  Transport: new (o: object) => {
    handleRequest(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void>;
    sessionId?: string | undefined;
    onclose?: (() => void) | undefined;
  },
): NodeHandler {
  const transports = new Map<string, InstanceType<typeof Transport>>();
  const host = localhostHostValidation();
  const origin = localhostOriginValidation();
  return async (req, res) => {
    if (!host(req, res) || !origin(req, res)) return;
    const sid = req.headers['mcp-session-id'];
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    const existing = typeof sid === 'string' ? transports.get(sid) : undefined;
    if (existing !== undefined) return existing.handleRequest(req, res, body);
    if (sid === undefined && isInitializeRequest(body)) {
      const transport = new Transport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id: string) => transports.set(id, transport),
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
      };
      await make().connect(transport as never);
      return transport.handleRequest(req, res, body);
    }
    res
      .writeHead(400, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request' }, id: null }));
  };
}

/**
 * The floor: no MCP work at all. node:http reads and parses the JSON-RPC body and writes the bytes an MCP server
 * answers: the echo of a `tools/call` (as the SDK serializes it), the precomputed list of N tools for a
 * `tools/list`, a session id on `initialize`, 202 to a notification. What any MCP server on node:http pays at
 * least on this machine.
 */
function floor(n: number): NodeHandler {
  const sessionId = randomUUID();
  const list = JSON.stringify({ tools: wireList(n) });
  const init = JSON.stringify({
    protocolVersion: '2025-11-25',
    capabilities: { tools: {} },
    serverInfo: { name: 'floor', version: '1' },
  });
  return async (req, res) => {
    const body = (await readBody(req)) as
      | { id?: number | string; method?: string; params?: { arguments?: { id?: unknown } } }
      | undefined;
    if (body?.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const result =
      body.method === 'initialize'
        ? init
        : body.method === 'tools/list'
          ? list
          : JSON.stringify({ content: [{ type: 'text', text: String(body.params?.arguments?.id) }] });
    const payload = `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(body.id)}}`;
    res
      .writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(payload),
        'mcp-session-id': sessionId,
      })
      .end(payload);
  };
}

/** An HTTP server on an ephemeral 127.0.0.1 port over a node handler; resolves its port. */
export async function listen(handler: NodeHandler): Promise<number> {
  const http = createServer((req, res) => void handler(req, res).catch(() => res.writeHead(500).end()));
  // Clients idle while the other contenders run their slices: keep their connections (Node closes after 5 s).
  http.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return (http.address() as AddressInfo).port;
}

/** Every server kind the HTTP section can start, each serving N tools; resolves the port. */
export const SERVERS = {
  fusion: async (n: number) => (await startServer(fusionRegistry(n), { port: 0 })).port!,
  'v2-sessions': (n: number) => listen(sessionful(() => bareV2(n), NodeStreamableHTTPServerTransport as never)),
  'v1-sessions': (n: number) => listen(sessionful(() => bareV1(n) as never, V1Transport as never)),
  'v2-factory': (n: number) => {
    const node = toNodeHandler(createMcpHandler(() => bareV2(n)));
    const host = localhostHostValidation();
    const origin = localhostOriginValidation();
    return listen(async (req, res) => {
      if (host(req, res) && origin(req, res)) await node(req as never, res as never);
    });
  },
  floor: (n: number) => listen(floor(n)),
  // The mountable node handler (issue #34 item 5) joins here as one more kind, e.g.
  // 'fusion-node': (n) => listen(nodeHandlerOf(fusionRegistry(n))), with its rows in http.ts' CONTENDERS.
} satisfies Record<string, (n: number) => Promise<number>>;

export type Kind = keyof typeof SERVERS;

/** Starts `kind` of `servers` (a table of server kinds) with N tools and speaks the child protocol ({@link announce}). */
export async function serveKind(servers: Record<string, (n: number) => Promise<number>>, kind: string, n: number) {
  const start = servers[kind];
  if (start === undefined) throw new Error(`unknown server kind "${kind}": use ${Object.keys(servers).join(', ')}`);
  announce(await start(n));
}

/**
 * The child's side of the protocol with bench/http.ts' `startChild`: prints `PORT <port>`, answers each stdin line
 * with `CPU <µs>` (this process's CPU time so far) and exits when stdin closes.
 */
export function announce(port: number): void {
  process.stdout.write(`PORT ${port}\n`);
  process.stdin.on('data', (chunk: Buffer) => {
    for (let i = 0; i < chunk.toString('utf8').split('\n').length - 1; i++) {
      const { user, system } = process.cpuUsage();
      process.stdout.write(`CPU ${user + system}\n`);
    }
  });
  process.stdin.on('end', () => process.exit(0));
}

// Only as the child's own script (bench/peerServe.ts imports this module and takes the same arguments).
if (process.argv[2] === '--serve' && import.meta.url === pathToFileURL(process.argv[1]!).href)
  await serveKind(SERVERS, process.argv[3]!, Number(process.argv[4]));
