/**
 * Scale-out benchmark: calls per second for independent clients against 1 and 3 example-server processes
 * (`examples/workspace/main.ts` with REDIS_URL) sharing one private redis-server, every request sent to
 * the next instance in turn (no affinity). Standalone: `npm run build && npx tsx --tsconfig bench/tsconfig.json bench/scale.ts
 * [--quick]`; as a section of bench/main.ts: `scaleSection`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent } from 'node:http';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Row } from './harness.js';
import { post as postVia, type Reply } from './httpPost.js';
import { freePort } from './freePort.js';
import type { Section, SectionOptions } from './section.js';
import { cpuMs } from './cpuMs.js';

export const SCALE = 'Scale-out on one Redis: independent clients, round-robin over instances (calls/s)';
const root = fileURLToPath(new URL('../', import.meta.url));
const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Spawns `command` and resolves once its output contains `ready`. */
async function spawnReady(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: string,
): Promise<ChildProcess> {
  const proc = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} did not start within 30 s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes(ready)) {
        clearTimeout(timer);
        resolve();
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('error', (error) => reject(new Error(`could not run ${command} (${error.message})`)));
    proc.once('exit', (code) => reject(new Error(`${command} exited with ${code}:\n${output}`)));
  });
  return proc;
}

const post = (port: number, body: unknown, headers: Record<string, string>): Promise<Reply> =>
  postVia(agent, port, body, headers);

export type Scenario = 'modern-stateful' | 'legacy-stateful' | 'modern-stateless';

/** Column labels of the scale table, by scenario. */
export const SCALE_SCENARIOS: Record<Scenario, string> = {
  'modern-stateful':
    'modern cart.add_item on its own checkout handle (2 Redis round trips: acquire+load, save+release)',
  'legacy-stateful': 'legacy cart.add_item in its own session (2 Redis round trips)',
  'modern-stateless': 'modern countries.list (no Redis access)',
};

/** One independent client; `next()` picks the port of its next request. Resolves its call function. */
async function openClient(scenario: Scenario, next: () => number): Promise<() => Promise<void>> {
  let id = 0;
  const check = (reply: Reply): void => {
    const answer = reply.messages.find((m) => m.id !== undefined);
    if (reply.status !== 200 || answer?.result === undefined || answer.result.isError === true)
      throw new Error(`call failed: HTTP ${reply.status} ${JSON.stringify(reply.messages).slice(0, 300)}`);
  };
  if (scenario === 'legacy-stateful') {
    const init = await post(
      next(),
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
      },
      {},
    );
    const sid = init.headers['mcp-session-id'];
    if (init.status !== 200 || typeof sid !== 'string') throw new Error(`initialize failed: HTTP ${init.status}`);
    const headers = { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': sid };
    await post(next(), { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    const params = { name: 'cart.add_item', arguments: { product_id: 'p' } };
    return async () => check(await post(next(), { jsonrpc: '2.0', id: ++id, method: 'tools/call', params }, headers));
  }
  const tool = scenario === 'modern-stateful' ? 'cart.add_item' : 'countries.list';
  const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': tool };
  let args: Record<string, unknown> = scenario === 'modern-stateful' ? { product_id: 'p' } : {};
  if (scenario === 'modern-stateful') {
    const first = await post(
      next(),
      { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: tool, arguments: args, _meta: ENVELOPE } },
      headers,
    );
    check(first);
    const handle = /checkout_id: (che_[\w-]+)/.exec(JSON.stringify(first.messages))?.[1];
    if (handle === undefined) throw new Error('no checkout_id in the first result');
    args = { ...args, checkout_id: handle };
  }
  const body = { jsonrpc: '2.0', method: 'tools/call', params: { name: tool, arguments: args, _meta: ENVELOPE } };
  return async () => check(await post(next(), { ...body, id: ++id }, headers));
}

/** Closed loop: every client calls again as soon as its previous call returns. */
async function measure(calls: Array<() => Promise<void>>, ms: number): Promise<{ rate: number; latencies: number[] }> {
  const latencies: number[] = [];
  const end = performance.now() + ms;
  let done = 0;
  await Promise.all(
    calls.map(async (call) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await call();
        latencies.push(performance.now() - t0);
        done++;
      }
    }),
  );
  return { rate: done / (ms / 1000), latencies };
}

/** CPU used during `task` by the clients (this process), the instances and redis-server, in cores. */
async function cores<T>(
  servers: ChildProcess[],
  redis: ChildProcess,
  task: () => Promise<T>,
): Promise<{ result: T; clients: number; servers: number; redis: number }> {
  const t0 = performance.now();
  const self = process.cpuUsage();
  const before = servers.map((p) => cpuMs(p.pid));
  const redisBefore = cpuMs(redis.pid);
  const result = await task();
  const wall = performance.now() - t0;
  const used = process.cpuUsage(self);
  const serverMs = servers.reduce((sum, p, i) => sum + cpuMs(p.pid) - before[i]!, 0);
  return {
    result,
    clients: (used.user + used.system) / 1000 / wall,
    servers: serverMs / wall,
    redis: (cpuMs(redis.pid) - redisBefore) / wall,
  };
}

const q = (values: number[], p: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))] ?? NaN;

