import { Client } from '@modelcontextprotocol/client';
import { systemClock } from '../../src/_internal/clock.js';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registry as workspace, workspaceOptions } from '../../examples/workspace/registry.js';
import {
  createFusionApp,
  createStderrLogger,
  initFusion,
  type DebugEvent,
  type InvalidationEvent,
  type ResourceNotification,
  type StateSyncConfig,
  type ToolRegistry,
} from '../../src/index.js';
import { StateSyncLayer } from '../../src/advanced/index.js';
import { createTestClient } from '../../src/testing/index.js';
import type { RequestContext } from '../../src/surface/types.js';
import { texts, v2FetchClient } from '../_helpers/clients.js';
import { openSession, post } from '../_helpers/raw.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Every listed tool by name. */
async function listed(
  client: Client,
): Promise<Map<string, { description?: string | undefined; _meta?: Record<string, unknown> | undefined }>> {
  return new Map((await client.listTools()).tools.map((t) => [t.name, t]));
}

/** Connects a real SDK client to `registry` attached to a v2 McpServer with `options`. */
async function attached<Ctx>(
  registry: ToolRegistry<Ctx>,
  options: Parameters<ToolRegistry<Ctx>['attachToServer']>[1],
  server = new McpServer({ name: 'state-sync', version: '1.0.0' }),
) {
  registry.attachToServer(server, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return Object.assign(client, {
    server,
    [Symbol.asyncDispose]: async () => {
      await client.close();
      await server.close();
    },
  });
}

// The seeds' sprints/tasks/countries tools, declared without inline State Sync (for registry policies).
const plain = initFusion();
const plainTools = () =>
  plain.registry().registerAll(
    plain
      .query('countries.list')
      .describe('List all country codes')
      .handle(() => [{ code: 'BR' }]),
    plain
      .query('sprints.get')
      .describe('Get a sprint')
      .withString('id', 'Sprint ID')
      .handle((input) => ({ id: input.id })),
    plain
      .query('sprints.list')
      .describe('List workspace sprints')
      .handle(() => []),
    plain
      .action('sprints.create')
      .describe('Create a new sprint')
      .withString('name', 'Sprint name')
      .handle((input) => ({ id: 's2', name: input.name })),
    plain
      .action('sprints.update')
      .describe('Rename a sprint')
      .withString('id', 'Sprint ID')
      .withString('name', 'New name')
      .handle((input) => ({ id: input.id, name: input.name })),
    plain
      .mutation('sprints.delete')
      .describe('Delete a sprint')
      .withString('id', 'Sprint ID')
      .handle(() => ({ deleted: true })),
    plain
      .action('tasks.update')
      .describe('Update a task')
      .withString('id', 'Task ID')
      .handle((input) => ({ id: input.id, ok: true })),
  );

const seedPolicies: StateSyncConfig = {
  defaults: { cacheControl: 'no-store' },
  policies: [
    { match: 'sprints.update', invalidates: ['sprints.*'] },
    { match: 'sprints.create', invalidates: ['sprints.*'] },
    { match: 'sprints.delete', invalidates: ['sprints.*'] },
    { match: 'tasks.update', invalidates: ['tasks.*', 'sprints.*'] },
    { match: 'countries.*', cacheControl: 'immutable' },
  ],
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('State Sync through the SDK client: the seeds’ example (inline API)', () => {
  it('decorates tools/list descriptions exactly, with the directive in _meta', async () => {
    await using t = await createTestClient(workspace, workspaceOptions());
    const tools = await listed(t.client);
    expect(tools.get('countries.list')?.description).toBe('List all country codes [Cache-Control: immutable]');
    expect(tools.get('countries.list')?._meta?.['fusion/cacheControl']).toBe('immutable');
    expect(tools.get('sprints.list')?.description).toBe('List workspace sprints [Cache-Control: no-store]');
    expect(tools.get('sprints.list')?._meta?.['fusion/cacheControl']).toBe('no-store');
    // Mutations declare only .invalidates(): no directive, no decoration.
    expect(tools.get('sprints.create')?.description).toBe('Create a new sprint');
    expect(tools.get('sprints.create')?._meta?.['fusion/cacheControl']).toBeUndefined();
    expect(tools.get('cart.view')?.description).toBe('View current cart contents');
  });

  it('puts the invalidation signal first after sprints.create, then the handler’s content, with _meta', async () => {
    await using t = await createTestClient(workspace, workspaceOptions());
    const result = await t.callTool('sprints.create', { name: 'Sprint 2' });
    expect(result.isError).not.toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: '[System: Cache invalidated for sprints.* — caused by sprints.create]' },
      { type: 'text', text: JSON.stringify({ id: 's2', name: 'Sprint 2', taskIds: [] }) },
    ]);
    expect(result._meta?.['fusion/invalidation']).toEqual({
      patterns: ['sprints.*'],
      causedBy: 'sprints.create',
      at: expect.stringMatching(ISO),
    });
  });

  it('names both domains, in declaration order, after tasks.update', async () => {
    await using t = await createTestClient(workspace, workspaceOptions());
    const result = await t.callTool('tasks.update', { id: 't1', title: 'Ship it' });
    expect(texts(result)).toEqual([
      '[System: Cache invalidated for tasks.*, sprints.* — caused by tasks.update]',
      JSON.stringify({ id: 't1', title: 'Ship it', sprintId: 's1' }),
    ]);
    expect(texts(result)[0]).toContain('\u2014');
    expect(result._meta?.['fusion/invalidation']).toEqual({
      patterns: ['tasks.*', 'sprints.*'],
      causedBy: 'tasks.update',
      at: expect.stringMatching(ISO),
    });
  });

  it('carries the directive of a cached or stale tool in its result _meta, and no invalidation', async () => {
    await using t = await createTestClient(workspace, workspaceOptions());
    const countries = await t.callTool('countries.list');
    expect(countries._meta).toEqual({ 'fusion/cacheControl': 'immutable' });
    expect(texts(countries)).toHaveLength(1);
    const sprints = await t.callTool('sprints.list');
    expect(sprints._meta).toEqual({ 'fusion/cacheControl': 'no-store' });
  });

  it('sends no signal when the handler throws or validation fails', async () => {
    await using t = await createTestClient(workspace, workspaceOptions());
    const thrown = await t.callTool('tasks.update', { id: 't9', title: 'x' });
    expect(thrown.isError).toBe(true);
    expect(texts(thrown)).toEqual(['No task "t9"; call tasks with an existing id such as "t1".']);
    expect(thrown._meta?.['fusion/invalidation']).toBeUndefined();

    const invalid = await t.callTool('tasks.update', { id: 7 });
    expect(invalid.isError).toBe(true);
    expect(texts(invalid)).toHaveLength(1);
    expect(texts(invalid)[0]).toMatch(/^Invalid arguments for tool "tasks.update":/);
    expect(invalid._meta?.['fusion/invalidation']).toBeUndefined();
  });

  it('decorates the modern era’s tools/list and results the same way', async () => {
    const app = createFusionApp(workspace, workspaceOptions());
    await using client = await v2FetchClient(app, 'auto');
    expect(client.getProtocolEra()).toBe('modern');
    const tools = await listed(client);
    expect(tools.get('countries.list')?.description).toBe('List all country codes [Cache-Control: immutable]');
    expect(tools.get('sprints.list')?.description).toBe('List workspace sprints [Cache-Control: no-store]');
    const result = await client.callTool({ name: 'tasks.update', arguments: { id: 't1' } });
    expect(texts(result)[0]).toBe('[System: Cache invalidated for tasks.*, sprints.* — caused by tasks.update]');
    await app.close();
  });
});

