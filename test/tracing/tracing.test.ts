import { AsyncLocalStorage } from 'node:async_hooks';
import { Client, type StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as V1InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as otel from '@opentelemetry/api';
import { metrics, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
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
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { provideOptional } from '../../src/_internal/loadOptional.js';
import { initFusion } from '../../src/index.js';
import { createFusionApp } from '../../src/server/app/createFusionApp.js';
import { buildServer } from '../../src/server/buildServer.js';
import type { TracingOptions } from '../../src/tracing/types.js';
import { httpServer, texts, v2FetchClient, v2HttpClient, type Mode } from '../_helpers/clients.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const traceparent = `00-${TRACE_ID}-${PARENT_ID}-01`;
const handleOf = (result: { content?: unknown }) => /checkout_id: (che_[\w-]+)/.exec(texts(result).join('\n'))?.[1];

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

const finished = (): ReadableSpan[] => spans.getFinishedSpans();
const spanNamed = (name: string): ReadableSpan => {
  const found = finished().filter((s) => s.name === name);
  expect(
    found.map((s) => s.name),
    `one span named ${name} among ${finished()
      .map((s) => s.name)
      .join(', ')}`,
  ).toEqual([name]);
  return found[0]!;
};

async function histogram(name: string): Promise<HistogramMetricData['dataPoints']> {
  await reader.forceFlush();
  const all = metricExporter.getMetrics().flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics));
  const metric = all.filter((m) => m.descriptor.name === name).at(-1) as HistogramMetricData | undefined;
  return metric?.dataPoints ?? [];
}

/** The workspace example with tracing, served over HTTP on 127.0.0.1, and an SDK client in `mode`. */
async function overHttp(mode: Mode) {
  const srv = await httpServer(registry, { ...workspaceOptions(), tracing });
  const client = await v2HttpClient(srv.url, mode);
  return {
    client,
    async [Symbol.asyncDispose]() {
      await client.close();
      await srv.close();
    },
  };
}

