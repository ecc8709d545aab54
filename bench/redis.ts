/**
 * Redis cost of each kind of call, and what one Redis primary can carry: commands per call counted on a
 * private redis-server (MONITOR for round trips, INFO commandstats for every command a script runs), then
 * the primary's rate for those commands — `redis-benchmark` for single scripts and commands, and a
 * pipelined ACQUIRE → END loop (the real pair of a gated call) with the server's CPU time per pair.
 * As a section of bench/main.ts: `redisSection`; standalone: `npm run build && npx tsx --tsconfig bench/tsconfig.json bench/redis.ts [--quick]`.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { registry, workspaceOptions } from '../examples/workspace/registry.js';
import { createFusionApp, type FusionApp } from 'mcp-fusion';
import { ACQUIRE, END, writeArgs } from './internals.js';
import { failFastRedisOptions, RedisEventBus, RedisFsmStore, RedisSessionStore } from 'mcp-fusion/redis';
import { countCommands, perCall } from './commandCount.js';
import type { Row } from './harness.js';
import { freePort } from './freePort.js';
import type { Section, SectionOptions } from './section.js';
import { cpuMs } from './cpuMs.js';

export const REDIS_COMMANDS = 'Redis commands per call (example server wiring, counted on a private redis-server)';
export const REDIS_CAPACITY = 'One Redis primary on this machine (measured)';
const run = promisify(execFile);

export async function startRedis(): Promise<{ proc: ChildProcess; url: string; port: number }> {
  const port = await freePort();
  const proc = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    proc.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.once('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
  });
  return { proc, url: `redis://127.0.0.1:${port}`, port };
}

const HEADERS = {
  host: '127.0.0.1',
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function answer(res: Response): Promise<any> {
  const text = await res.text();
  const messages = (res.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data:') && l.slice(5).trim() !== '')
        .map((l) => JSON.parse(l.slice(5)))
    : text === ''
      ? []
      : [JSON.parse(text)].flat();
  return messages.find((m: { id?: unknown }) => m.id !== undefined);
}

function legacy(app: FusionApp, sid: string | undefined, body: object): Promise<Response> {
  const headers =
    sid === undefined ? HEADERS : { ...HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
  return app.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(body) }));
}

async function openSession(app: FusionApp): Promise<string> {
  const res = await legacy(app, undefined, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  const sid = res.headers.get('mcp-session-id')!;
  await res.text();
  await (await legacy(app, sid, { jsonrpc: '2.0', method: 'notifications/initialized' })).text();
  await answer(await legacy(app, sid, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })); // first use: the record is written once
  return sid;
}

async function legacyCall(app: FusionApp, sid: string, name: string, args: object = {}): Promise<any> {
  const message = await answer(
    await legacy(app, sid, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } }),
  );
  if (message?.result === undefined || message.result.isError === true)
    throw new Error(`legacy ${name} failed: ${JSON.stringify(message)}`);
  return message;
}

async function modernCall(app: FusionApp, name: string, args: object = {}): Promise<any> {
  const headers = { ...HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name };
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name, arguments: args, _meta: ENVELOPE },
  });
  const message = await answer(await app.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body })));
  if (message?.result === undefined || message.result.isError === true)
    throw new Error(`modern ${name} failed: ${JSON.stringify(message)}`);
  return message;
}

const handleOf = (message: any): string => /checkout_id: (che_[\w-]+)/.exec(JSON.stringify(message.result))![1]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Kinds of call, each with what runs before the count and the measured call (`i`: its index). */
type Kind = { name: string; prepare: (n: number) => Promise<(i: number) => Promise<unknown>> };

function kinds(app: FusionApp): Kind[] {
  return [
    {
      name: 'legacy gated call, no transition (`cart.add_item` in `has_items`)',
      prepare: async () => {
        const sid = await openSession(app);
        await legacyCall(app, sid, 'cart.add_item', { product_id: 'p' });
        return () => legacyCall(app, sid, 'cart.add_item', { product_id: 'p' });
      },
    },
    {
      name: 'legacy gated call with a transition (`cart.add_item` from `empty`)',
      prepare: async (n) => {
        const sids = await Promise.all(Array.from({ length: n }, () => openSession(app)));
        return (i) => legacyCall(app, sids[i]!, 'cart.add_item', { product_id: 'p' });
      },
    },
    {
      name: 'legacy gated `tools/list`',
      prepare: async () => {
        const sid = await openSession(app);
        return async () => answer(await legacy(app, sid, { jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} }));
      },
    },
    {
      name: 'modern gated call with its handle, no transition',
      prepare: async () => {
        const handle = handleOf(await modernCall(app, 'cart.add_item', { product_id: 'p' }));
        return () => modernCall(app, 'cart.add_item', { product_id: 'p', checkout_id: handle });
      },
    },
    {
      name: 'modern gated call with its handle and a transition (`cart.checkout`)',
      prepare: async (n) => {
        const handles: string[] = [];
        for (let i = 0; i < n; i++) handles.push(handleOf(await modernCall(app, 'cart.add_item', { product_id: 'p' })));
        return (i) => modernCall(app, 'cart.checkout', { checkout_id: handles[i] });
      },
    },
    {
      name: 'ungated call, either era (`countries.list`)',
      prepare: async () => {
        const sid = await openSession(app);
        return async (i) => (i % 2 === 0 ? legacyCall(app, sid, 'countries.list') : modernCall(app, 'countries.list'));
      },
    },
  ];
}

