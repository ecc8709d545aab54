import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type HistogramMetricData,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFusionApp, initFusion, jwksVerifier, type FusionApp } from '../../src/index.js';
import { buildServer } from '../../src/server/buildServer.js';
import { createClock } from '../../src/testing/index.js';
import type { TracingOptions } from '../../src/tracing/types.js';
import { httpServer } from '../_helpers/clients.js';
import { openSession, request, type RawApp } from '../_helpers/raw.js';
import { startIssuer } from '../auth/issuer.js';
import { freePort } from '../_helpers/freePort.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
/** The interval sweeper never fires during a test: the test moves its clock and sweeps by hand. */
const NEVER = 60 * 60_000;

let spans: InMemorySpanExporter;
let tracerProvider: BasicTracerProvider;
let metricExporter: InMemoryMetricExporter;
let reader: PeriodicExportingMetricReader;
let meterProvider: MeterProvider;
let tracing: TracingOptions;

beforeEach(() => {
  spans = new InMemorySpanExporter();
  tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  meterProvider = new MeterProvider({ readers: [reader] });
  tracing = { tracer: tracerProvider.getTracer('test'), meter: meterProvider.getMeter('test') };
});

afterEach(async () => {
  await meterProvider.shutdown();
  await tracerProvider.shutdown();
});

const named = (name: string): ReadableSpan[] => spans.getFinishedSpans().filter((s) => s.name === name);

async function histogram(name: string): Promise<HistogramMetricData['dataPoints']> {
  await reader.forceFlush();
  const all = metricExporter.getMetrics().flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics));
  const metric = all.filter((m) => m.descriptor.name === name).at(-1) as HistogramMetricData | undefined;
  return metric?.dataPoints ?? [];
}

const f = initFusion();
const notes = () =>
  f.registry().registerAll(
    f
      .query('notes.list')
      .describe('List notes')
      .handle(() => 'no notes'),
    f
      .mutation('notes.delete')
      .describe('Delete a note')
      .withString('id')
      .requireScopes('notes:write')
      .handle(({ id }) => `deleted ${id}`),
  );

async function protectedServer() {
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  const issuer = await startIssuer(resource);
  const srv = await httpServer(notes(), {
    port,
    tracing,
    auth: { verifier: jwksVerifier({ jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience: resource }) },
  });
  return {
    issuer,
    srv,
    async [Symbol.asyncDispose]() {
      await srv.close();
      await issuer[Symbol.asyncDispose]();
    },
  };
}