describe.each(['legacy', 'auto'] as const)('OpenTelemetry over HTTP, SDK client in %s mode', (mode) => {
  const era = mode === 'auto' ? 'modern' : 'legacy';
  const version = mode === 'auto' ? '2026-07-28' : '2025-11-25';

  it('makes every request a SERVER span named "{mcp.method.name} {target}" with the MCP convention attributes', async () => {
    await using http = await overHttp(mode);
    const { client } = http;
    expect(client.getProtocolEra()).toBe(era);
    await client.listTools();
    await client.callTool({ name: 'countries.list', arguments: {} });
    await client.getPrompt({ name: 'plan_sprint', arguments: { goal: 'ship' } });
    await client.readResource({ uri: 'workspace://sprints' });

    const list = spanNamed('tools/list');
    expect(list.kind).toBe(SpanKind.SERVER);
    expect(list.attributes['mcp.method.name']).toBe('tools/list');
    expect(list.attributes['gen_ai.operation.name']).toBeUndefined();

    const call = spanNamed('tools/call countries.list');
    expect(call.kind).toBe(SpanKind.SERVER);
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
    expect(call.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'countries.list',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': version,
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
    });
    expect(call.attributes['jsonrpc.request.id']).toMatch(/^\d+$/);
    expect(call.attributes['error.type']).toBeUndefined();
    if (era === 'legacy') expect(call.attributes['mcp.session.id']).toMatch(/^[0-9a-f-]{36}$/);
    else expect(call.attributes['mcp.session.id']).toBeUndefined();

    const prompt = spanNamed('prompts/get plan_sprint');
    expect(prompt.attributes).toMatchObject({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'plan_sprint' });
    expect(prompt.attributes['gen_ai.tool.name']).toBeUndefined();
    const read = spanNamed('resources/read');
    expect(read.attributes).toMatchObject({
      'mcp.method.name': 'resources/read',
      'mcp.resource.uri': 'workspace://sprints',
    });
  });

  it('parents the span on the caller trace context from params._meta (W3C traceparent/tracestate)', async () => {
    await using http = await overHttp(mode);
    await http.client.callTool({
      name: 'countries.list',
      arguments: {},
      _meta: { traceparent, tracestate: 'rojo=00f067aa0ba902b7' },
    });
    await http.client.callTool({ name: 'sprints.list', arguments: {} });

    const child = spanNamed('tools/call countries.list');
    expect(child.spanContext().traceId).toBe(TRACE_ID);
    expect(child.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(child.parentSpanContext?.isRemote).toBe(true);
    expect(child.parentSpanContext?.traceState?.get('rojo')).toBe('00f067aa0ba902b7');
    const root = spanNamed('tools/call sprints.list');
    expect(root.parentSpanContext).toBeUndefined();
    expect(root.spanContext().traceId).not.toBe(TRACE_ID);
  });

  it('adds span events for State Sync invalidations, FSM transitions and refusals; error.type marks failures', async () => {
    await using http = await overHttp(mode);
    const { client } = http;
    await client.callTool({ name: 'sprints.create', arguments: { name: 'traced' } });
    const added = await client.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } });
    const handle = handleOf(added);
    const early = await client.callTool({
      name: 'cart.pay',
      arguments: { payment_method: 'card', ...(handle !== undefined ? { checkout_id: handle } : {}) },
    });
    expect(early.isError).toBe(true);
    await expect(client.callTool({ name: 'nope.missing', arguments: {} })).rejects.toThrow(/nope\.missing/);

    const invalidating = spanNamed('tools/call sprints.create');
    expect(invalidating.events.map((e) => [e.name, e.attributes])).toEqual([
      [
        'mcp_fusion.state_sync.invalidation',
        { 'mcp_fusion.state_sync.patterns': ['sprints.*'], 'mcp_fusion.state_sync.caused_by': 'sprints.create' },
      ],
    ]);

    const transition = spanNamed('tools/call cart.add_item');
    expect(transition.events.map((e) => [e.name, e.attributes])).toEqual([
      [
        'mcp_fusion.fsm.transition',
        {
          'mcp_fusion.fsm.machine': 'checkout',
          'mcp_fusion.fsm.from': 'empty',
          'mcp_fusion.fsm.to': 'has_items',
          'mcp_fusion.fsm.event': 'ADD_ITEM',
        },
      ],
    ]);

    const refused = spanNamed('tools/call cart.pay');
    expect(refused.attributes['error.type']).toBe('tool_error');
    expect(refused.status.code).toBe(SpanStatusCode.ERROR);
    // Legacy sessions hide cart.pay from the list but refuse a direct call by state, like the modern gate.
    expect(refused.events).toHaveLength(1);
    expect(refused.events[0]!.name).toBe('mcp_fusion.refusal');
    expect(refused.events[0]!.attributes).toMatchObject({ 'mcp_fusion.refusal.reason': 'workflow_state' });
    expect(String(refused.events[0]!.attributes?.['mcp_fusion.refusal.message'])).toMatch(
      /^Tool "cart.pay" is not available in the current workflow state "has_items"/,
    );

    const unknown = spanNamed('tools/call nope.missing');
    expect(unknown.attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
    expect(unknown.status.code).toBe(SpanStatusCode.ERROR);
    expect(unknown.status.message).toMatch(/nope\.missing/);
  });

  it('records mcp.server.operation.duration (s) with the span attributes minus the per-request ids', async () => {
    await using http = await overHttp(mode);
    await http.client.callTool({ name: 'countries.list', arguments: {} });
    await http.client.callTool({ name: 'cart.pay', arguments: { payment_method: 'card' } });
    const points = await histogram('mcp.server.operation.duration');
    const ok = points.find((p) => p.attributes['gen_ai.tool.name'] === 'countries.list');
    expect(ok?.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'countries.list',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': version,
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
    });
    expect(ok?.value.count).toBe(1);
    expect(ok?.value.sum).toBeGreaterThan(0);
    const failed = points.find((p) => p.attributes['gen_ai.tool.name'] === 'cart.pay');
    expect(failed?.attributes['error.type']).toBe('tool_error');
    // Without a checkout: refused by the session's state (legacy) or for the missing handle (modern).
    const refusal = spanNamed('tools/call cart.pay').events[0];
    expect(refusal?.attributes?.['mcp_fusion.refusal.reason']).toBe(
      era === 'legacy' ? 'workflow_state' : 'workflow_handle',
    );
    const metric = metricExporter
      .getMetrics()
      .flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics))
      .find((m) => m.descriptor.name === 'mcp.server.operation.duration')!;
    expect(metric.descriptor.unit).toBe('s');
  });

  it(`records mcp.server.session.duration for ${era === 'legacy' ? 'the legacy session when it ends (DELETE), not at shutdown' : 'nothing: modern requests have no session'}`, async () => {
    const srv = await httpServer(registry, { ...workspaceOptions(), tracing });
    const client = await v2HttpClient(srv.url, mode);
    await client.callTool({ name: 'countries.list', arguments: {} });
    expect(await histogram('mcp.server.session.duration')).toEqual([]);
    if (era === 'legacy') await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await client.close();
    await srv.close();
    const sessions = await histogram('mcp.server.session.duration');
    expect(sessions.map((p) => [p.attributes, p.value.count])).toEqual(
      era === 'legacy'
        ? [[{ 'mcp.protocol.version': version, 'network.transport': 'tcp', 'network.protocol.name': 'http' }, 1]]
        : [],
    );
  });
});

