/**
 * `npm run bench -- --peers`: mcp-fusion against the other MCP server frameworks for TypeScript, each in its own
 * process serving the same tools (bench/peerServe.ts), driven from this process over keep-alive HTTP
 * (bench/peerClient.ts). `--quick` is a short run (main table only, few short rounds): not for conclusions.
 * The peers' packages live in bench/peers/package.json and are installed there on first use.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { fmt } from './harness.js';
import type { ChildProcess } from 'node:child_process';
import { drive, startChild, type Era, type Server } from './http.js';
import { openMixClient, type Tally } from './peerClient.js';
import type { PeerKind } from './peerServe.js';
import { startRedis } from './redis.js';
import { cpuMs } from './cpuMs.js';
import { fmtSpread, ratiosPerRound, spread } from './spread.js';

const PEERS_DIR = fileURLToPath(new URL('./peers/', import.meta.url));
const SERVE = fileURLToPath(new URL('./peerServe.ts', import.meta.url));

/** One row: a server kind driven in one era. The first is the base of every ratio. */
interface Contender {
  name: string;
  kind: PeerKind;
  era: Era;
  /** Why this contender cannot serve the load, printed instead of its figures. */
  unsupported?: string;
  /** Server processes (instances on one redis-server) the clients take turns over, request by request; 1 if unset. */
  instances?: number;
}

const BASE = 'SDK v2 sessionful (SSE responses)';
const FLOOR = 'node:http answering the same bytes (floor)';
const ALL: Contender[] = [
  { name: BASE, kind: 'v2-sessions', era: 'legacy' },
  { name: 'SDK v2 sessionful, JSON responses', kind: 'v2-sessions-json', era: 'legacy' },
  { name: 'SDK v2 `createMcpHandler`, 2026-07-28', kind: 'v2-factory', era: 'modern' },
  { name: '**mcp-fusion legacy**', kind: 'fusion', era: 'legacy' },
  { name: '**mcp-fusion 2026-07-28**', kind: 'fusion', era: 'modern' },
  { name: 'tmcp 1.20 + @tmcp/transport-http 0.9, legacy', kind: 'tmcp', era: 'legacy' },
  { name: 'tmcp 1.20 + @tmcp/transport-http 0.9, 2026-07-28', kind: 'tmcp', era: 'modern' },
  { name: 'fastmcp 4.20 (punkpeye, SDK v1), legacy', kind: 'fastmcp', era: 'legacy' },
  {
    name: 'fastmcp 4.20, 2026-07-28',
    kind: 'fastmcp',
    era: 'modern',
    unsupported: 'fastmcp 4.x serves only the handshake-based revisions (its README; answers -32000 to 2026-07-28)',
  },
  { name: 'mcp-use 2.5, legacy (stateless: no session)', kind: 'mcp-use', era: 'legacy' },
  { name: 'mcp-use 2.5, 2026-07-28', kind: 'mcp-use', era: 'modern' },
  { name: FLOOR, kind: 'floor', era: 'legacy' },
];

/** One table of the run: N tools, the mix (every `listEvery`-th request a tools/list) and the client counts. */
interface Table {
  /** Its name for `--tables=` (main, 1000, list, redis). */
  id: string;
  title: string;
  n: number;
  listEvery: number;
  clients: number[];
  /** Its own contenders (the first the base), instead of {@link CONTENDERS}. */
  contenders?: Contender[];
}

const MAIN: Table = {
  id: 'main',
  title: '100 tools, 9 `tools/call` then 1 `tools/list` per client',
  n: 100,
  listEvery: 10,
  clients: [50, 1],
};
const REDIS_BASE = 'tmcp 1.20, two instances on Redis (@tmcp/session-manager-redis 0.3), legacy';
const REDIS_CONTENDERS: Contender[] = [
  { name: REDIS_BASE, kind: 'tmcp-redis', era: 'legacy', instances: 2 },
  { name: 'tmcp 1.20, two instances on Redis, 2026-07-28', kind: 'tmcp-redis', era: 'modern', instances: 2 },
  { name: '**mcp-fusion legacy, two instances on Redis**', kind: 'fusion-redis', era: 'legacy', instances: 2 },
  { name: '**mcp-fusion 2026-07-28, two instances on Redis**', kind: 'fusion-redis', era: 'modern', instances: 2 },
  {
    name: 'SDK v2 sessionful, two instances',
    kind: 'v2-sessions',
    era: 'legacy',
    unsupported:
      'the SDK keeps sessions in its process (no shared session store): a session opened on one instance is unknown to the other',
  },
  { name: 'mcp-fusion legacy, one instance (no Redis)', kind: 'fusion', era: 'legacy' },
  { name: FLOOR, kind: 'floor', era: 'legacy' },
];

