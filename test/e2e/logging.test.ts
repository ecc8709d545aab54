import { Writable } from 'node:stream';
import { systemClock } from '../../src/_internal/clock.js';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { InMemorySpanExporter, BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createFusionApp,
  createStderrLogger,
  initFusion,
  jwksVerifier,
  type AttachOptions,
  type ToolRegistry,
} from '../../src/index.js';
import { RedisFsmStore, RedisSessionStore } from '../../src/redis/index.js';
import { buildServer } from '../../src/server/buildServer.js';
import { httpServer, texts } from '../_helpers/clients.js';
import { openSession, request, type RawApp } from '../_helpers/raw.js';
import { startIssuer } from '../auth/issuer.js';
import { ready, redisClient, uniquePrefix } from '../redis/clients.js';
import { freePort } from '../_helpers/freePort.js';
import { sourceChild } from '../_helpers/sourceChild.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Real pino writing JSON records into memory (the tests set logLevel: the test setup silences MCP_FUSION_LOG). */
function memoryPino() {
  const records: Array<Record<string, any>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      records.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), records };
}

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The real SDK client connected in memory to a server over `registry` with `options`. */
async function connect<Ctx>(registry: ToolRegistry<Ctx>, options: AttachOptions<Ctx>): Promise<Client> {
  const runtime = registry.runtime(options);
  const { server } = buildServer(runtime, options, 'legacy');
  const [c, s] = InMemoryTransport.createLinkedPair();
  await server.connect(s);
  const client = new Client({ name: 'log-test', version: '1' });
  await client.connect(c);
  closers.push(() => client.close());
  return client;
}

const f = initFusion<{ user: string }>();
const boom = f
  .action('boom')
  .describe('Throws')
  .withString('secret', 'A value only logArguments shows')
  .handle(() => {
    throw new Error('kaboom');
  });
const fine = f
  .query('fine')
  .describe('Works')
  .handle(() => 'ok');
const tools = () => f.registry().registerAll(boom, fine);
const noStack = /\n\s+at |\.ts:\d+|node_modules/;

