/**
 * `npm run soak [-- --minutes 3 | --seconds 15] [--users 6] [--rate 2] [--instances 2]`: a bounded soak of
 * workspace servers sharing one Redis (a private redis-server unless REDIS_URL is set: DBSIZE counts the whole
 * database) under virtual users of both eras that come and go, `rate` sessions a second in all, spread over every
 * instance (see scripts/soak/load.ts). Every lifetime the servers keep (sessions, workflow handles, stored SSE
 * events) is scaled to the run, so what clients leave behind is purged within its first half. Every sample prints
 * the servers' heap (after a full collection, summed), their open handles,
 * Redis' key count (DBSIZE) and the p99 latency of the calls since the last sample; at the end each is judged
 * over the second half of the run (scripts/soak/trend.ts). Exit 1: one grows without bound; exit 2: a call
 * failed or the server did not stop cleanly on SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { Load } from './soak/load.js';
import { judge, quantile, type Series, type Tolerance } from './soak/trend.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string' },
    seconds: { type: 'string' },
    users: { type: 'string', default: '6' },
    rate: { type: 'string', default: '2' },
    instances: { type: 'string', default: '2' },
  },
});
const seconds = values.seconds !== undefined ? Number(values.seconds) : Number(values.minutes ?? '3') * 60;
if (!(seconds >= 4))
  throw new Error(`--minutes/--seconds: give a run of at least 4 s (got ${values.minutes ?? values.seconds})`);
const users = Number(values.users);
const rate = Number(values.rate);
const instances = Number(values.instances);
if (!(Number.isInteger(instances) && instances >= 1))
  throw new Error(`--instances: give a whole number of servers, at least 1 (got ${values.instances})`);
const sampleMs = Math.max(1_000, Math.round((seconds * 1_000) / 36));
// Sessions, workflow handles and stored SSE events live a quarter of the run (15–30 s): what users abandon is
// purged within it, so the second half, which the verdict judges, starts on the plateau. Never below 15 s: a
// session unused for a third of it is closed, and on a busy machine one call can take seconds.
const ttlMs = Math.min(30_000, Math.max(15_000, Math.round((seconds * 1_000) / 4)));
const root = fileURLToPath(new URL('..', import.meta.url));

const TOLERANCES: Record<string, Tolerance> = {
  'heap MiB': { absolute: 4, relative: 0.1 },
  handles: { absolute: 10, relative: 0.1 },
  'redis keys': { absolute: 50, relative: 0.15 },
  // Latency on a shared machine follows the other work on it: p99 may at most double over the judged half.
  'p99 ms': { absolute: 25, relative: 1 },
};

const children: ChildProcess[] = [];
const stopAll = (): void => void children.forEach((c) => c.exitCode === null && c.kill('SIGKILL'));
process.once('exit', stopAll);

const redisUrl = process.env.REDIS_URL ?? (await startRedis());
const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
await redis.connect();
const servers: Array<{ port: number; debugPort: number }> = [];
const prefix = `soak:${process.pid}:`;
for (let i = 0; i < instances; i++) {
  const [port, debugPort] = [await freePort(), await freePort()];
  const server = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', '--conditions=mcp-fusion-source', 'scripts/soak/server.ts'],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        DEBUG_PORT: String(debugPort),
        REDIS_URL: redisUrl,
        REDIS_PREFIX: prefix,
        SOAK_TTL_MS: String(ttlMs),
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  children.push(server);
  await ready(port, server);
  await ready(debugPort, server);
  servers.push({ port, debugPort });
}
const serverProcesses = children.slice(-instances);

console.log(
  `soak: ${seconds} s, ${instances} instance(s) on one Redis, ${users} users of both eras starting ${rate} sessions/s, sessions, handles and stored events live ${ttlMs / 1_000} s, a sample every ${sampleMs / 1_000} s`,
);
console.log(
  ['t s', 'heap MiB', 'handles', 'redis keys', 'p99 ms', 'calls', 'failed', 'opened', 'left', 'abandoned', 'sessions']
    .map((h) => h.padStart(9))
    .join(' '),
);
const load = new Load(
  servers.map((s) => `http://127.0.0.1:${s.port}/mcp`),
  users,
  rate,
);
const series: Record<string, Array<[number, number]>> = Object.fromEntries(Object.keys(TOLERANCES).map((k) => [k, []]));
const failures: string[] = [];
let total = 0;
const started = performance.now();
for (let next = sampleMs; next <= seconds * 1_000; next += sampleMs) {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + next - performance.now())));
  const window = load.take();
  const all = await Promise.all(servers.map((s) => statsOf(s.debugPort)));
  const stats = all.reduce((a, b) => ({
    heapUsed: a.heapUsed + b.heapUsed,
    handles: a.handles + b.handles,
    sessions: a.sessions + b.sessions,
    live: a.live + b.live,
  }));
  const row = {
    t: (performance.now() - started) / 1_000,
    'heap MiB': stats.heapUsed / 2 ** 20,
    handles: stats.handles,
    'redis keys': await redis.dbsize(),
    'p99 ms': quantile(window.latencies, 0.99),
  };
  for (const key of Object.keys(TOLERANCES)) series[key]!.push([row.t, row[key as keyof typeof row]]);
  failures.push(...window.failures);
  total += window.calls;
  const cells = [
    row.t.toFixed(0),
    row['heap MiB'].toFixed(1),
    row.handles,
    row['redis keys'],
    row['p99 ms'].toFixed(1),
    window.calls,
    window.failures.length,
    window.opened,
    window.ended,
    window.abandoned,
    `${stats.sessions}/${stats.live}`,
  ];
  console.log(cells.map((c) => String(c).padStart(9)).join(' '));
}
await load.stop();
const codes = await Promise.all(
  serverProcesses.map(async (server) => {
    server.kill('SIGTERM');
    return ((await once(server, 'exit')) as [number | null])[0];
  }),
);
const code = codes.find((c) => c !== 0) ?? 0;

console.log(
  `\nverdict over the second half (${total} calls, ${failures.length} failed; server exit code ${code} after SIGTERM):`,
);
let flat = true;
for (const [name, tolerance] of Object.entries(TOLERANCES)) {
  const trend = judge(series[name] as Series, tolerance);
  flat &&= trend.bounded;
  console.log(
    `  ${trend.bounded ? 'flat   ' : 'GROWING'} ${name.padEnd(10)} median ${trend.median.toFixed(1).padStart(8)}  slope ${trend.slopePerMin.toFixed(2).padStart(8)}/min  growth ${trend.growth.toFixed(1).padStart(7)} (allowed ${trend.allowed.toFixed(1)})`,
  );
}
for (const failure of failures.slice(0, 10)) console.log(`  failed: ${failure}`);
// Exit 2: calls failed or the server did not stop cleanly; 1: something grew without bound.
const served = failures.length === 0 && code === 0;
console.log(
  served && flat
    ? 'soak: PASS'
    : `soak: FAIL (${served ? 'a metric grows' : 'calls failed or the server did not stop cleanly'})`,
);
redis.disconnect();
stopAll();
process.exit(!served ? 2 : flat ? 0 : 1);

async function startRedis(): Promise<string> {
  const redisPort = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  child.once('error', (error) => {
    console.error(
      `soak: could not start redis-server (${error.message}); install it (apt-get install redis-server) or set REDIS_URL`,
    );
    process.exit(1);
  });
  children.push(child);
  await ready(redisPort, child);
  return `redis://127.0.0.1:${redisPort}`;
}

/** Resolves once 127.0.0.1:`port` accepts a connection (30 s at most, or until `child` exits). */
async function ready(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answered = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (answered) return;
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`soak: nothing listens on port ${port} (process exited: ${child.exitCode})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port: chosen } = srv.address() as { port: number };
      srv.close(() => resolve(chosen));
    });
  });
}

function statsOf(debug: number): Promise<{ heapUsed: number; handles: number; sessions: number; live: number }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port: debug, path: '/stats', agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => void (body += chunk.toString('utf8')));
      res.on('end', () =>
        resolve(JSON.parse(body) as { heapUsed: number; handles: number; sessions: number; live: number }),
      );
    })
      .on('error', reject)
      .end();
  });
}
