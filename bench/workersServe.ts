/**
 * The processes of the `workers` section (bench/workers.ts), one script: `--front queued|inproc` serves MCP over
 * HTTP on a free port (prints `PORT <n>`), its tasks on BullMQ workers (`queued`) or in its own process
 * (`inproc`); `--worker` runs the task handlers (prints `READY`). Tasks in Redis (REDIS_URL, PREFIX).
 */
import { Redis } from 'ioredis';
import { initFusion, startServer } from 'mcp-fusion';
import { BullTaskQueue, failFastRedisOptions, RedisEventBus, RedisTaskStore, startTaskWorker } from 'mcp-fusion/redis';

/** One slice of CPU work (~`ms` of hashing, no I/O), the unit a heavy task repeats, yielding between slices. */
function burn(ms: number): number {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) for (let i = 0; i < 10_000; i++) x = (x * 31 + i) >>> 0;
  return x;
}

const f = initFusion();
export const registry = f.registry().registerAll(
  f
    .query('echo')
    .withString('text')
    .handle(({ text }) => text),
  f
    .action('crunch')
    .describe('CPU-heavy: `slices` × 10 ms of computation, yielding the event loop between slices')
    .withNumber('slices')
    .task({ pollIntervalMs: 100 })
    .handle(async ({ slices }) => {
      let x = 0;
      for (let i = 0; i < slices; i++) {
        x ^= burn(10);
        await new Promise((resolve) => setImmediate(resolve));
      }
      return `crunched ${slices} slices (${x}) on ${process.pid}`;
    }),
);

const url = process.env.REDIS_URL!;
const prefix = process.env.PREFIX!;
// A loaded machine (the workers take whole cores) can delay Redis past the fail-fast 1 s: not what is measured.
const redisOptions = failFastRedisOptions({ commandTimeout: 15_000 });
const client = new Redis(url, redisOptions);
client.on('error', () => {});
if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
const bus = new RedisEventBus({
  publisher: client,
  subscriber: new Redis(url, redisOptions),
  prefix: `${prefix}bus:`,
});
await bus.ready();
const store = new RedisTaskStore({ client, prefix: `${prefix}tasks:` });
const connection = { host: new URL(url).hostname, port: Number(new URL(url).port) };
const budgets = { maxActivePerPrincipal: 10_000, maxActivePerProcess: 10_000 };
const mode = process.argv[process.argv.indexOf('--front') + 1];

if (process.argv.includes('--worker')) {
  await startTaskWorker({
    registry,
    connection,
    prefix: `${prefix}bull`,
    tasks: { store, bus: bus.tasks, budgets },
    concurrency: 25,
  });
  process.stdout.write('READY\n');
} else {
  const queue = mode === 'queued' ? new BullTaskQueue({ connection, prefix: `${prefix}bull` }) : undefined;
  const server = await startServer(registry, {
    port: 0,
    host: '127.0.0.1',
    drainMs: 0,
    tasks: { store, bus: bus.tasks, budgets, ...(queue !== undefined ? { queue } : {}) },
  });
  process.stdout.write(`PORT ${new URL(server.url).port}\n`);
}