const EXTRA: Table[] = [
  { id: '1000', title: '1,000 tools, the same mix', n: 1000, listEvery: 10, clients: [50] },
  {
    id: 'list',
    title: '100 tools, `tools/list`-heavy: 1 `tools/call` then 1 `tools/list`',
    n: 100,
    listEvery: 2,
    clients: [50],
  },
  {
    id: 'redis',
    title:
      'Two instances on one redis-server, each request to the next instance (no affinity), the main mix; server CPU: both instances and the redis-server',
    n: 100,
    listEvery: 10,
    clients: [50],
    contenders: REDIS_CONTENDERS,
  },
];

/** Installs bench/peers/package.json's packages from its lockfile when they are missing (first use). */
export function ensurePeers(log: (line: string) => void): void {
  const manifest = JSON.parse(readFileSync(`${PEERS_DIR}package.json`, 'utf8')) as { dependencies: object };
  if (Object.keys(manifest.dependencies).every((name) => existsSync(`${PEERS_DIR}node_modules/${name}/package.json`)))
    return;
  process.stdout.write('Installing the peer frameworks (first use): npm ci --prefix bench/peers\n');
  const done = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--prefix', PEERS_DIR], { stdio: 'inherit' });
  if (done.status !== 0) throw new Error(`npm ci --prefix bench/peers failed (exit ${done.status}): see above`);
  log('  peers installed');
}

/** One contender's measurements over the rounds of one column. */
interface Column {
  rate: number[];
  ok: number;
  errors: number;
  cpuUs: number;
  ms: number;
  firstError?: string | undefined;
}

/** Runs one column (a client count) of one table over its live servers; a contender that fails is noted. */
async function column(
  table: Table,
  clientCount: number,
  servers: Map<PeerKind, Group>,
  failed: Map<string, string>,
  o: { rounds: number; sliceMs: number; log: (line: string) => void },
): Promise<Column[]> {
  const CONTENDERS = table.contenders ?? ALL;
  const agents = CONTENDERS.map(() => new Agent({ keepAlive: true, maxSockets: 256 }));
  const tallies: Tally[] = CONTENDERS.map(() => ({ ok: 0, errors: 0 }));
  const cols: Column[] = CONTENDERS.map(() => ({ rate: [], ok: 0, errors: 0, cpuUs: 0, ms: 0 }));
  const clients: Array<Array<() => Promise<void>> | undefined> = [];
  for (const [i, c] of CONTENDERS.entries()) {
    const server = servers.get(c.kind);
    if (failed.has(c.name) || server === undefined) {
      clients.push(undefined);
      continue;
    }
    try {
      const open = () =>
        openMixClient(
          () => agents[i]!,
          server.ports,
          c.era,
          table.n,
          table.listEvery,
          () => tallies[i]!,
        );
      clients.push(await Promise.all(Array.from({ length: clientCount }, open)));
    } catch (e) {
      failed.set(c.name, `could not open its clients: ${(e as Error).message}`);
      clients.push(undefined);
    }
  }
  const alive = (i: number): Group | undefined => {
    const s = servers.get(CONTENDERS[i]!.kind);
    if (s === undefined || s.children.some((c) => c.exitCode !== null || c.signalCode !== null)) {
      if (!failed.has(CONTENDERS[i]!.name)) failed.set(CONTENDERS[i]!.name, 'its server process exited');
      return undefined;
    }
    return s;
  };
  // Warm-up: one short slice each, not counted.
  for (const [i, c] of clients.entries())
    if (c !== undefined && alive(i) !== undefined) await drive(c, o.sliceMs / 2, { latencies: [], calls: 0, ms: 0 });
  for (let r = 0; r < o.rounds; r++) {
    for (let k = 0; k < CONTENDERS.length; k++) {
      const i = (k + r) % CONTENDERS.length;
      const server = alive(i);
      const col = cols[i]!;
      if (clients[i] === undefined || server === undefined) {
        col.rate.push(NaN);
        continue;
      }
      // Fresh connections every slice: a peer's HTTP server may close the ones left idle while the others ran.
      agents[i]!.destroy();
      agents[i] = new Agent({ keepAlive: true, maxSockets: 256 });
      const tally: Tally = (tallies[i] = { ok: 0, errors: 0 });
      const cell = { latencies: [], calls: 0, ms: 0, cpuUs: 0 };
      await drive(clients[i]!, o.sliceMs, cell, server);
      col.rate.push(tally.ok / (cell.ms / 1000));
      col.ok += tally.ok;
      col.errors += tally.errors;
      col.cpuUs += cell.cpuUs;
      col.ms += cell.ms;
      col.firstError ??= tally.firstError;
    }
    o.log(`    round ${r + 1}/${o.rounds}`);
  }
  for (const a of agents) a.destroy();
  return cols;
}

