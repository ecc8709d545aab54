import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { afterEach, describe, expect, it } from 'vitest';
import { createFusionApp, initFusion } from '../../src/index.js';
import { createTestClient, modernTaskEndpoint } from '../../src/testing/index.js';
import { methodList } from '../../src/adapter/methods/methodList.js';
import { v2FetchClient } from '../_helpers/clients.js';

const anything = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } as any;

/** A registry serving every kind of method: a task tool, a prompt with a completer, a resource, a skill. */
function everything() {
  const f = initFusion();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const registry = f.registry().registerAll(
    f
      .action('reports.generate')
      .task({ pollIntervalMs: 10 })
      .handle(async () => (await released, 'the report')),
    f
      .prompt('greet')
      .argument('who', { required: true })
      .complete('who', (value) => ['world', 'team'].filter((w) => w.startsWith(value)))
      .handle(({ who }) => `Hello, ${who}`),
    f.resource('app://readme').handle(() => 'read me'),
    f.skill('bug-triage').describe('How to triage a bug').file('references/LABELS.md', '# Labels\n').text('# Triage\n'),
  );
  return { registry, release };
}

const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const meterProvider = new MeterProvider();
const tracing = { tracer: tracerProvider.getTracer('test'), meter: meterProvider.getMeter('test') };
afterEach(() => spans.reset());

/** The `mcp.method.name` of every SERVER span finished so far. */
const tracedMethods = (): Set<string> =>
  new Set(spans.getFinishedSpans().map((s) => String(s.attributes['mcp.method.name'])));

const driven = new Set<string>();

/** Every request a client sent gets a server span of its method. */
function expectSpans(methods: readonly string[]): void {
  const traced = tracedMethods();
  for (const method of methods) {
    expect(traced.has(method), `a span for ${method}`).toBe(true);
    driven.add(method);
  }
}

describe('every method the server answers has a span', () => {
  it('2025-11-25 (in memory): tools, prompts, resources, subscriptions, completion, skills and tasks/*', async () => {
    const { registry, release } = everything();
    const { client, close } = await createTestClient(registry, { tracing, resourceSubscriptions: true });
    const request = (method: string, params: Record<string, unknown> = {}): Promise<any> =>
      client.request({ method, params } as any, anything);
    try {
      await request('tools/list');
      const { task } = await request('tools/call', { name: 'reports.generate', arguments: {}, task: {} });
      await request('tasks/get', { taskId: task.taskId });
      expect((await request('tasks/list')).tasks.map((t: any) => t.taskId)).toEqual([task.taskId]);
      release();
      expect(await request('tasks/result', { taskId: task.taskId })).toMatchObject({
        content: [{ type: 'text', text: 'the report' }],
      });
      const second = (await request('tools/call', { name: 'reports.generate', arguments: {}, task: {} })).task;
      await request('tasks/cancel', { taskId: second.taskId }).catch(() => {});
      await request('prompts/list');
      await request('prompts/get', { name: 'greet', arguments: { who: 'world' } });
      await request('completion/complete', {
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'who', value: 'w' },
      });
      await request('resources/list');
      await request('resources/templates/list');
      await request('resources/read', { uri: 'app://readme' });
      await request('resources/subscribe', { uri: 'app://readme' });
      await request('resources/unsubscribe', { uri: 'app://readme' });
      await request('skills/list');
      await request('skills/get', { uri: 'skill://bug-triage/SKILL.md' });
      await request('resources/directory/read', { uri: 'skill://bug-triage' });
      expectSpans([
        'tools/list',
        'tools/call',
        'tasks/get',
        'tasks/list',
        'tasks/result',
        'tasks/cancel',
        'prompts/list',
        'prompts/get',
        'completion/complete',
        'resources/list',
        'resources/templates/list',
        'resources/read',
        'resources/subscribe',
        'resources/unsubscribe',
        'skills/list',
        'skills/get',
        'resources/directory/read',
      ]);
      const get = spans.getFinishedSpans().find((s) => s.attributes['mcp.method.name'] === 'tasks/get')!;
      expect(get.name).toBe('tasks/get');
      expect(get.attributes['mcp.session.id']).toBeUndefined();
    } finally {
      release();
      await close();
    }
  });

  it('2026-07-28 (over the HTTP app): the same methods, and tasks/get, tasks/update and tasks/cancel', async () => {
    const { registry, release } = everything();
    const app = createFusionApp(registry, { tracing });
    try {
      await using client = await v2FetchClient(app, 'auto');
      const request = (method: string, params: Record<string, unknown> = {}): Promise<any> =>
        client.request({ method, params } as any, anything);
      await request('tools/list');
      await request('prompts/get', { name: 'greet', arguments: { who: 'team' } });
      await request('resources/read', { uri: 'app://readme' });
      await request('skills/list');
      const tasks = modernTaskEndpoint('http://127.0.0.1/mcp', { fetch: (r) => app.fetch(r) });
      const created = await tasks.request('tools/call', { name: 'reports.generate', arguments: {} });
      expect(created.resultType).toBe('task');
      const taskId = String(created.taskId);
      await tasks.request('tasks/get', { taskId });
      await tasks.request('tasks/update', { taskId, inputResponses: {} });
      await tasks.request('tasks/cancel', { taskId });
      expectSpans([
        'tools/list',
        'prompts/get',
        'resources/read',
        'skills/list',
        'tools/call',
        'tasks/get',
        'tasks/update',
        'tasks/cancel',
      ]);
      const update = spans.getFinishedSpans().find((s) => s.attributes['mcp.method.name'] === 'tasks/update')!;
      expect(update.attributes['mcp.protocol.version']).toBe('2026-07-28');
    } finally {
      release();
      await app.close();
    }
  });

  it('the two eras together drove every method of the method list but the v1-only logging/setLevel', () => {
    const listed = methodList.map((m) => m.method).filter((m) => m !== 'logging/setLevel');
    expect([...driven].sort()).toEqual([...new Set(listed)].sort());
  });
});