describe('spans of requests the HTTP front refuses', () => {
  it('gives an unauthenticated request a SERVER span with error.type and the HTTP status', async () => {
    await using env = await protectedServer();
    const client = new Client({ name: 'no-token', version: '1' });
    await expect(
      client.connect(
        new StreamableHTTPClientTransport(new URL(env.srv.url), {
          requestInit: { headers: { Authorization: 'Bearer garbage' } },
        }),
      ),
    ).rejects.toThrow();
    // The OpenTelemetry API loads lazily: a refusal that comes before it is recorded once it has loaded.
    await vi.waitFor(() => expect(named('unauthenticated')).toHaveLength(1));
    const [span] = named('unauthenticated');
    expect(span?.kind).toBe(1); // SERVER
    expect(span?.attributes).toEqual({ 'error.type': 'invalid_token', 'http.response.status_code': 401 });
    expect(span?.status.code).toBe(2); // ERROR

    // A 2026-07-28 request names its method in headers: the span is named after it, and the operation is timed.
    const response = await fetch(env.srv.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'notes.delete',
      },
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect(named('tools/call notes.delete')[0]?.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'notes.delete',
      'error.type': 'invalid_token',
      'http.response.status_code': 401,
      'mcp.protocol.version': '2026-07-28',
    });
    const points = await histogram('mcp.server.operation.duration');
    expect(points.map((p) => p.attributes)).toContainEqual(
      expect.objectContaining({ 'mcp.method.name': 'tools/call', 'error.type': 'invalid_token' }),
    );
  });

  it('gives a call refused by the 403 scope challenge a span named after the call, parented on the caller’s trace', async () => {
    await using env = await protectedServer();
    const token = await env.issuer.token({ sub: 'alice', scope: 'notes:read' });
    const client = new Client({ name: 'reader', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(env.srv.url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    try {
      await expect(
        client.callTool({
          name: 'notes.delete',
          arguments: { id: 'n1' },
          _meta: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` },
        }),
      ).rejects.toThrow();
    } finally {
      await client.close();
    }
    const refused = named('tools/call notes.delete');
    expect(refused).toHaveLength(1);
    expect(refused[0]!.attributes).toMatchObject({
      'error.type': 'insufficient_scope',
      'http.response.status_code': 403,
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'notes.delete',
      'mcp.session.id': expect.any(String),
      'jsonrpc.request.id': expect.any(String),
    });
    expect(refused[0]!.spanContext().traceId).toBe(TRACE_ID);
    expect(refused[0]!.parentSpanContext?.spanId).toBe(PARENT_ID);
  });
});

describe('the initialize span', () => {
  it('covers the handshake, with the negotiated protocol version', async () => {
    const { server } = buildServer(notes().runtime({ tracing }), { name: 'n', version: '1' });
    const [c, s] = InMemoryTransport.createLinkedPair();
    await server.connect(s);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(c);
    await client.close();
    const [span, ...more] = named('initialize');
    expect(more).toEqual([]);
    expect(span?.attributes).toMatchObject({ 'mcp.method.name': 'initialize', 'mcp.protocol.version': '2025-11-25' });
    expect((await histogram('mcp.server.operation.duration')).map((p) => p.attributes)).toContainEqual({
      'mcp.method.name': 'initialize',
      'mcp.protocol.version': '2025-11-25',
    });
  });
});

describe('mcp.server.session.duration of legacy HTTP sessions', () => {
  const attributes = {
    'mcp.protocol.version': '2025-11-25',
    'network.transport': 'tcp',
    'network.protocol.name': 'http',
  };
  const peer = (app: FusionApp, address: string): RawApp => ({ fetch: (r) => app.fetch(r, { peer: address }) });
  const sessions = async () =>
    (await histogram('mcp.server.session.duration')).map((p) => [p.attributes, p.value.count, p.value.sum]);

  it('records an expired session once, from its creation to its expiry on the app’s clock', async () => {
    const clock = createClock();
    const app = createFusionApp(notes(), {
      tracing,
      clock,
      sessionTimeouts: { ttlMs: 5_000, sweepIntervalMs: NEVER },
    });
    const sid = await openSession(app);
    await request(app, sid, 1, 'tools/list');
    clock.advance(5_000);
    await app.sessions.manager.sweep();
    expect(await sessions()).toEqual([[attributes, 1, 5]]);
    await app.close();
  });

  it('records an evicted session', async () => {
    const clock = createClock();
    const app = createFusionApp(notes(), {
      tracing,
      clock,
      limits: { maxSessionsPerPrincipal: 1 },
      sessionTimeouts: { sweepIntervalMs: NEVER },
    });
    await openSession(peer(app, '10.0.0.1'));
    clock.advance(2_000);
    await openSession(peer(app, '10.0.0.1'));
    expect(await sessions()).toEqual([[attributes, 1, 2]]);
    await app.close();
  });

  it('does not end a session whose server was released while idle: its one record spans the restore', async () => {
    const clock = createClock();
    const app = createFusionApp(notes(), {
      tracing,
      clock,
      sessionTimeouts: { idleMs: 1_000, sweepIntervalMs: NEVER },
    });
    const sid = await openSession(app);
    await request(app, sid, 1, 'tools/list');
    clock.advance(1_000);
    await app.sessions.manager.sweep();
    expect(app.sessions.has(sid)).toBe(false);
    clock.advance(3_000);
    expect((await request(app, sid, 2, 'tools/list')).status).toBe(200);
    expect(await sessions()).toEqual([]);
    clock.advance(1_000);
    const closed = await app.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'DELETE',
        headers: { host: '127.0.0.1', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' },
      }),
    );
    expect(closed.status).toBe(200);
    expect(await sessions()).toEqual([[attributes, 1, 5]]);
    await app.close();
    expect(await sessions()).toEqual([[attributes, 1, 5]]);
  });
});