describe('State Sync isError guard through the SDK client', () => {
  const f = initFusion();

  it('sends no signal and tells no observer when the handler returns isError', async () => {
    const events: InvalidationEvent[] = [];
    const registry = f.registry().registerAll(
      f
        .action('sprints.close')
        .invalidates('sprints.*')
        .handle(() => ({
          content: [{ type: 'text', text: 'Sprint s1 is already closed; call sprints.list.' }],
          isError: true,
        })),
      f.query('sprints.list').handle(() => []),
    );
    await using t = await createTestClient(registry, {
      stateSync: { policies: [], onInvalidation: (e) => events.push(e) },
    });
    const result = await t.callTool('sprints.close');
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Sprint s1 is already closed; call sprints.list.' }],
      isError: true,
    });
    expect(events).toEqual([]);
  });

  it('sends no signal when the FSM gate refuses the call, and one once the state allows it', async () => {
    const events: InvalidationEvent[] = [];
    const gate = f.fsm({
      id: 'checkout',
      initial: 'empty',
      states: { empty: { on: { CHECKOUT: 'payment' } }, payment: { on: { PAY: 'paid' } }, paid: { type: 'final' } },
    });
    let ran = 0;
    const registry = f.registry().registerAll(
      f
        .mutation('cart.pay')
        .bindState('payment', 'PAY')
        .invalidates('orders.*')
        .handle(() => {
          ran++;
          return { status: 'paid' };
        }),
      f
        .query('orders.list')
        .stale()
        .handle(() => []),
    );
    await using t = await createTestClient(registry, {
      fsm: gate,
      stateSync: { policies: [], onInvalidation: (e) => events.push(e) },
    });
    const refused = await t.callTool('cart.pay');
    expect(refused.isError).toBe(true);
    expect(texts(refused)).toHaveLength(1);
    expect(texts(refused)[0]).toMatch(/^Tool "cart.pay" is not available in the current workflow state "empty"/);
    expect(refused._meta?.['fusion/invalidation']).toBeUndefined();
    expect(ran).toBe(0);
    expect(events).toEqual([]);

    await t.setState('payment');
    const paid = await t.callTool('cart.pay');
    expect(texts(paid)[0]).toBe('[System: Cache invalidated for orders.* — caused by cart.pay]');
    expect(events.map((e) => e.causedBy)).toEqual(['cart.pay']);
  });

  it('sends no signal when the call times out', async () => {
    const registry = f.registry().register(
      f
        .action('sprints.sync')
        .timeout(20)
        .invalidates('sprints.*')
        .handle(
          (_i, _c, extra) => new Promise((resolve) => extra.signal.addEventListener('abort', () => resolve('late'))),
        ),
    );
    await using t = await createTestClient(registry);
    const result = await t.callTool('sprints.sync');
    expect(result.isError).toBe(true);
    expect(texts(result).some((text) => text.startsWith('[System: Cache invalidated'))).toBe(false);
  });
});