/** The server processes of one contender kind: one, or several instances its clients take turns over. */
interface Group extends Server {
  ports: number[];
  children: ChildProcess[];
}

/**
 * Starts `instances` processes of a kind; their CPU readings add up (with `redisPid`'s, the redis-server they
 * share), and give up (NaN) when one has exited, so a crash cannot hang a slice.
 */
async function startGroup(kind: PeerKind, instances: number, n: number, redisPid?: number): Promise<Group> {
  const started: Server[] = [];
  try {
    for (let i = 0; i < instances; i++) started.push(await startChild(kind as never, n, [], SERVE));
  } catch (e) {
    for (const s of started) s.child.kill();
    throw e;
  }
  const exited = Promise.race(
    started.map((s) => new Promise<number>((resolve) => s.child.once('exit', () => resolve(NaN)))),
  );
  // A Redis contender is charged the redis-server's CPU too (from /proc, 10 ms ticks): it idles while others run.
  const redisUs = () => (redisPid === undefined ? 0 : cpuMs(redisPid) * 1000);
  const total = async () => (await Promise.all(started.map((s) => s.cpu()))).reduce((a, b) => a + b, 0) + redisUs();
  const first = started[0]!;
  return {
    ...first,
    ports: started.map((s) => s.port),
    children: started.map((s) => s.child),
    cpu: () => Promise.race([total(), exited]),
  };
}