/** `redis-benchmark -q --csv` of one command; resolves requests per second. */
async function redisBenchmark(port: number, n: number, args: string[]): Promise<number> {
  const { stdout } = await run(
    'redis-benchmark',
    ['-h', '127.0.0.1', '-p', String(port), '-c', '50', '-n', String(n), '-r', '1000000', '--csv', ...args],
    { timeout: 120_000 },
  );
  const line = stdout.trim().split('\n').at(-1)!;
  // "command","rps","avg","min","p50","p95","p99","max" — the command text may itself hold quotes.
  const fields = line.split('","');
  return Number(fields[fields.length - 7]);
}

/** The real pair of a gated call (ACQUIRE, then END with a write), pipelined on `connections` clients for `ms`. */
async function pairs(
  url: string,
  pid: number | undefined,
  connections: number,
  ms: number,
): Promise<{ rate: number; cpuUsPerPair: number }> {
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const c = new Redis(url, failFastRedisOptions());
      c.on('error', () => {});
      await new Promise((resolve) => c.once('ready', resolve));
      await c.script('LOAD', ACQUIRE.source);
      await c.script('LOAD', END.source);
      return c;
    }),
  );
  let done = 0;
  const cpu0 = cpuMs(pid);
  const t0 = performance.now();
  const end = t0 + ms;
  await Promise.all(
    clients.map(async (c, k) => {
      for (let batch = 0; performance.now() < end; batch++) {
        const keys = Array.from({ length: 100 }, (_, i) => `bench:{${k}-${batch}-${i}}`);
        const acquired = c.pipeline();
        for (const key of keys) acquired.evalsha(ACQUIRE.sha, 2, `${key}:s`, `${key}:l`, 'tok', 5_000, '1');
        await acquired.exec();
        const ended = c.pipeline();
        for (const key of keys)
          ended.evalsha(
            END.sha,
            2,
            `${key}:s`,
            `${key}:l`,
            'tok',
            '1',
            ...writeArgs(
              true,
              undefined,
              { state: 'has_items', updatedAt: 1, version: 1, expiresAt: Date.now() + 60_000 },
              undefined,
            ),
          );
        await ended.exec();
        done += keys.length;
      }
    }),
  );
  const wall = performance.now() - t0;
  const cpu = cpuMs(pid) - cpu0;
  for (const c of clients) c.disconnect();
  return { rate: done / (wall / 1000), cpuUsPerPair: (cpu * 1000) / done };
}