describe('State Sync registry policies through attachToServer', () => {
  it('applies the seeds’ configuration: directives, defaults for unmatched tools and causal signals', async () => {
    await using client = await attached(plainTools(), { stateSync: seedPolicies });
    const tools = await listed(client);
    expect(tools.get('countries.list')?.description).toBe('List all country codes [Cache-Control: immutable]');
    expect(tools.get('sprints.list')?.description).toBe('List workspace sprints [Cache-Control: no-store]');
    expect(tools.get('sprints.get')?.description).toBe('Get a sprint [Cache-Control: no-store]');
    // A matched policy without a directive takes the default one.
    expect(tools.get('sprints.create')?.description).toBe('Create a new sprint [Cache-Control: no-store]');
    const result = await client.callTool({ name: 'tasks.update', arguments: { id: 't1' } });
    expect(texts(result)).toEqual([
      '[System: Cache invalidated for tasks.*, sprints.* — caused by tasks.update]',
      '{"id":"t1","ok":true}',
    ]);
  });

  it('is first-match-wins', async () => {
    await using t = await createTestClient(plainTools(), {
      stateSync: {
        policies: [
          { match: 'sprints.get', cacheControl: 'immutable' },
          { match: 'sprints.*', cacheControl: 'no-store' },
        ],
      },
    });
    const tools = await listed(t.client);
    expect(tools.get('sprints.get')?.description).toBe('Get a sprint [Cache-Control: immutable]');
    expect(tools.get('sprints.list')?.description).toBe('List workspace sprints [Cache-Control: no-store]');
    expect(tools.get('sprints.create')?.description).toBe('Create a new sprint [Cache-Control: no-store]');
  });

  it('leaves unmatched tools undecorated when there are no defaults', async () => {
    await using t = await createTestClient(plainTools(), {
      stateSync: { policies: [{ match: 'countries.*', cacheControl: 'immutable' }] },
    });
    const tools = await listed(t.client);
    expect(tools.get('countries.list')?.description).toBe('List all country codes [Cache-Control: immutable]');
    expect(tools.get('sprints.list')?.description).toBe('List workspace sprints');
    expect(tools.get('sprints.list')?._meta?.['fusion/cacheControl']).toBeUndefined();
    const created = await t.callTool('sprints.create', { name: 'S' });
    expect(created).toEqual({ content: [{ type: 'text', text: '{"id":"s2","name":"S"}' }] });
  });

  it('lets an inline declaration win per field over a matching policy', async () => {
    const f = initFusion();
    const registry = f.registry().registerAll(
      f
        .query('countries.list')
        .describe('List all country codes')
        .stale()
        .handle(() => []),
      f
        .action('tasks.update')
        .describe('Update a task')
        .invalidates('tasks.*')
        .handle(() => 'ok'),
      f
        .query('tasks.list')
        .describe('List tasks')
        .handle(() => []),
    );
    await using t = await createTestClient(registry, {
      stateSync: {
        policies: [
          { match: 'countries.*', cacheControl: 'immutable' },
          { match: 'tasks.*', cacheControl: 'no-store', invalidates: ['countries.*'] },
        ],
      },
    });
    const tools = await listed(t.client);
    // .stale() beats the policy's immutable.
    expect(tools.get('countries.list')?.description).toBe('List all country codes [Cache-Control: no-store]');
    // No inline directive: the policy's; inline invalidates replace the policy's.
    expect(tools.get('tasks.update')?.description).toBe('Update a task [Cache-Control: no-store]');
    expect(texts(await t.callTool('tasks.update'))).toEqual([
      '[System: Cache invalidated for tasks.* — caused by tasks.update]',
      'ok',
    ]);
    // No inline declaration at all: the policy decides both fields.
    expect(texts(await t.callTool('tasks.list'))[0]).toBe(
      '[System: Cache invalidated for countries.* — caused by tasks.list]',
    );
  });
});