/** The context manager an OpenTelemetry Node SDK registers, reduced to what the test needs. */
class AsyncLocalStorageContext implements otel.ContextManager {
  readonly #storage = new AsyncLocalStorage<otel.Context>();
  active(): otel.Context {
    return this.#storage.getStore() ?? otel.ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: otel.Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.#storage.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(_ctx: otel.Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.#storage.disable();
    return this;
  }
}

describe('OpenTelemetry with an ambient (HTTP server) span', () => {
  it.each(['legacy', 'auto'] as const)(
    '%s: parents on _meta and links the ambient span; without _meta, parents on the ambient span',
    async (mode) => {
      expect(otel.context.setGlobalContextManager(new AsyncLocalStorageContext())).toBe(true);
      try {
        const app = createFusionApp(registry, { ...workspaceOptions(), tracing });
        const httpTracer = tracerProvider.getTracer('http');
        let httpSpans: otel.SpanContext[] = [];
        // What an HTTP server instrumentation does: the request is handled inside its SERVER span.
        const instrumented = {
          fetch: (request: Request) => {
            const span = httpTracer.startSpan(`${request.method} /mcp`, { kind: SpanKind.SERVER });
            if (request.method === 'POST') httpSpans.push(span.spanContext());
            return otel.context
              .with(trace.setSpan(otel.ROOT_CONTEXT, span), () => app.fetch(request))
              .finally(() => span.end());
          },
        };
        await using client = await v2FetchClient(instrumented, mode);
        httpSpans = [];
        await client.callTool({ name: 'countries.list', arguments: {}, _meta: { traceparent } });
        const [first] = httpSpans;
        await client.callTool({ name: 'sprints.list', arguments: {} });
        const [, second] = httpSpans;

        const remote = spanNamed('tools/call countries.list');
        expect(remote.parentSpanContext?.spanId).toBe(PARENT_ID);
        expect(remote.links.map((l) => l.context.spanId)).toEqual([first!.spanId]);
        const ambient = spanNamed('tools/call sprints.list');
        expect(ambient.parentSpanContext?.spanId).toBe(second!.spanId);
        expect(ambient.spanContext().traceId).toBe(second!.traceId);
        expect(ambient.links).toEqual([]);
        await app.close();
      } finally {
        otel.context.disable();
      }
    },
  );
});