/** One table: every server started with N tools, its columns run, the servers stopped; its markdown. */
async function runTable(table: Table, o: { rounds: number; sliceMs: number; log: (line: string) => void }) {
  const started = new Date().toISOString();
  const load0 = os.loadavg();
  const CONTENDERS = table.contenders ?? ALL;
  const failed = new Map<string, string>();
  for (const c of CONTENDERS) if (c.unsupported !== undefined) failed.set(c.name, c.unsupported);
  const servers = new Map<PeerKind, Group>();
  const live = CONTENDERS.filter((c) => !failed.has(c.name));
  // The instances of a Redis contender share one private redis-server (no persistence), started for the table.
  const redis = live.some((c) => c.kind.endsWith('-redis')) ? await startRedis() : undefined;
  if (redis !== undefined) process.env.BENCH_REDIS_URL = redis.url;
  for (const kind of new Set(live.map((c) => c.kind))) {
    try {
      const instances = Math.max(...live.filter((c) => c.kind === kind).map((c) => c.instances ?? 1));
      servers.set(
        kind,
        await startGroup(kind, instances, table.n, kind.endsWith('-redis') ? redis?.proc.pid : undefined),
      );
    } catch (e) {
      for (const c of CONTENDERS.filter((c) => c.kind === kind))
        failed.set(c.name, `its server did not start: ${(e as Error).message}`);
    }
  }
  const results = new Map<number, Column[]>();
  try {
    for (const clientCount of table.clients) {
      o.log(`  ${table.title}: ${clientCount} client(s)`);
      results.set(clientCount, await column(table, clientCount, servers, failed, o));
    }
  } finally {
    for (const child of [...servers.values()].flatMap((s) => s.children)) {
      child.removeAllListeners('exit');
      child.stdin!.end();
      child.kill();
    }
    redis?.proc.kill();
  }
  const head = table.clients.map(
    (c) => `${c} client${c === 1 ? '' : 's'}: × base (min–max) | errors | server CPU ms / 1k req`,
  );
  const lines = [`| contender | ${head.join(' | ')} |`, `|---|${table.clients.map(() => '---:|---:|---:').join('|')}|`];
  for (const [i, c] of CONTENDERS.entries()) {
    const reason = failed.get(c.name);
    const cells = table.clients.map((count) => {
      const col = results.get(count)?.[i];
      const base = results.get(count)?.[0];
      if (col === undefined || base === undefined || col.ok === 0) return `n/a | ${col?.errors ?? 0} | n/a`;
      const rounds = base.rate.map((_, r) => [base.rate[r]!, col.rate[r]!]);
      const s = spread(ratiosPerRound(rounds, 1, 0));
      return `${fmtSpread(s)} | ${col.errors} | ${fmt(col.cpuUs / col.ok)}`;
    });
    const note = reason ?? results.get(table.clients[0]!)?.[i]?.firstError;
    lines.push(
      `| ${c.name}${note === undefined ? '' : ` — *${note.replace(/\|/g, '\\|').slice(0, 240)}*`} | ${cells.join(' | ')} |`,
    );
  }
  const baseRates = table.clients
    .map((count) => {
      const b = results.get(count)?.[0];
      return b === undefined ? '' : `${count} client(s): ${fmt(b.ok / (b.ms / 1000))} req/s`;
    })
    .filter((s) => s !== '');
  const conditions = `Started ${started}; load average (1 / 5 / 15 min) ${load0.map((l) => l.toFixed(2)).join(' / ')} at the start, ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')} at the end; ${o.rounds} round(s) of ${o.sliceMs} ms slices; the base served ${baseRates.join(', ')}.`;
  return [`### ${table.title}`, '', conditions, '', ...lines, ''].join('\n');
}

/** The whole peers run: the report on stdout (progress on stderr). */
export async function peersMain(quick: boolean, log: (line: string) => void, only?: string[]): Promise<void> {
  ensurePeers(log);
  const cpus = os.cpus();
  const t0 = performance.now();
  const o = { rounds: quick ? 2 : 7, sliceMs: quick ? 300 : 1000, log };
  // Each table is printed as soon as it is measured: a run cut short keeps what it measured.
  process.stdout.write(
    [
      '## Peers: the same tools on every MCP server framework for TypeScript',
      '',
      `- Machine: ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}; Node ${process.version}`,
      `- Started ${new Date().toISOString()}; load average (1 / 5 / 15 min) ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(
          ' / ',
        )} (above about 1 per core, other work shares the cores: read server CPU per request, not throughput)${quick ? '; **quick run** (few short rounds: not for conclusions)' : ''}`,
      "- Each contender: its own process, the same tools (a required string `id`, an optional number `limit`, validated from a zod schema by the framework), echoing `id`. Load: N keep-alive clients in this process, each a sequential loop of raw JSON-RPC (every answer checked); contenders alternate slice by slice within each round, with fresh connections each slice. × base: requests/s answered correctly ÷ the base's in the same round, the median over rounds and (min–max). Server CPU: the server process's own user + system time per 1,000 correct requests.",
      '',
      '',
    ].join('\n'),
  );
  const tables =
    only === undefined ? (quick ? [MAIN] : [MAIN, ...EXTRA]) : [MAIN, ...EXTRA].filter((t) => only.includes(t.id));
  if (only !== undefined && tables.length === 0)
    throw new Error(`--tables=${only.join(',')} names no table: use ${[MAIN, ...EXTRA].map((t) => t.id).join(', ')}`);
  for (const table of tables) {
    log(`${table.title}…`);
    // The extra tables take fewer rounds: their slow contenders drain 50 queued requests after every slice.
    const rounds = table === MAIN ? o.rounds : Math.min(o.rounds, 3);
    process.stdout.write(`${await runTable(table, { ...o, rounds })}\n`);
  }
  process.stdout.write(`Whole run: ${((performance.now() - t0) / 60_000).toFixed(1)} min.\n`);
}