describe('State Sync on the wire, byte for byte', () => {
  it('writes the signal first and one _meta (the handler’s keys, the invalidation, then the directive) in the legacy HTTP body', async () => {
    // The SDK's result validation writes `_meta` before `content`; inside `_meta` the order is State Sync's.
    const f = initFusion();
    const registry = f.registry().registerAll(
      f
        .action('tasks.update')
        .withString('id', 'Task ID')
        .handle((input) => ({
          content: [{ type: 'text' as const, text: `updated ${input.id}` }],
          _meta: { 'app/trace': 't-1' },
        })),
      f
        .query('countries.list')
        .cached()
        .handle(() => 'BR'),
      f.query('sprints.list').handle(() => []),
    );
    const app = createFusionApp(registry, {
      clock: { ...systemClock, now: () => Date.parse('2026-01-01T00:00:00.000Z') },
      stateSync: {
        defaults: { cacheControl: 'no-store' },
        policies: [{ match: 'tasks.update', invalidates: ['tasks.*', 'sprints.*'] }],
      },
    });
    try {
      const sid = await openSession(app);
      const call = async (id: number, name: string, args: Record<string, unknown>) =>
        (await post(app, { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, sid)).text();
      expect(await call(1, 'tasks.update', { id: 't1' })).toContain(
        '"result":{"_meta":{"app/trace":"t-1","fusion/invalidation":{"patterns":["tasks.*","sprints.*"],"causedBy":"tasks.update","at":"2026-01-01T00:00:00.000Z"},"fusion/cacheControl":"no-store"},"content":[{"type":"text","text":"[System: Cache invalidated for tasks.*, sprints.* — caused by tasks.update]"},{"type":"text","text":"updated t1"}]}',
      );
      expect(await call(2, 'countries.list', {})).toContain(
        '"result":{"_meta":{"fusion/cacheControl":"immutable"},"content":[{"type":"text","text":"BR"}]}',
      );
    } finally {
      await app.close();
    }
  });
});

describe('State Sync observability end to end', () => {
  it('tells onInvalidation and the notification sink about every successful invalidating call', async () => {
    const events: InvalidationEvent[] = [];
    const notifications: ResourceNotification[] = [];
    await using t = await createTestClient(workspace, {
      ...workspaceOptions(),
      stateSync: {
        policies: [],
        onInvalidation: (e) => events.push(e),
        notificationSink: (n) => void notifications.push(n),
      },
    });
    const result = await t.callTool('tasks.update', { id: 't1' });
    await t.callTool('tasks.update', { id: 't9' }); // fails: no event
    const meta = result._meta?.['fusion/invalidation'] as { at: string };
    expect(events).toEqual([{ causedBy: 'tasks.update', patterns: ['tasks.*', 'sprints.*'], timestamp: meta.at }]);
    expect(notifications).toEqual([
      { method: 'notifications/resources/updated', params: { uri: 'fusion://stale/tasks.*' } },
      { method: 'notifications/resources/updated', params: { uri: 'fusion://stale/sprints.*' } },
    ]);
  });

  it('forwards the sink’s notifications to the client as the seeds show (server.notification)', async () => {
    const server = new McpServer({ name: 'state-sync', version: '1.0.0' }, { capabilities: { resources: {} } });
    await using client = await attached(
      plainTools(),
      { stateSync: { ...seedPolicies, notificationSink: (n) => server.server.notification(n) } },
      server,
    );
    const uris: string[] = [];
    const both = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/resources/updated', (n) => {
        uris.push(n.params.uri);
        if (uris.length === 2) resolve();
      }),
    );
    await client.callTool({ name: 'tasks.update', arguments: { id: 't1' } });
    await both;
    expect(uris).toEqual(['fusion://stale/tasks.*', 'fusion://stale/sprints.*']);
  });

  it('keeps the call working when the observer throws and the sink rejects', async () => {
    const unhandled: unknown[] = [];
    let sinkRejected = false;
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      await using t = await createTestClient(plainTools(), {
        stateSync: {
          ...seedPolicies,
          onInvalidation: () => {
            throw new Error('metrics down');
          },
          notificationSink: () => ((sinkRejected = true), Promise.reject(new Error('bus down'))),
        },
      });
      const result = await t.callTool('sprints.create', { name: 'S' });
      expect(result.isError).not.toBe(true);
      expect(texts(result)[0]).toBe('[System: Cache invalidated for sprints.* — caused by sprints.create]');
      expect(sinkRejected).toBe(true);
      // Node reports a rejection nobody handled once the microtasks of the turn that made it have run: one turn later.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('State Sync startup warnings', () => {
  const f = initFusion();
  const registry = () =>
    f.registry().registerAll(
      f.query('sprints.list').handle(() => []),
      f.action('sprints.update').handle(() => 'ok'),
      f
        .action('sprints.create')
        .invalidates('sprints.*', 'sprint.*')
        .handle(() => 'ok'),
      f.action('tasks.update').handle(() => 'ok'),
    );
  const stateSync: StateSyncConfig = {
    policies: [
      { match: 'sprints.*', cacheControl: 'no-store' },
      { match: 'sprints.update', invalidates: ['sprints.*'] },
      { match: 'tasks.update', invalidates: ['tasks.*', 'sprintz.*'] },
    ],
  };
  const expected = [
    'Policy [0] "sprints.*" shadows policy [1] "sprints.update": first match wins, so [1] never applies. Move [1] above [0] or narrow [0].',
    'Policy [2] "tasks.update" invalidates "sprintz.*", which matches no registered tool (registered: "sprints.list", "sprints.update", "sprints.create"); fix the pattern (a typo?) or remove it.',
    'Tool "sprints.create" invalidates "sprint.*", which matches no registered tool (registered: "sprints.list", "sprints.update", "sprints.create"); fix the pattern in .invalidates() (a typo?) or remove it.',
  ];

  it('delivers overlap and typo warnings to onWarning, once, at attach time', async () => {
    const warnings: string[] = [];
    await using t = await createTestClient(registry(), { stateSync, onWarning: (m) => warnings.push(m) });
    expect(warnings).toEqual(expected);
    await t.listToolNames();
    await t.callTool('tasks.update');
    expect(warnings).toHaveLength(3);
  });

  it('sends them to the debug channel too, and to the logger at warn when nobody listens', async () => {
    const events: DebugEvent[] = [];
    await using _debug = await createTestClient(registry(), {
      stateSync,
      debug: (e) => events.push(e),
      logLevel: 'silent',
    });
    expect(events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message)).toEqual(expected);

    const lines: string[] = [];
    await using _plain = await createTestClient(registry(), {
      stateSync,
      logLevel: 'warn',
      logger: createStderrLogger(
        (text) => lines.push(text),
        () => 0,
      ),
    });
    expect(lines).toEqual(expected.map((m) => `[mcp-fusion] 1970-01-01T00:00:00.000Z WARN ${m}\n`));
  });
});