/**
 * The scale-out section. Three instances run throughout; "1 instance" sends every request to the first,
 * "3 instances" to each in turn. The two configurations alternate in slices (so background load and
 * drift hit both alike) and the value is the median slice's calls per second.
 */
export async function scaleSection(options: SectionOptions): Promise<Section> {
  const clients = options.quick ? 8 : 24;
  const warmupMs = options.quick ? 300 : 1_000;
  const sliceMs = options.quick ? 500 : 1_000;
  const rounds = options.quick ? 2 : 6;
  const redisPort = await freePort();
  const redis = await spawnReady(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    process.env,
    'Ready to accept connections',
  );
  const rows: Row[] = [];
  const lines = [
    '| scenario | 1 instance calls/s | 3 instances calls/s | 3 ÷ 1 | p50 ms (1 → 3) | p99 ms (1 → 3) | cores busy: clients / instances / redis (1 → 3) |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  const prefix = `bench:${randomUUID().slice(0, 8)}:`;
  const ports = await Promise.all([0, 1, 2].map(() => freePort()));
  options.log('  starting 3 instances…');
  const procs = await Promise.all(
    ports.map((port) =>
      spawnReady(
        process.execPath,
        ['--import', 'tsx', 'examples/workspace/main.ts'],
        { ...process.env, PORT: String(port), REDIS_URL: `redis://127.0.0.1:${redisPort}`, REDIS_PREFIX: prefix },
        'listening on',
      ),
    ),
  );
  try {
    for (const scenario of Object.keys(SCALE_SCENARIOS) as Scenario[]) {
      const configs = [1, 3].map((instances) => {
        let turn = 0;
        return {
          instances,
          next: (): number => ports[turn++ % instances]!,
          rates: [] as number[],
          latencies: [] as number[],
          calls: [] as Array<() => Promise<void>>,
          cpu: [] as Array<{ clients: number; servers: number; redis: number }>,
        };
      });
      for (const config of configs) {
        config.calls = await Promise.all(Array.from({ length: clients }, () => openClient(scenario, config.next)));
        await measure(config.calls, warmupMs);
      }
      for (let r = 0; r < rounds; r++) {
        for (const config of r % 2 === 0 ? configs : [...configs].reverse()) {
          const { result, ...cpu } = await cores(procs, redis, () => measure(config.calls, sliceMs));
          config.rates.push(result.rate);
          config.latencies.push(...result.latencies);
          config.cpu.push(cpu);
        }
      }
      const [one, three] = configs.map((c) => ({
        rate: q(c.rates, 0.5),
        p50: q(c.latencies, 0.5),
        p99: q(c.latencies, 0.99),
        samples: c.latencies.length,
        cpu: (['clients', 'servers', 'redis'] as const)
          .map((k) => (c.cpu.reduce((sum, x) => sum + x[k], 0) / c.cpu.length).toFixed(2))
          .join(' / '),
      })) as [Stat, Stat];
      rows.push(
        {
          table: SCALE,
          column: SCALE_SCENARIOS[scenario],
          contender: '1 instance',
          value: one.rate,
          p99: one.p99,
          ratio: 1,
          samples: one.samples,
          unit: 'calls/s',
        },
        {
          table: SCALE,
          column: SCALE_SCENARIOS[scenario],
          contender: '3 instances',
          value: three.rate,
          p99: three.p99,
          ratio: three.rate / one.rate,
          samples: three.samples,
          unit: 'calls/s',
        },
      );
      lines.push(
        `| ${SCALE_SCENARIOS[scenario]} | ${Math.round(one.rate)} | ${Math.round(three.rate)} | ${(three.rate / one.rate).toFixed(2)}× | ${one.p50.toFixed(1)} → ${three.p50.toFixed(1)} | ${one.p99.toFixed(1)} → ${three.p99.toFixed(1)} | ${one.cpu} → ${three.cpu} |`,
      );
      options.log(`  ${SCALE_SCENARIOS[scenario]}: ${Math.round(one.rate)} → ${Math.round(three.rate)} calls/s`);
    }
  } finally {
    for (const proc of procs) proc.kill('SIGKILL');
    redis.kill('SIGKILL');
    agent.destroy();
  }
  const cpus = os.cpus().length;
  const load = os.loadavg()[0]!.toFixed(1);
  const note =
    `${clients} closed-loop clients per configuration in the benchmark process; median of ${rounds} alternating ${sliceMs} ms slices. ` +
    `${cpus} CPU core(s) are shared by the clients, every instance and redis-server (1-minute load average at the end: ${load}): ` +
    `one instance is one Node thread, so several instances can only add the cores left over, and on ${cpus} core(s) the ceiling is below ${cpus}×.`;
  return { title: SCALE, markdown: `## ${SCALE}\n\n${lines.join('\n')}\n\n${note}\n`, rows };
}

interface Stat {
  rate: number;
  p50: number;
  p99: number;
  samples: number;
  cpu: string;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const quick = process.argv.includes('--quick');
  const section = await scaleSection({ quick, log: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(
    `Machine: ${os.cpus()[0]?.model ?? 'unknown'} ×${os.cpus().length}; Node ${process.version}\n\n${section.markdown}`,
  );
}
