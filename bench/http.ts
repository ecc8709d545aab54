import { spawn, type ChildProcess } from 'node:child_process';
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { callArgs, ECHO } from './fixtures.js';
import { fmt, fmtRatio, medianCi, quantile, type Row } from './harness.js';
import { post as postVia, type Reply } from './httpPost.js';
import type { Kind } from './httpServe.js';
import type { Section, SectionOptions } from './section.js';

export type { Kind } from './httpServe.js';

export const HTTP_N = 100;
export const HTTP_TABLE = 'HTTP end to end, both eras';
/** Suffix of the tables whose rows hold the latency of each cell: median in `value`, 99th percentile in `p99`. */
export const LATENCY = ' latency';
/** Suffix of the tables whose rows hold the server process's CPU time per call (µs), measured in the child. */
export const SERVER_CPU = ' server CPU';
/** Suffix of the tables whose ratios are calls/s ÷ the floor's (the server that does no MCP work). */
export const VS_FLOOR = ' against the floor';
/** Columns of every HTTP table. */
export const HTTP_COLUMNS = { one: '1 client', fifty: '50 clients' } as const;

export type Era = 'legacy' | 'modern';

/** One HTTP contender: a server kind driven in one era. The first is the base of every ratio. */
interface Contender {
  kind: Kind;
  era: Era;
  name: string;
}

export const HTTP_BASE = 'SDK v2 McpServer, sessionful transport per session (legacy era)';
export const FUSION_LEGACY = 'mcp-fusion startServer, legacy era (sessions)';
export const FUSION_MODERN = 'mcp-fusion startServer, modern era (2026-07-28, no session)';
export const HTTP_FLOOR = 'floor: node:http parsing the JSON-RPC body, the same result bytes, no MCP';

const CONTENDERS: Contender[] = [
  { kind: 'v2-sessions', era: 'legacy', name: HTTP_BASE },
  { kind: 'v1-sessions', era: 'legacy', name: 'SDK v1 McpServer, sessionful transport (reference, legacy era)' },
  { kind: 'v2-factory', era: 'modern', name: 'SDK v2 createMcpHandler factory, modern era (McpServer per request)' },
  { kind: 'fusion', era: 'legacy', name: FUSION_LEGACY },
  { kind: 'fusion', era: 'modern', name: FUSION_MODERN },
  { kind: 'floor', era: 'modern', name: HTTP_FLOOR },
  // More contenders (the mountable node handler, a long-lived modern dispatcher) are one line each here,
  // with their server kind in httpServe.ts' SERVERS.
];

// ---------------------------------------------------------------------------------------------
// Client side: raw JSON-RPC over keep-alive node:http, one sequential loop per client.

let agent = new Agent({ keepAlive: true, maxSockets: 256 });

/**
 * Closes every connection of the load generator; later calls open new ones. Between the 1-client and the
 * 50-client phases, so that no connection left idle by a whole phase is reused (a socket the server is
 * closing just then ends the process with an uncaught "socket hang up", seen under heavy load).
 */
export function closeConnections(): void {
  agent.destroy();
  agent = new Agent({ keepAlive: true, maxSockets: 256 });
}