describe('the logger option with real pino', () => {
  it('logs a throwing handler once at warn, with tool, session, principal, trace id, duration and (at debug level) the stack; the agent reads no stack', async () => {
    const { logger, records } = memoryPino();
    const spans = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
    closers.push(() => provider.shutdown());
    const client = await connect(tools(), {
      logger,
      logLevel: 'debug',
      contextFactory: () => ({ user: 'u' }),
      tracing: { tracer: provider.getTracer('t') },
    });
    const result = await client.callTool({ name: 'boom', arguments: { secret: 's3cr3t' } });

    expect(result.isError).toBe(true);
    expect(texts(result).join('\n')).toContain('kaboom');
    expect(texts(result).join('\n')).not.toMatch(noStack);
    const errors = records.filter((r) => r.level >= 40);
    expect(errors).toHaveLength(1);
    const [record] = errors;
    const traceId = spans
      .getFinishedSpans()
      .find((s) => s.name === 'tools/call boom')!
      .spanContext().traceId;
    expect(record).toMatchObject({
      level: 40,
      msg: 'tool handler threw',
      tool: 'boom',
      session: expect.any(String),
      principal: expect.stringMatching(/^a:/),
      traceId,
      durationMs: expect.any(Number),
    });
    expect(record!.err).toMatchObject({
      type: 'Error',
      message: 'kaboom',
      stack: expect.stringContaining('logging.test.ts'),
    });
    expect(JSON.stringify(records)).not.toContain('s3cr3t');
    // At debug level the debug events reach the logger too (the failed call among them), errors only once.
    expect(records.filter((r) => r.level === 20 && r.msg === 'call').map((r) => [r.tool, r.ok])).toEqual([
      ['boom', false],
    ]);
  });

  it('logs a throwing contextFactory once; the agent reads its message, not its stack', async () => {
    const { logger, records } = memoryPino();
    const client = await connect(tools(), {
      logger,
      logLevel: 'debug',
      contextFactory: () => {
        throw new TypeError('database pool exhausted');
      },
    });
    const result = await client.callTool({ name: 'fine', arguments: {} });
    expect(result.isError).toBe(true);
    expect(texts(result).join('\n')).not.toMatch(noStack);
    const errors = records.filter((r) => r.level === 50);
    expect(errors.map((r) => r.msg)).toEqual(['contextFactory threw']);
    expect(errors[0]).toMatchObject({
      tool: 'fine',
      session: expect.any(String),
      principal: expect.any(String),
      err: { type: 'TypeError', message: 'database pool exhausted', stack: expect.stringContaining('logging.test.ts') },
    });
  });

  it('logs a failing workflow store once per failed call (a Redis store whose connection is gone)', async () => {
    const { logger, records } = memoryPino();
    const redis = await ready(redisClient());
    const gate = f.fsm({ id: 'job', initial: 'idle', states: { idle: { on: { START: 'running' } }, running: {} } });
    const start = f
      .mutation('job.start')
      .describe('Starts')
      .bindState('idle', 'START')
      .handle(() => 'started');
    const client = await connect(f.registry().registerAll(start), {
      logger,
      logLevel: 'debug',
      fsm: gate,
      fsmStore: new RedisFsmStore({ client: redis, prefix: uniquePrefix('log') }),
    });
    redis.disconnect();
    const result = await client.callTool({ name: 'job.start', arguments: {} });
    expect(result.isError).toBe(true);
    expect(texts(result).join('\n')).toMatch(/could not run: the workflow state could not be loaded/);
    expect(texts(result).join('\n')).not.toMatch(noStack);
    const errors = records.filter((r) => r.level === 50);
    expect(errors.map((r) => r.msg)).toEqual(['workflow state store failed']);
    expect(errors[0]).toMatchObject({
      tool: 'job.start',
      session: expect.any(String),
      durationMs: expect.any(Number),
      err: { stack: expect.any(String) },
    });
  });

  it('logs a workflow store that fails to save a transition once', async () => {
    const { logger, records } = memoryPino();
    const redis = await ready(redisClient());
    const gate = f.fsm({ id: 'job', initial: 'idle', states: { idle: { on: { START: 'running' } }, running: {} } });
    // The handler runs, then Redis goes away before the new state is saved.
    const start = f
      .mutation('job.start')
      .describe('Starts')
      .bindState('idle', 'START')
      .handle(() => (redis.disconnect(), 'started'));
    const client = await connect(f.registry().registerAll(start), {
      logger,
      logLevel: 'debug',
      fsm: gate,
      fsmStore: new RedisFsmStore({ client: redis, prefix: uniquePrefix('log') }),
    });
    const result = await client.callTool({ name: 'job.start', arguments: {} });
    expect(texts(result).join('\n')).toMatch(/ran, but the workflow state could not be saved/);
    const errors = records.filter((r) => r.level === 50);
    expect(errors.map((r) => r.msg)).toEqual(['workflow state store failed']);
    expect(errors[0]).toMatchObject({
      tool: 'job.start',
      session: expect.any(String),
      err: { stack: expect.any(String) },
    });
  });

  it('logs a failing session store once when an HTTP client cannot open a session (503 for the client)', async () => {
    const { logger, records } = memoryPino();
    const redis = await ready(redisClient());
    await using srv = await httpServer(tools(), {
      logger,
      logLevel: 'debug',
      sessionStore: new RedisSessionStore({ client: redis, prefix: uniquePrefix('log') }),
    });
    redis.disconnect();
    const client = new Client({ name: 'store-down', version: '1' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(srv.url)))).rejects.toThrow();
    const errors = records.filter((r) => r.level === 50);
    expect(errors.map((r) => r.msg)).toEqual(['session store failed: the session could not be created']);
    expect(errors[0]).toMatchObject({ session: expect.any(String), err: { stack: expect.any(String) } });
  });

  it('logs a throwing invalidation listener once', async () => {
    const { logger, records } = memoryPino();
    const registry = f.registry().registerAll(
      f
        .action('notes.add')
        .describe('Adds')
        .invalidates('notes.*')
        .handle(() => 'added'),
    );
    const options: AttachOptions<{ user: string }> = { logger, logLevel: 'debug' };
    registry.runtime(options).tools.onInvalidation(() => {
      throw new Error('listener bug');
    });
    const client = await connect(registry, options);
    expect((await client.callTool({ name: 'notes.add', arguments: {} })).isError).toBeFalsy();
    expect(records.filter((r) => r.level === 50).map((r) => [r.msg, r.err.message])).toEqual([
      ['invalidation listener failed', 'listener bug'],
    ]);
  });

  it('logs a throwing prompt handler once at warn; the client gets the message without the stack', async () => {
    const { logger, records } = memoryPino();
    const registry = f.registry().register(
      f
        .prompt('summary')
        .describe('Throws')
        .handle(() => {
          throw new RangeError('template missing');
        }),
    );
    const client = await connect(registry, { logger, logLevel: 'debug' });
    const failure = await client.getPrompt({ name: 'summary' }).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.message).toContain('template missing');
    expect(failure?.message).not.toMatch(noStack);
    const errors = records.filter((r) => r.level >= 40);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      level: 40,
      msg: 'handler threw',
      handler: 'Prompt "summary"',
      principal: expect.any(String),
      err: { type: 'RangeError', stack: expect.stringContaining('logging.test.ts') },
    });
  });

  it('adds the arguments only with logArguments: true', async () => {
    const { logger, records } = memoryPino();
    const client = await connect(tools(), {
      logger,
      logLevel: 'debug',
      logArguments: true,
      contextFactory: () => ({ user: 'u' }),
    });
    await client.callTool({ name: 'boom', arguments: { secret: 's3cr3t' } });
    expect(records.filter((r) => r.level >= 40).map((r) => r.arguments)).toEqual([{ secret: 's3cr3t' }]);
  });

  it('logs rate-limit refusals at warn, at most 5 a minute per tool, then says how many it left out', async () => {
    const { logger, records } = memoryPino();
    let now = 1_000_000;
    const client = await connect(tools(), {
      logger,
      logLevel: 'debug',
      clock: { ...systemClock, now: () => now },
      rateLimit: { max: 1, windowMs: 60_000 },
    });
    for (let i = 0; i < 20; i++) await client.callTool({ name: 'fine', arguments: {} });
    const warnings = () => records.filter((r) => r.level === 40);
    expect(warnings()).toHaveLength(5);
    expect(warnings()[0]).toMatchObject({
      msg: 'rate limit refused a tool call',
      tool: 'fine',
      reason: 'rate_limited',
      principal: expect.any(String),
      session: expect.any(String),
    });
    now += 60_000;
    await client.callTool({ name: 'fine', arguments: {} });
    await client.callTool({ name: 'fine', arguments: {} });
    expect(warnings()).toHaveLength(6);
    expect(warnings().at(-1)).toMatchObject({ tool: 'fine', suppressed: 14 });
  });
});

