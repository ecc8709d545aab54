import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { localhostHostValidation, localhostOriginValidation, NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isInitializeRequest } from '@modelcontextprotocol/server';
import { StreamableHTTPServerTransport as V1Transport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { startServer } from 'mcp-fusion';
import { bareV1, bareV2, callArgs, ECHO, fusionRegistry } from './fixtures.js';
import { fmt, fmtRatio, quantile, type Row } from './harness.js';
import { post as postVia, type Reply } from './httpPost.js';
import type { Section, SectionOptions } from './section.js';

export const HTTP_N = 100;
export const HTTP_LEGACY = 'HTTP end to end, legacy era (sessions)';
export const HTTP_MODERN = 'HTTP end to end, modern era (2026-07-28, no session)';
/** Suffix of the tables whose rows hold the latency of each cell: median in `value`, 99th percentile in `p99`. */
export const LATENCY = ' latency';
/** Suffix of the tables whose rows hold the server process's CPU time per call (µs), measured in the child. */
export const SERVER_CPU = ' server CPU';
/** Columns of every HTTP table. */
export const HTTP_COLUMNS = { one: '1 session', fifty: '50 sessions' } as const;

export type Kind = 'fusion' | 'v2-sessions' | 'v2-factory' | 'v1-sessions';

/** Contender names of the rows (the `contender` field). */
export const KINDS: Record<Kind, string> = {
  'v2-sessions': 'SDK v2 McpServer, sessionful transport per session',
  'v1-sessions': 'SDK v1 McpServer, sessionful transport (reference)',
  'v2-factory': 'SDK v2 createMcpHandler factory (McpServer per request)',
  fusion: 'mcp-fusion startServer',
};

// ---------------------------------------------------------------------------------------------
// Server side: `tsx bench/http.ts --serve <kind> <n>` prints `PORT <port>` and serves until stdin closes.

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** The SDK's documented sessionful setup on node:http: one server and transport per `Mcp-Session-Id`. */
function sessionful(make: () => { connect(t: never): Promise<void> }, Transport: new (o: object) => { handleRequest(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void>; sessionId?: string | undefined; onclose?: (() => void) | undefined }) {
  const transports = new Map<string, InstanceType<typeof Transport>>();
  const host = localhostHostValidation();
  const origin = localhostOriginValidation();
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!host(req, res) || !origin(req, res)) return;
    const sid = req.headers['mcp-session-id'];
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    const existing = typeof sid === 'string' ? transports.get(sid) : undefined;
    if (existing !== undefined) return existing.handleRequest(req, res, body);
    if (sid === undefined && isInitializeRequest(body)) {
      const transport = new Transport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id: string) => transports.set(id, transport) });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
      };
      await make().connect(transport as never);
      return transport.handleRequest(req, res, body);
    }
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request' }, id: null }));
  };
}

async function serve(kind: Kind, n: number): Promise<void> {
  let port: number;
  if (kind === 'fusion') {
    port = (await startServer(fusionRegistry(n), { port: 0 })).port!;
  } else {
    let handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    if (kind === 'v2-factory') {
      const node = toNodeHandler(createMcpHandler(() => bareV2(n)));
      const host = localhostHostValidation();
      const origin = localhostOriginValidation();
      handler = async (req, res) => {
        if (host(req, res) && origin(req, res)) await node(req as never, res as never);
      };
    } else if (kind === 'v2-sessions') handler = sessionful(() => bareV2(n), NodeStreamableHTTPServerTransport as never);
    else handler = sessionful(() => bareV1(n) as never, V1Transport as never);
    const http = createServer((req, res) => void handler(req, res).catch(() => res.writeHead(500).end()));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    port = (http.address() as AddressInfo).port;
  }
  process.stdout.write(`PORT ${port}\n`);
  // Each line on stdin asks for this process's CPU time so far (user + system, µs): `CPU <µs>`.
  process.stdin.on('data', (chunk: Buffer) => {
    for (let i = 0; i < chunk.toString('utf8').split('\n').length - 1; i++) {
      const { user, system } = process.cpuUsage();
      process.stdout.write(`CPU ${user + system}\n`);
    }
  });
  process.stdin.on('end', () => process.exit(0));
}

// ---------------------------------------------------------------------------------------------
// Client side: raw JSON-RPC over keep-alive node:http, one sequential loop per session.

export const agent = new Agent({ keepAlive: true, maxSockets: 256 });

const post = (port: number, body: unknown, headers: Record<string, string>): Promise<Reply> => postVia(agent, port, body, headers);

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };

/** One client: a legacy session (initialize, initialized, then calls) or modern stateless requests. */
export async function openClient(port: number, era: 'legacy' | 'modern'): Promise<() => Promise<void>> {
  let headers: Record<string, string>;
  if (era === 'legacy') {
    const init = await post(port, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }, {});
    if (init.status !== 200) throw new Error(`initialize failed: HTTP ${init.status}`);
    const sid = init.headers['mcp-session-id'];
    headers = { 'mcp-protocol-version': '2025-11-25', ...(typeof sid === 'string' ? { 'mcp-session-id': sid } : {}) };
    await post(port, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  } else {
    headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': callArgs.name };
  }
  const params = era === 'legacy' ? callArgs : { ...callArgs, _meta: ENVELOPE };
  let id = 1;
  const call = async (): Promise<void> => {
    const reply = await post(port, { jsonrpc: '2.0', id: ++id, method: 'tools/call', params }, headers);
    const answer = reply.messages.find((m) => m.id !== undefined);
    if (reply.status !== 200 || answer?.result?.content?.[0]?.text !== ECHO) throw new Error(`tools/call failed: HTTP ${reply.status} ${JSON.stringify(reply.messages).slice(0, 300)}`);
  };
  await call();
  return call;
}

export interface Server {
  kind: Kind;
  port: number;
  child: ChildProcess;
  /** The server process's CPU time so far (user + system), in µs. */
  cpu(): Promise<number>;
}

/**
 * Starts one server kind in a child process (`nodeArgs`, e.g. `--cpu-prof`, go to its node). `script`: another
 * copy of this file (e.g. in a checkout of an earlier commit, built, to compare against it).
 */