const post = (port: number, body: unknown, headers: Record<string, string>): Promise<Reply> =>
  postVia(agent, port, body, headers);

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** One client: a legacy session (initialize, initialized, then calls) or modern stateless requests. */
export async function openClient(port: number, era: Era): Promise<() => Promise<void>> {
  let headers: Record<string, string>;
  if (era === 'legacy') {
    const init = await post(
      port,
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
      },
      {},
    );
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
    if (reply.status !== 200 || answer?.result?.content?.[0]?.text !== ECHO)
      throw new Error(`tools/call failed: HTTP ${reply.status} ${JSON.stringify(reply.messages).slice(0, 300)}`);
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
 * copy of bench/httpServe.ts (e.g. in a checkout of an earlier commit, built, to compare against it).
 */
export function startChild(
  kind: Kind,
  n: number,
  nodeArgs: string[] = [],
  script = fileURLToPath(new URL('./httpServe.ts', import.meta.url)),
): Promise<Server> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, '--serve', kind, String(n)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // The child's own output, each line tagged with its kind (a crash names the server that crashed).
  child.stderr!.on('data', (chunk: Buffer) =>
    process.stderr.write(chunk.toString('utf8').replace(/^(?=.)/gm, `[${kind} server] `)),
  );
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

export interface Cell {
  latencies: number[];
  calls: number;
  ms: number;
  /** CPU time the server process spent while driven, µs (when measured). */
  cpuUs?: number;
}

/** Runs every client's sequential loop for `ms`; returns per-call latencies. */
export async function drive(
  clients: Array<() => Promise<void>>,
  ms: number,
  cell: Cell,
  server?: Server,
): Promise<void> {
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

/** One contender's slice of one round. */
interface RoundCell {
  rate: number;
  cpu: number;
  p50: number;
  p99: number;
}

/** HTTP end to end on 127.0.0.1: each server in its own process, the load generator in this one. */
export async function httpSection({ quick, long, log }: SectionOptions): Promise<Section> {
  const n = HTTP_N;
  // Short slices, many rounds: the contenders alternate often, so load drift on a shared machine spreads evenly.
  // A contender idles while the 5 others run (long: 4 s): below the 5 s after which Node servers close idle connections.
  const sliceMs = quick ? 150 : long ? 800 : 500;
  const rounds = quick ? 1 : long ? 15 : 9;
  const kinds = [...new Set(CONTENDERS.map((c) => c.kind))];
  const started = await Promise.all(kinds.map((kind) => startChild(kind, n)));
  const servers = new Map<Kind, Server>(started.map((s) => [s.kind, s]));
  const floorAt = CONTENDERS.findIndex((c) => c.kind === 'floor');
  const rows: Row[] = [];
  const lines = [
    '| server | 1 client: calls/s (× base) | × floor | p50 µs | p99 µs (× base) | server CPU µs/call (× base) | 50 clients: calls/s (× base) | × floor | p50 µs | p99 µs (× base) | server CPU µs/call (× base) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const cells = new Map<string, string[]>(CONTENDERS.map((c) => [c.name, []]));
  try {
    for (const clientCount of [1, 50]) {
      log(`  HTTP, ${clientCount} client(s) per contender`);
      closeConnections();
      const column = clientCount === 1 ? HTTP_COLUMNS.one : HTTP_COLUMNS.fifty;
      const clients: Array<Array<() => Promise<void>>> = [];
      for (const c of CONTENDERS)
        clients.push(
          await Promise.all(Array.from({ length: clientCount }, () => openClient(servers.get(c.kind)!.port, c.era))),
        );
      for (const c of clients) await drive(c, quick ? 50 : 300, { latencies: [], calls: 0, ms: 0 });
      const totals: Cell[] = CONTENDERS.map(() => ({ latencies: [], calls: 0, ms: 0, cpuUs: 0 }));
      const perRound: RoundCell[][] = [];
      for (let r = 0; r < rounds; r++) {
        const round: RoundCell[] = [];
        for (let k = 0; k < CONTENDERS.length; k++) {
          const i = (k + r) % CONTENDERS.length;
          const one: Cell = { latencies: [], calls: 0, ms: 0 };
          await drive(clients[i]!, sliceMs, one, servers.get(CONTENDERS[i]!.kind));
          const all = totals[i]!;
          for (const l of one.latencies) all.latencies.push(l);
          all.calls += one.calls;
          all.ms += one.ms;
          all.cpuUs! += one.cpuUs!;
          round[i] = {
            rate: one.calls / (one.ms / 1000),
            cpu: one.cpuUs! / one.calls,
            p50: quantile(one.latencies, 0.5),
            p99: quantile(one.latencies, 0.99),
          };
        }
        perRound.push(round);
      }
      // The median over rounds of a contender's value ÷ another's in the same round: robust to load drift.
      const ratios = (i: number, of: keyof RoundCell, against = 0): number[] =>
        perRound.map((round) => round[i]![of] / round[against]![of]);
      CONTENDERS.forEach((c, i) => {
        const cell = totals[i]!;
        const rate = cell.calls / (cell.ms / 1000);
        const cpu = cell.cpuUs! / cell.calls;
        const [p50, p99] = [quantile(cell.latencies, 0.5), quantile(cell.latencies, 0.99)];
        const rateRatios = ratios(i, 'rate');
        const floorRatios = ratios(i, 'rate', floorAt);
        const base = { column, contender: c.name, samples: cell.calls };
        const row = (
          table: string,
          value: number,
          unit: Row['unit'],
          perRoundRatios: number[],
          extra: Partial<Row> = {},
        ): Row => ({
          ...base,
          table,
          value,
          unit,
          ratio: quantile(perRoundRatios, 0.5),
          ci: medianCi(perRoundRatios),
          ...extra,
        });
        const calls = row(HTTP_TABLE, rate, 'calls/s', rateRatios);
        const vsFloor = row(`${HTTP_TABLE}${VS_FLOOR}`, rate, 'calls/s', floorRatios);
        const latency = row(`${HTTP_TABLE}${LATENCY}`, p50, 'µs', ratios(i, 'p50'), {
          p99,
          p99Ratio: quantile(ratios(i, 'p99'), 0.5),
        });
        const serverCpu = row(`${HTTP_TABLE}${SERVER_CPU}`, cpu, 'µs', ratios(i, 'cpu'));
        rows.push(calls, vsFloor, latency, serverCpu);
        cells
          .get(c.name)!
          .push(
            `${fmt(rate)} (${fmtRatio(calls.ratio)}) | ${fmtRatio(vsFloor.ratio)} | ${fmt(p50)} | ${fmt(p99)} (${fmtRatio(latency.p99Ratio!)}) | ${fmt(cpu)} (${fmtRatio(serverCpu.ratio)})`,
          );
      });
    }
  } finally {
    for (const s of servers.values()) {
      s.child.removeAllListeners('exit');
      s.child.stdin!.end();
      s.child.kill();
    }
    closeConnections();
  }
  for (const c of CONTENDERS) lines.push(`| ${c.name} | ${cells.get(c.name)!.join(' | ')} |`);
  const markdown = [
    `Each server runs in its own process with ${n} tools; this process drives it with raw JSON-RPC over keep-alive HTTP/1.1 on 127.0.0.1 (one sequential loop of \`tools/call\` per client, each answer checked): a legacy client opens a session (initialize, initialized), a modern one sends stateless 2026-07-28 requests. Every ratio is the median over ${rounds} round(s) of the ratio within a round (contenders alternate every ${sliceMs} ms slice, so load drift on a shared machine cancels out): × base against the bare SDK's sessionful legacy server (the first row), × floor calls/s against the floor (a node:http server that parses the body and writes the same result, no MCP); the values are over all rounds. Server CPU is the server process's own CPU time (user + system) per call, read in the child before and after each slice, which a busy machine disturbs less than calls/s. The bare SDK servers use the SDK's Node guards (Host and Origin validation).`,
    '',
    lines.join('\n'),
  ].join('\n');
  return { title: 'HTTP end to end', markdown, rows };
}
