/**
 * The `workers` section (issue #44): plain `tools/call` latency on the HTTP front, alone, while 50 CPU-heavy
 * tasks run on two BullMQ worker processes, and while the same 50 tasks run in the front's own process. Every
 * server is a child process (bench/workersServe.ts) on a private redis-server; this process is the client (one
 * keep-alive connection, modern 2026-07-28 requests, sequential). Opt-in: `npm run bench -- --only=workers`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { fmt, quantile, type Row } from './harness.js';
import { post } from './httpPost.js';
import { startRedis } from './redis.js';
import type { Section, SectionOptions } from './section.js';

const TABLE = 'Plain tools/call on the HTTP front while 50 CPU-heavy tasks run (µs, sequential, one connection)';
const TASKS = 50;
const SCRIPT = fileURLToPath(new URL('./workersServe.ts', import.meta.url));
const TSCONFIG = fileURLToPath(new URL('./tsconfig.json', import.meta.url));
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

/**
 * The niceness of the worker processes: the lowest CPU priority, so that on a machine whose cores the workers
 * could take (the 2-core development machine) the front's process gets them first, as when the workers run on
 * other machines. `nice` starts the process, so every thread of it (V8's, libuv's) inherits the priority.
 */
const WORKER_NICE = 19;

/**
 * Starts bench/workersServe.ts with `args` (under `nice -n <nice>` when given); resolves once it prints `until`
 * (its `PORT <n>` or `READY`).
 */
function child(
  args: string[],
  env: Record<string, string>,
  until: RegExp,
  nice?: number,
): Promise<{ proc: ChildProcess; m: RegExpExecArray }> {
  const node = [process.execPath, '--import', 'tsx', SCRIPT, ...args];
  const [command, ...argv] = nice === undefined ? node : ['nice', '-n', String(nice), ...node];
  const proc = spawn(command!, argv, {
    env: { ...process.env, ...env, TSX_TSCONFIG_PATH: TSCONFIG, NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = until.exec(out);
      if (m !== null) resolve({ proc, m });
    });
    proc.once('exit', (code) => reject(new Error(`bench/workersServe.ts ${args.join(' ')} exited (${code}):\n${err}`)));
  });
}

/** A client of one front: plain calls, task calls and `tasks/get`, modern requests over one keep-alive socket. */
function frontClient(port: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  let id = 0;
  const rpc = async (method: string, params: Record<string, unknown>, name: string) => {
    const body = { jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: META } };
    const headers = { host: '127.0.0.1', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': name };
    const reply = await post(agent, port, body, headers);
    const answer = reply.messages.find((m: { id?: unknown }) => m.id !== undefined);
    if (reply.status !== 200 || answer?.result === undefined)
      throw new Error(`${method} failed: HTTP ${reply.status} ${JSON.stringify(reply.messages).slice(0, 300)}`);
    return answer.result;
  };
  return {
    plain: () => rpc('tools/call', { name: 'echo', arguments: { text: 'hi' } }, 'echo'),
    startTask: async (slices: number): Promise<string> =>
      (await rpc('tools/call', { name: 'crunch', arguments: { slices } }, 'crunch')).taskId as string,
    status: async (taskId: string): Promise<string> => (await rpc('tasks/get', { taskId }, taskId)).status as string,
    close: () => agent.destroy(),
  };
}

type FrontClient = ReturnType<typeof frontClient>;

/** Sequential plain calls: `count` of them, or (with `until`) as long as it says so; latencies in µs. */
async function measure(front: FrontClient, count: number, until?: () => boolean): Promise<number[]> {
  const samples: number[] = [];
  while (until === undefined ? samples.length < count : until()) {
    const t0 = performance.now();
    await front.plain();
    samples.push((performance.now() - t0) * 1000);
  }
  return samples;
}

/**
 * Plain calls (on `front`) while `TASKS` heavy tasks run: started at once through `tasks` (another connection
 * pool, so the plain calls never queue behind the starts), measured from the first start until all are done.
 * Done is checked every 500 ms in order (one `tasks/get` while the oldest runs), so it barely loads the front.
 */
async function whileTasksRun(front: FrontClient, tasks: FrontClient, slices: number) {
  const t0 = performance.now();
  let done = false;
  const watcher = (async () => {
    const ids = await Promise.all(Array.from({ length: TASKS }, () => tasks.startTask(slices)));
    for (let k = 0; k < ids.length;) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      for (let status = await tasks.status(ids[k]!); status !== 'working'; status = await tasks.status(ids[k]!)) {
        if (status !== 'completed') throw new Error(`a heavy task ended ${status}, not completed`);
        if (++k === ids.length) break;
      }
    }
  })().finally(() => (done = true));
  const samples = await measure(front, 0, () => !done);
  await watcher;
  return { samples, ms: performance.now() - t0 };
}