describe('OpenTelemetry in memory (SDK Client over InMemoryTransport)', () => {
  it('traces a legacy connection and records mcp.server.session.duration when it closes', async () => {
    const { server } = buildServer(registry.runtime({ ...workspaceOptions(), tracing }), { name: 'w', version: '1' });
    const [c, s] = InMemoryTransport.createLinkedPair();
    await server.connect(s);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(c);
    await client.callTool({ name: 'countries.list', arguments: {}, _meta: { traceparent } });
    const span = spanNamed('tools/call countries.list');
    expect(span.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(span.attributes['mcp.protocol.version']).toBe('2025-11-25');
    expect(span.attributes['network.transport']).toBeUndefined();
    expect(await histogram('mcp.server.session.duration')).toEqual([]);
    await client.close();
    const sessions = await histogram('mcp.server.session.duration');
    expect(sessions.map((p) => [p.attributes, p.value.count])).toEqual([[{ 'mcp.protocol.version': '2025-11-25' }, 1]]);
  });

  it('traces behind a v1 SDK server too, with the module given as tracing.api', async () => {
    const server = new V1McpServer({ name: 'v1', version: '1' });
    const attachment = registry.attachToServer(server, { ...workspaceOptions(), tracing: { ...tracing, api: otel } });
    const [c, s] = V1InMemoryTransport.createLinkedPair();
    await server.connect(s);
    const client = new V1Client({ name: 't', version: '1' });
    await client.connect(c);
    await client.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' }, _meta: { traceparent } });
    await client.close();
    attachment.detach();
    const span = spanNamed('tools/call cart.add_item');
    expect(span.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(span.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'cart.add_item',
      'jsonrpc.request.id': expect.stringMatching(/^\d+$/),
    });
    expect(span.events.map((e) => e.name)).toEqual(['mcp_fusion.fsm.transition']);
  });

  it('records no session for modern (2026-07-28) requests served by your own per-request handler', async () => {
    const options = { ...workspaceOptions(), tracing };
    const handler = createMcpHandler(
      () => {
        const server = new Server({ name: 'w', version: '1' }, { capabilities: {} });
        registry.attachToServer(server, options);
        return server;
      },
      { legacy: 'reject' },
    );
    await using client = await v2FetchClient(handler, 'auto');
    expect(client.getProtocolEra()).toBe('modern');
    await client.callTool({ name: 'countries.list', arguments: {} });
    await client.callTool({ name: 'countries.list', arguments: {} });
    await handler.close();
    expect(
      finished()
        .filter((span) => span.name === 'tools/call countries.list')
        .map((span) => span.attributes['mcp.protocol.version']),
    ).toEqual(['2026-07-28', '2026-07-28']);
    expect(await histogram('mcp.server.session.duration')).toEqual([]);
  });

  it('records an unknown grouped action as a refusal event', async () => {
    const { server } = buildServer(registry.runtime({ ...workspaceOptions(), toolExposition: 'grouped', tracing }), {
      name: 'w',
      version: '1',
    });
    const [c, s] = InMemoryTransport.createLinkedPair();
    await server.connect(s);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(c);
    const result = await client.callTool({ name: 'platform', arguments: { action: 'users.nope' } });
    await client.close();
    expect(result.isError).toBe(true);
    const span = spanNamed('tools/call platform');
    expect(span.attributes['error.type']).toBe('tool_error');
    expect(span.events.map((e) => [e.name, e.attributes?.['mcp_fusion.refusal.reason']])).toEqual([
      ['mcp_fusion.refusal', 'unknown_action'],
    ]);
    expect(span.events[0]!.attributes?.['mcp_fusion.refusal.message']).toBe(texts(result)[0]);
  });

  it('records a call refused for its scopes or its rate limit as a refusal event', async () => {
    const f = initFusion();
    const scoped = f.registry().registerAll(
      f
        .mutation('notes.delete')
        .requireScopes('notes:write')
        .handle(() => 'deleted'),
      f
        .query('notes.list')
        .rateLimit({ max: 1, windowMs: 60_000 })
        .handle(() => 'notes'),
    );
    const { server } = buildServer(scoped.runtime({ tracing }), { name: 'w', version: '1' });
    const [c, s] = InMemoryTransport.createLinkedPair();
    await server.connect(s);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(c);
    const denied = await client.callTool({ name: 'notes.delete', arguments: {} });
    await client.callTool({ name: 'notes.list', arguments: {} });
    const limited = await client.callTool({ name: 'notes.list', arguments: {} });
    await client.close();
    expect([denied.isError, limited.isError]).toEqual([true, true]);
    expect(
      spanNamed('tools/call notes.delete').events.map((e) => [e.name, e.attributes?.['mcp_fusion.refusal.reason']]),
    ).toEqual([['mcp_fusion.refusal', 'insufficient_scope']]);
    const reasons = finished()
      .filter((span) => span.name === 'tools/call notes.list')
      .map((span) => span.events.map((e) => e.attributes?.['mcp_fusion.refusal.reason']));
    expect(reasons).toEqual([[], ['rate_limited']]);
  });

  it('without @opentelemetry/api, warns once with what to install and serves the requests untraced', async () => {
    provideOptional('@opentelemetry/api', undefined);
    try {
      const warnings: string[] = [];
      const { server } = buildServer(
        registry.runtime({ ...workspaceOptions(), tracing: true, onWarning: (m) => warnings.push(m) }),
        { name: 'w', version: '1' },
      );
      const [c, s] = InMemoryTransport.createLinkedPair();
      await server.connect(s);
      const client = new Client({ name: 't', version: '1' });
      await client.connect(c);
      const result = await client.callTool({ name: 'countries.list', arguments: {} });
      await client.callTool({ name: 'countries.list', arguments: {} });
      await client.close();
      expect(result.isError).not.toBe(true);
      expect(warnings).toEqual([
        'The tracing option needs the optional package "@opentelemetry/api"; run `npm install @opentelemetry/api` (and an SDK that registers a provider), or pass it as tracing: { api }. Requests are served untraced.',
      ]);
    } finally {
      provideOptional('@opentelemetry/api', otel);
    }
  });

  it('with tracing: true, loads @opentelemetry/api lazily and uses the global providers', async () => {
    expect(trace.setGlobalTracerProvider(tracerProvider)).toBe(true);
    expect(metrics.setGlobalMeterProvider(meterProvider)).toBe(true);
    try {
      const { server } = buildServer(registry.runtime({ ...workspaceOptions(), tracing: true }), {
        name: 'w',
        version: '1',
      });
      const [c, s] = InMemoryTransport.createLinkedPair();
      await server.connect(s);
      const client = new Client({ name: 't', version: '1' });
      await client.connect(c);
      await client.callTool({ name: 'countries.list', arguments: {} });
      await client.close();
      expect(spanNamed('tools/call countries.list').instrumentationScope.name).toBe('mcp-fusion');
      expect((await histogram('mcp.server.operation.duration')).length).toBeGreaterThan(0);
    } finally {
      trace.disable();
      metrics.disable();
    }
  });

  it('without the option nothing is traced, even with a registered global provider', async () => {
    trace.setGlobalTracerProvider(tracerProvider);
    try {
      const { server } = buildServer(registry.runtime(workspaceOptions()), { name: 'w', version: '1' });
      const [c, s] = InMemoryTransport.createLinkedPair();
      await server.connect(s);
      const client = new Client({ name: 't', version: '1' });
      await client.connect(c);
      await client.callTool({ name: 'countries.list', arguments: {} });
      await client.close();
      expect(finished()).toEqual([]);
    } finally {
      trace.disable();
    }
  });
});