export async function redisSection(options: SectionOptions): Promise<Section> {
  const calls = options.quick ? 3 : 10;
  const redis = await startRedis();
  const rows: Row[] = [];
  const prefix = `bench:${randomUUID().slice(0, 8)}:`;
  const client = new Redis(redis.url, failFastRedisOptions());
  const subscriber = new Redis(redis.url, failFastRedisOptions());
  for (const c of [client, subscriber]) c.on('error', () => {});
  await Promise.all([client, subscriber].map((c) => new Promise((resolve) => c.once('ready', resolve))));
  const bus = new RedisEventBus({ publisher: client, subscriber, prefix: `${prefix}bus:` });
  await bus.ready();
  const app = createFusionApp(registry, {
    ...workspaceOptions(),
    sessionStore: new RedisSessionStore({ client, prefix: `${prefix}session:` }),
    fsmStore: new RedisFsmStore({ client, prefix: `${prefix}fsm:session:`, ttlMs: 24 * 60 * 60_000 }),
    workflowStore: new RedisFsmStore({ client, prefix: `${prefix}fsm:handle:` }),
    bus,
    listChangedDebounceMs: 5,
  });
  const lines = ['| call | round trips per call | sent | executed, scripts included |', '|---|---:|---|---|'];
  const capacity: string[] = [];
  try {
    for (const kind of kinds(app)) {
      const call = await kind.prepare(calls);
      await sleep(30);
      const count = await countCommands(redis.url, async () => {
        for (let i = 0; i < calls; i++) await call(i);
        await sleep(50); // debounced notifications are published just after the answer
      });
      const cost = perCall(count, calls);
      const show = (r: Record<string, number>) =>
        Object.entries(r)
          .map(([k, v]) => `${v} ${k.toUpperCase()}`)
          .join(', ') || '—';
      lines.push(
        `| ${kind.name} | ${cost.roundTrips} | ${show(cost.sent)} | ${show(cost.executed)} (${cost.executedTotal}) |`,
      );
      rows.push({
        table: REDIS_COMMANDS,
        column: 'round trips',
        contender: kind.name,
        value: cost.roundTrips,
        ratio: 1,
        samples: calls,
        unit: 'commands',
      });
      options.log(`  ${kind.name}: ${cost.roundTrips} round trips`);
    }
    const n = options.quick ? 5_000 : 100_000;
    const load0 = os.loadavg()[0]!.toFixed(1);
    await client.script('LOAD', ACQUIRE.source);
    const bench = async (args: string[]): Promise<[number, number]> => {
      const cpu0 = cpuMs(redis.proc.pid);
      const rate = await redisBenchmark(redis.port, n, args);
      return [rate, ((cpuMs(redis.proc.pid) - cpu0) * 1000) / n];
    };
    const measured: Array<[string, [number, number]]> = [
      [
        'EVALSHA of the acquire script (SET NX PX + HGET), random keys',
        await bench(['EVALSHA', ACQUIRE.sha, '2', 'b:{__rand_int__}:s', 'b:{__rand_int__}:l', 'tok', '5000', '1']),
      ],
      ['HGET (a legacy gated `tools/list`)', await bench(['HGET', 'b:{__rand_int__}:s', 'd'])],
      [
        'PUBLISH, 1 subscriber (a notification)',
        await bench([
          'PUBLISH',
          `${prefix}bus:sessions`,
          '{"o":"x","s":"session","n":{"method":"notifications/tools/list_changed"}}',
        ]),
      ],
    ];
    const pair = await pairs(redis.url, redis.proc.pid, options.quick ? 2 : 4, options.quick ? 400 : 2_000);
    capacity.push('| operation | measured ops/s | Redis CPU per op |', '|---|---:|---:|');
    for (const [name, [rate, cpuUs]] of measured) {
      capacity.push(
        `| ${name} (redis-benchmark, 50 connections) | ${Math.round(rate).toLocaleString('en-US')} | ${cpuUs.toFixed(1)} µs |`,
      );
      rows.push({
        table: REDIS_CAPACITY,
        column: 'ops/s',
        contender: name,
        value: rate,
        ratio: 1,
        samples: n,
        unit: 'ops/s',
      });
    }
    capacity.push(
      `| a gated call's pair: acquire + end with a write (pipelined, ${options.quick ? 2 : 4} ioredis connections) | ${Math.round(pair.rate).toLocaleString('en-US')} pairs/s | ${pair.cpuUsPerPair.toFixed(1)} µs |`,
    );
    rows.push({
      table: REDIS_CAPACITY,
      column: 'ops/s',
      contender: 'gated pair (acquire + end)',
      value: pair.rate,
      ratio: 1,
      samples: 1,
      unit: 'ops/s',
    });
    rows.push({
      table: REDIS_CAPACITY,
      column: 'µs',
      contender: 'Redis CPU per gated pair',
      value: pair.cpuUsPerPair,
      ratio: 1,
      samples: 1,
      unit: 'µs',
    });
    capacity.push(
      '',
      `Load average before / after: ${load0} / ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores shared with the load generators and other jobs: a dedicated primary does more.`,
    );
  } finally {
    await app.close();
    await bus.close();
    client.disconnect();
    subscriber.disconnect();
    redis.proc.kill('SIGKILL');
  }
  const markdown = [
    lines.join('\n'),
    '',
    `Per call, averaged over ${calls} calls of each kind. Round trips are what the server sends (MONITOR, commands not issued by a script); "executed" adds what the scripts run inside (INFO commandstats after CONFIG RESETSTAT).`,
    '',
    `### ${REDIS_CAPACITY}`,
    '',
    capacity.join('\n'),
    '',
  ].join('\n');
  return { title: REDIS_COMMANDS, markdown, rows };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const quick = process.argv.includes('--quick');
  const section = await redisSection({ quick, log: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(
    `Machine: ${os.cpus()[0]?.model ?? 'unknown'} ×${os.cpus().length}; Node ${process.version}\n\n## ${section.title}\n\n${section.markdown}`,
  );
}