describe('State Sync validation at attach time', () => {
  it('refuses a malformed policy or inline glob with a DefinitionError naming the culprit', async () => {
    const f = initFusion();
    const inlineTypo = f.registry().register(
      f
        .action('sprints.create')
        .invalidates('sprints.')
        .handle(() => 'ok'),
    );
    await expect(createTestClient(inlineTypo)).rejects.toThrow(
      /^Tool "sprints.create" invalidates "sprints.", which is not a valid glob;/,
    );
    await expect(
      createTestClient(plainTools(), {
        stateSync: { policies: [{ match: 'sprints.*', cacheControl: 'max-age' as never }] },
      }),
    ).rejects.toMatchObject({
      name: 'DefinitionError',
      code: 'STATE_SYNC_POLICY',
      data: { index: 0 },
    });
  });
});

describe('State Sync zero overhead when not configured', () => {
  const f = initFusion();
  const registry = f.registry().registerAll(
    f
      .query('sprints.list')
      .describe('List workspace sprints')
      .handle(() => 'no sprints yet'),
    f
      .action('sprints.create')
      .describe('Create a new sprint')
      .withString('name')
      .handle((input) => ({ id: 's2', name: input.name })),
  );
  const rctx = { sessionKey: undefined, extra: { era: 'legacy' } } as unknown as RequestContext;

  it('answers tools/list with the same frozen object every time', async () => {
    const pipeline = registry.runtime({}).tools;
    const first = await pipeline.listTools(rctx);
    expect(await pipeline.listTools(rctx)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first.tools.map((t) => t.description)).toEqual(['List workspace sprints', 'Create a new sprint']);
  });

  it('runs no State Sync code on tools/list or tools/call, and returns exactly what the handler produced', async () => {
    const resolve = vi.spyOn(StateSyncLayer.prototype, 'resolve');
    const decorate = vi.spyOn(StateSyncLayer.prototype, 'decorateResult');
    await using t = await createTestClient(registry);
    const tools = (await t.client.listTools()).tools;
    expect(tools.map((tool) => [tool.description, tool._meta?.['fusion/cacheControl']])).toEqual([
      ['List workspace sprints', undefined],
      ['Create a new sprint', undefined],
    ]);
    expect(await t.callTool('sprints.list')).toEqual({ content: [{ type: 'text', text: 'no sprints yet' }] });
    expect(await t.callTool('sprints.create', { name: 'S2' })).toEqual({
      content: [{ type: 'text', text: '{"id":"s2","name":"S2"}' }],
    });
    expect(resolve).not.toHaveBeenCalled();
    expect(decorate).not.toHaveBeenCalled();
  });

  it('decorates tools/list once at build time when configured: the same object on every call', async () => {
    const pipeline = registry.runtime({ stateSync: { policies: [], defaults: { cacheControl: 'no-store' } } }).tools;
    const resolve = vi.spyOn(StateSyncLayer.prototype, 'resolve');
    const first = await pipeline.listTools(rctx);
    expect(await pipeline.listTools(rctx)).toBe(first);
    expect(first.tools.map((t) => t.description)).toEqual([
      'List workspace sprints [Cache-Control: no-store]',
      'Create a new sprint [Cache-Control: no-store]',
    ]);
    expect(resolve).not.toHaveBeenCalled();
  });
});
