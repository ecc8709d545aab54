import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { expect, it } from 'vitest';
import { initFusion } from '../../src/index.js';
import { httpServer, v2HttpClient } from '../_helpers/clients.js';
import { untilAborted } from '../_helpers/untilAborted.js';

const anything = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } as any;

it('marks the tools/call span of a call answered with a task with the task id', async () => {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const meterProvider = new MeterProvider();
  try {
    const f = initFusion();
    const registry = f.registry().registerAll(
      f
        .action('reports.generate')
        .task()
        .handle((_input, _ctx, extra) => untilAborted(extra.signal)),
    );
    await using srv = await httpServer(registry, {
      drainMs: 0,
      tracing: { tracer: tracerProvider.getTracer('test'), meter: meterProvider.getMeter('test') },
    });
    await using client = await v2HttpClient(srv.url);
    const { task } = (await client.request(
      { method: 'tools/call', params: { name: 'reports.generate', arguments: {}, task: {} } } as any,
      anything,
    )) as any;
    const span = spans.getFinishedSpans().find((s) => s.name === 'tools/call reports.generate')!;
    expect(span.events.map((e) => [e.name, e.attributes])).toEqual([
      ['mcp_fusion.task.created', { 'mcp_fusion.task.id': task.taskId, 'mcp_fusion.task.status': 'working' }],
    ]);
  } finally {
    await meterProvider.shutdown();
    await tracerProvider.shutdown();
  }
});