describe('budget refusals at warn', () => {
  it('logs a call over maxConcurrentCalls with the call’s fields', async () => {
    const { logger, records } = memoryPino();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow = f
      .query('slow')
      .describe('Waits')
      .handle(async () => {
        started();
        await gate;
        return 'done';
      });
    const client = await connect(f.registry().registerAll(slow), { logger, logLevel: 'info', maxConcurrentCalls: 1 });
    const first = client.callTool({ name: 'slow', arguments: {} });
    await running;
    expect((await client.callTool({ name: 'slow', arguments: {} })).isError).toBe(true);
    release();
    await first;
    expect(records.map((r) => [r.level, r.msg, r.tool, r.reason])).toEqual([
      [40, 'concurrency budget refused a tool call', 'slow', 'too_many_calls'],
    ]);
  });

  it('logs the session a full budget evicted to make room for a new initialize', async () => {
    const { logger, records } = memoryPino();
    const app = createFusionApp(tools(), { logger, logLevel: 'info', limits: { maxSessionsPerPrincipal: 1 } });
    closers.push(() => app.close());
    const fromPeer: RawApp = { fetch: (r) => app.fetch(r, { peer: '10.0.0.9' }) };
    const sid = await openSession(fromPeer);
    await request(fromPeer, sid, 1, 'tools/list');
    const second = await openSession(fromPeer);
    expect(second).not.toBe(sid);
    expect(records.map((r) => [r.level, r.msg, r.owner, r.limit, r.session])).toEqual([
      [40, 'session budget evicted the least recently used session', 'peer:10.0.0.9', 1, sid],
    ]);
  });
});

describe('the default logger', () => {
  it('writes one warn record without the stack (level info) to a stdio server’s stderr, while stdout carries only the protocol', async () => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'MCP_FUSION_LOG') env[k] = v;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: sourceChild('test/e2e/fixtures/throwingStdio.ts'),
      cwd: root,
      env,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'stdio-log', version: '1' });
    await client.connect(transport);
    const result = await client.callTool({ name: 'boom', arguments: {} });
    expect(texts(result)).toEqual(['kaboom']);
    const ended = new Promise<void>((resolve) => transport.stderr!.once('end', () => resolve()));
    await client.close();
    await ended;
    const records = stderr.split('\n').filter((line) => line.startsWith('[mcp-fusion]'));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatch(
      /^\[mcp-fusion\] \d{4}-\d\d-\d\dT[\d:.]+Z WARN tool handler threw tool=boom session=\S+ principal=a:\S+ durationMs=[\d.]+ error="Error: kaboom"$/,
    );
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('never writes a bearer token, even at debug level with every call and refusal logged', async () => {
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    await using issuer = await startIssuer(resource);
    const lines: string[] = [];
    await using srv = await httpServer(tools(), {
      port,
      logLevel: 'debug',
      logger: createStderrLogger((text) => lines.push(text)),
      contextFactory: () => ({ user: 'u' }),
      rateLimit: { max: 2, windowMs: 60_000 },
      auth: { verifier: jwksVerifier({ jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience: resource }) },
    });
    const token = await issuer.token({ sub: 'alice', scope: 'notes:read' });
    const client = new Client({ name: 'auth-log', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(srv.url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    closers.push(() => client.close());
    await client.callTool({ name: 'boom', arguments: { secret: 'x' } });
    await client.callTool({ name: 'fine', arguments: {} });
    await client.callTool({ name: 'fine', arguments: {} });
    const all = lines.join('');
    expect(all).toContain('WARN tool handler threw tool=boom');
    expect(all).toContain('WARN rate limit refused a tool call tool=fine');
    expect(all).toContain(`principal=u:${JSON.stringify([issuer.issuer, 'alice'])}`);
    for (const part of [token, ...token.split('.')]) expect(all).not.toContain(part);
  });
});