export function startChild(kind: Kind, n: number, nodeArgs: string[] = [], script = fileURLToPath(import.meta.url)): Promise<Server> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, '--serve', kind, String(n)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting: Array<(us: number) => void> = [];
  const cpu = (): Promise<number> =>
    new Promise((resolve) => {
      waiting.push(resolve);
      child.stdin!.write('cpu\n');
    });
  return new Promise((resolve, reject) => {
    let out = '';
    let started = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (!started) {
        const m = /PORT (\d+)\n/.exec(out);
        if (m === null) return;
        started = true;
        out = out.slice(m.index + m[0].length);
        resolve({ kind, port: Number(m[1]), child, cpu });
      }
      let nl: number;
      while ((nl = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        if (line.startsWith('CPU ')) waiting.shift()?.(Number(line.slice(4)));
      }
    });
    child.on('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

/** One contender's slice of one round: calls/s, server CPU µs per call, p99 µs. */
interface RoundCell {
  rate: number;
  cpu: number;
  p99: number;
}

export interface Cell {
  latencies: number[];
  calls: number;
  ms: number;
  /** CPU time the server process spent while driven, µs (when measured). */
  cpuUs?: number;
}

/** Runs every client's sequential loop for `ms`; returns per-call latencies. */
export async function drive(clients: Array<() => Promise<void>>, ms: number, cell: Cell, server?: Server): Promise<void> {
  const cpu0 = await server?.cpu();
  const t0 = performance.now();
  const deadline = t0 + ms;
  await Promise.all(
    clients.map(async (call) => {
      while (performance.now() < deadline) {
        const s = performance.now();
        await call();
        cell.latencies.push((performance.now() - s) * 1000);
        cell.calls++;
      }
    }),
  );
  cell.ms += performance.now() - t0;
  if (server !== undefined) cell.cpuUs = (cell.cpuUs ?? 0) + (await server.cpu()) - cpu0!;
}

/** HTTP end to end on 127.0.0.1: each server in its own process, the load generator in this one. */
export async function httpSection({ quick, log }: SectionOptions): Promise<Section> {
  const n = HTTP_N;
  // Short slices, many rounds: the contenders alternate often, so load drift on a shared machine spreads evenly.
  const sliceMs = quick ? 150 : 500;
  const rounds = quick ? 1 : 9;
  const plan: Array<{ table: string; era: 'legacy' | 'modern'; kinds: Kind[] }> = [
    { table: HTTP_LEGACY, era: 'legacy', kinds: ['v2-sessions', 'v1-sessions', 'v2-factory', 'fusion'] },
    { table: HTTP_MODERN, era: 'modern', kinds: ['v2-factory', 'fusion'] },
  ];
  const started = await Promise.all((Object.keys(KINDS) as Kind[]).map((kind) => startChild(kind, n)));
  const servers = new Map<Kind, Server>(started.map((s) => [s.kind, s]));
  const rows: Row[] = [];
  const tables: string[] = [];
  try {
    for (const { table, era, kinds } of plan) {
      const results = new Map<string, Cell>();
      const perRound = new Map<string, Map<Kind, RoundCell>>();
      // The median over rounds of a contender's value ÷ the first contender's in the same round: robust to load drift.
      const roundRatio = (sessions: number, kind: Kind, of: keyof RoundCell): number =>
        quantile(
          Array.from({ length: rounds }, (_, r) => perRound.get(`${sessions}/${r}`)!).map((round) => round.get(kind)![of] / round.get(kinds[0]!)![of]),
          0.5,
        );
      for (const sessions of [1, 50]) {
        log(`  HTTP ${era}, ${sessions} session(s)`);
        const clients = new Map<Kind, Array<() => Promise<void>>>();
        for (const kind of kinds) clients.set(kind, await Promise.all(Array.from({ length: sessions }, () => openClient(servers.get(kind)!.port, era))));
        for (const kind of kinds) await drive(clients.get(kind)!, quick ? 50 : 300, { latencies: [], calls: 0, ms: 0 });
        for (const kind of kinds) results.set(`${kind}/${sessions}`, { latencies: [], calls: 0, ms: 0, cpuUs: 0 });
        for (let r = 0; r < rounds; r++) {
          const round = new Map<Kind, RoundCell>();
          for (let k = 0; k < kinds.length; k++) {
            const kind = kinds[(k + r) % kinds.length]!;
            const one: Cell = { latencies: [], calls: 0, ms: 0 };
            await drive(clients.get(kind)!, sliceMs, one, servers.get(kind));
            const all = results.get(`${kind}/${sessions}`)!;
            for (const l of one.latencies) all.latencies.push(l);
            all.calls += one.calls;
            all.ms += one.ms;
            all.cpuUs! += one.cpuUs!;
            round.set(kind, { rate: one.calls / (one.ms / 1000), cpu: one.cpuUs! / one.calls, p99: quantile(one.latencies, 0.99) });
          }
          perRound.set(`${sessions}/${r}`, round);
        }
      }
      const lines = [
        '| server | 1 session: calls/s | p50 µs | p99 µs | server CPU µs/call | 50 sessions: calls/s | p50 µs | p99 µs | server CPU µs/call |',
        '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
      ];
      for (const kind of kinds) {
        const cells = [1, 50].map((sessions) => {
          const cell = results.get(`${kind}/${sessions}`)!;
          const base = results.get(`${kinds[0]}/${sessions}`)!;
          const rate = cell.calls / (cell.ms / 1000);
          const ratio = roundRatio(sessions, kind, 'rate');
          const column = sessions === 1 ? HTTP_COLUMNS.one : HTTP_COLUMNS.fifty;
          const cpu = cell.cpuUs! / cell.calls;
          const cpuRatio = roundRatio(sessions, kind, 'cpu');
          const p99 = quantile(cell.latencies, 0.99);
          const p99Ratio = roundRatio(sessions, kind, 'p99');
          rows.push({ table, column, contender: KINDS[kind], value: rate, ratio, samples: cell.calls, unit: 'calls/s' });
          rows.push({ table: `${table}${LATENCY}`, column, contender: KINDS[kind], value: quantile(cell.latencies, 0.5), p99, p99Ratio, ratio: quantile(cell.latencies, 0.5) / quantile(base.latencies, 0.5), samples: cell.calls, unit: 'µs' });
          rows.push({ table: `${table}${SERVER_CPU}`, column, contender: KINDS[kind], value: cpu, ratio: cpuRatio, samples: cell.calls, unit: 'µs' });
          return `${fmt(rate)} (${fmtRatio(ratio)}) | ${fmt(quantile(cell.latencies, 0.5))} | ${fmt(p99)} (${fmtRatio(p99Ratio)}) | ${fmt(cpu)} (${fmtRatio(cpuRatio)})`;
        });
        lines.push(`| ${KINDS[kind]} | ${cells.join(' | ')} |`);
      }
      tables.push(`### ${table}`, '', lines.join('\n'), '');
    }
  } finally {
    for (const s of servers.values()) {
      s.child.removeAllListeners('exit');
      s.child.stdin!.end();
      s.child.kill();
    }
    agent.destroy();
  }
  const markdown = [
    `Each server runs in its own process with ${n} tools; this process drives it with raw JSON-RPC over keep-alive HTTP/1.1 on 127.0.0.1 (one sequential loop per session, each call checked). Calls/s, p99 and server-CPU ratios are against the first row, each the median over the rounds of the ratio within a round (contenders alternate every slice, so load drift on a shared machine cancels out); the values are over all rounds. Server CPU is the server process's own CPU time (user + system) per call, read in the child before and after each slice, which a busy machine disturbs less than calls/s. The bare SDK servers use the SDK's Node guards (Host and Origin validation); the factory serves legacy clients statelessly (its default), so its "sessions" are plain connections.`,
    '',
    ...tables,
  ].join('\n');
  return { title: 'HTTP end to end', markdown, rows };
}

if (process.argv[2] === '--serve') await serve(process.argv[3] as Kind, Number(process.argv[4]));