export async function workersSection(options: SectionOptions): Promise<Section> {
  const slices = options.quick ? 10 : 40;
  const baseCount = options.quick ? 200 : 1_000;
  const loadAtStart = os.loadavg();
  const redis = await startRedis();
  const env = { REDIS_URL: redis.url, PREFIX: `bench:${randomUUID().slice(0, 8)}:` };
  const procs: ChildProcess[] = [];
  const stop = () => procs.splice(0).forEach((p) => p.kill('SIGKILL'));
  try {
    // Front with a BullMQ queue and two worker processes (25 runs at once each).
    options.log(`  workers: queued front and two BullMQ workers (nice -n ${WORKER_NICE})`);
    const queued = await child(['--front', 'queued'], env, /PORT (\d+)\n/);
    procs.push(queued.proc);
    for (let i = 0; i < 2; i++) procs.push((await child(['--worker'], env, /READY\n/, WORKER_NICE)).proc);
    let [front, tasks] = [frontClient(Number(queued.m[1])), frontClient(Number(queued.m[1]))];
    await measure(front, 100);
    const alone = await measure(front, baseCount);
    options.log(`  workers: ${TASKS} heavy tasks (${slices} × 10 ms each) on the workers`);
    const onWorkers = await whileTasksRun(front, tasks, slices);
    // Alone again, warm: tells a cold or disturbed first baseline from the tasks' effect.
    const aloneAfter = await measure(front, baseCount);
    front.close();
    tasks.close();
    stop();
    // The same front without a queue: the tasks run in its process.
    options.log(`  workers: ${TASKS} heavy tasks in the front's process`);
    const inproc = await child(['--front', 'inproc'], env, /PORT (\d+)\n/);
    procs.push(inproc.proc);
    [front, tasks] = [frontClient(Number(inproc.m[1])), frontClient(Number(inproc.m[1]))];
    await measure(front, 100);
    const aloneInproc = await measure(front, baseCount);
    const inProcess = await whileTasksRun(front, tasks, slices);
    front.close();
    tasks.close();
    const cases = [
      stats('front alone (queued front)', alone),
      stats(`50 heavy tasks on 2 BullMQ workers (nice ${WORKER_NICE})`, onWorkers.samples),
      stats('front alone again, after the tasks (queued front)', aloneAfter),
      stats('front alone (in-process front)', aloneInproc),
      stats('50 heavy tasks in the front process', inProcess.samples),
    ];
    const x = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
    const load = (l: number[]) => l.map((v) => v.toFixed(1)).join(' / ');
    const [qAlone, qWorkers, qAfter, iAlone, iFront] = cases as [Stats, Stats, Stats, Stats, Stats];
    const markdown = [
      `### ${TABLE}`,
      '',
      '| case | p50 | p95 | calls measured | p50 × alone | p95 × alone |',
      '|---|---|---|---|---|---|',
      ...cases.map((c, i) => {
        const base = i < 3 ? qAlone : iAlone;
        return `| ${c.name} | ${fmt(c.p50)} | ${fmt(c.p95)} | ${c.n} | ${x(c.p50, base.p50)} | ${x(c.p95, base.p95)} |`;
      }),
      '',
      `Heavy tasks: ${TASKS} × ${slices} slices of 10 ms of CPU, yielding between slices; all done in ${(onWorkers.ms / 1000).toFixed(1)} s on the workers, ${(inProcess.ms / 1000).toFixed(1)} s in the front.`,
      `Ratios: tasks on workers, the front's p50 ${x(qWorkers.p50, qAlone.p50)} and p95 ${x(qWorkers.p95, qAlone.p95)} of its own alone (${x(qWorkers.p50, qAfter.p50)} and ${x(qWorkers.p95, qAfter.p95)} of its alone after the tasks); tasks in the front, p50 ${x(iFront.p50, iAlone.p50)} and p95 ${x(iFront.p95, iAlone.p95)}.`,
      `Priority: the two worker processes ran under \`nice -n ${WORKER_NICE}\` (the lowest CPU priority), the front, Redis and this client at the default (0), so the front gets the cores first, as when the workers run on other machines; the in-process front ran at the default.`,
      `Machine: ${os.cpus().length} cores shared by the front, both workers, Redis and this client; load average (1 / 5 / 15 min) at the start ${load(loadAtStart)}, at the end ${load(os.loadavg())}.`,
    ].join('\n');
    const rows: Row[] = cases.map((c, i) => ({
      table: TABLE,
      column: 'p50',
      contender: c.name,
      value: c.p50,
      ratio: c.p50 / (i < 3 ? qAlone : iAlone).p50,
      samples: c.n,
      unit: 'µs',
    }));
    return { title: 'Tasks on workers', markdown, rows };
  } finally {
    stop();
    redis.proc.kill('SIGKILL');
  }
}

interface Stats {
  name: string;
  p50: number;
  p95: number;
  n: number;
}

const stats = (name: string, samples: number[]): Stats => ({
  name,
  p50: quantile(samples, 0.5),
  p95: quantile(samples, 0.95),
  n: samples.length,
});
