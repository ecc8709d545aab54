import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DefinitionError } from '../../src/errors/FusionError.js';
import { StateSyncLayer } from '../../src/state-sync/StateSyncLayer.js';
import type {
  InlineSyncDeclaration,
  InvalidationEvent,
  ResourceNotification,
  StateSyncConfig,
} from '../../src/state-sync/types.js';
import { createClock } from '../../src/testing/index.js';

const T0 = '2026-01-01T00:00:00.000Z';
const ok = () => ({ content: [{ type: 'text', text: '{"ok":true}' }] });
const inline = (entries: Record<string, InlineSyncDeclaration>) => new Map(Object.entries(entries));

/** Unhandled rejections seen while a test runs. */
let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
});
/** Node reports a rejection nobody handled once the microtasks of the turn that made it have run: one turn later. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('StateSyncLayer: precedence', () => {
  const config: StateSyncConfig = {
    defaults: { cacheControl: 'no-store' },
    policies: [
      { match: 'countries.*', cacheControl: 'immutable', invalidates: ['audit.*'] },
      { match: 'tasks.update', invalidates: ['tasks.*'] },
    ],
  };

  it('takes each field from the inline declaration first, then the first matching policy, then the defaults', () => {
    const layer = new StateSyncLayer(
      config,
      inline({
        'countries.list': { cacheControl: 'no-store' }, // inline directive beats the policy's; invalidates from the policy
        'countries.sync': { invalidates: ['countries.*'] }, // inline invalidates beat the policy's (no union); directive from the policy
        'tasks.update': { invalidates: ['tasks.*', 'sprints.*'] }, // the policy has no directive: defaults
        'reports.run': { invalidates: ['reports.*'] }, // no policy: defaults for the directive
        'reports.list': { cacheControl: 'immutable' }, // inline beats defaults
      }),
    );
    expect(layer.resolve('countries.list')).toEqual({ cacheControl: 'no-store', invalidates: ['audit.*'] });
    expect(layer.resolve('countries.sync')).toEqual({ cacheControl: 'immutable', invalidates: ['countries.*'] });
    expect(layer.resolve('tasks.update')).toEqual({ cacheControl: 'no-store', invalidates: ['tasks.*', 'sprints.*'] });
    expect(layer.resolve('reports.run')).toEqual({ cacheControl: 'no-store', invalidates: ['reports.*'] });
    expect(layer.resolve('reports.list')).toEqual({ cacheControl: 'immutable' });
    expect(layer.resolve('countries.get')).toEqual({ cacheControl: 'immutable', invalidates: ['audit.*'] });
    expect(layer.resolve('other.tool')).toEqual({ cacheControl: 'no-store' });
  });

  it('works with inline declarations alone (no stateSync option)', () => {
    const layer = new StateSyncLayer(
      undefined,
      inline({ 'countries.list': { cacheControl: 'immutable' }, 'sprints.create': { invalidates: ['sprints.*'] } }),
    );
    expect(layer.hasAnything).toBe(true);
    expect(layer.resolve('countries.list')).toEqual({ cacheControl: 'immutable' });
    expect(layer.resolve('sprints.create')).toEqual({ invalidates: ['sprints.*'] });
    expect(layer.resolve('sprints.list')).toBeNull();
  });

  it('returns frozen policies', () => {
    const layer = new StateSyncLayer(config, inline({ 'countries.list': { cacheControl: 'no-store' } }));
    for (const name of ['countries.list', 'tasks.update', 'other']) {
      const policy = layer.resolve(name)!;
      expect(Object.isFrozen(policy)).toBe(true);
      if (policy.invalidates !== undefined) expect(Object.isFrozen(policy.invalidates)).toBe(true);
    }
  });

  it('has nothing to do without inline declarations, policies or a default directive', () => {
    expect(new StateSyncLayer().hasAnything).toBe(false);
    expect(new StateSyncLayer({ policies: [] }).hasAnything).toBe(false);
    expect(new StateSyncLayer({ policies: [], defaults: { cacheControl: 'no-store' } }).hasAnything).toBe(true);
  });

  it('validates the configuration and the inline declarations at construction', () => {
    expect(() => new StateSyncLayer({ policies: [{ match: '' }] })).toThrow(DefinitionError);
    expect(() => new StateSyncLayer(undefined, inline({ 'a.b': { invalidates: ['a.'] } }))).toThrow(
      /^Tool "a.b" invalidates "a."/,
    );
  });
});

describe('StateSyncLayer.decorateTools', () => {
  const layer = new StateSyncLayer({
    defaults: { cacheControl: 'no-store' },
    policies: [
      { match: 'countries.*', cacheControl: 'immutable' },
      { match: 'sprints.create', invalidates: ['sprints.*'] },
    ],
  });

  it('appends the directive, adds _meta["fusion/cacheControl"] and keeps every other field', () => {
    const tools = [
      {
        name: 'countries.list',
        description: 'List all country codes',
        inputSchema: { type: 'object' },
        _meta: { 'x/y': 1 },
      },
      { name: 'sprints.list', description: 'List workspace sprints', inputSchema: { type: 'object' } },
    ];
    expect(layer.decorateTools(tools)).toEqual([
      {
        name: 'countries.list',
        description: 'List all country codes [Cache-Control: immutable]',
        inputSchema: { type: 'object' },
        _meta: { 'x/y': 1, 'fusion/cacheControl': 'immutable' },
      },
      {
        name: 'sprints.list',
        description: 'List workspace sprints [Cache-Control: no-store]',
        inputSchema: { type: 'object' },
        _meta: { 'fusion/cacheControl': 'no-store' },
      },
    ]);
    expect(tools[0]!.description).toBe('List all country codes');
  });

  it('returns a tool without a directive unchanged', () => {
    const bare = new StateSyncLayer({ policies: [{ match: 'sprints.create', invalidates: ['sprints.*'] }] });
    const tool = { name: 'sprints.create', description: 'Create a new sprint' };
    expect(bare.decorateTools([tool])[0]).toBe(tool);
  });

  it('decorates each tool once: the same input object gives the same output object', () => {
    const tool = { name: 'sprints.list', description: 'List workspace sprints' };
    const first = layer.decorateTools([tool])[0];
    expect(layer.decorateTools([tool])[0]).toBe(first);
    const changed = { ...tool, description: 'List the sprints' };
    expect(layer.decorateTools([changed])[0]?.description).toBe('List the sprints [Cache-Control: no-store]');
  });
});

describe('StateSyncLayer.decorateResult', () => {
  const policies = [{ match: 'tasks.update', invalidates: ['tasks.*', 'sprints.*'] }];

  it('prepends the exact signal and _meta["fusion/invalidation"], timestamped by the injected clock', () => {
    const clock = createClock();
    const layer = new StateSyncLayer({ policies }, new Map(), { now: clock.now });
    expect(layer.decorateResult('tasks.update', ok())).toEqual({
      content: [
        { type: 'text', text: '[System: Cache invalidated for tasks.*, sprints.* — caused by tasks.update]' },
        { type: 'text', text: '{"ok":true}' },
      ],
      _meta: { 'fusion/invalidation': { patterns: ['tasks.*', 'sprints.*'], causedBy: 'tasks.update', at: T0 } },
    });
  });

  it('leaves failed results (isError guard) and tools without invalidates untouched', () => {
    const events: InvalidationEvent[] = [];
    const layer = new StateSyncLayer({
      policies,
      defaults: { cacheControl: 'no-store' },
      onInvalidation: (e) => events.push(e),
    });
    const failed = { content: [{ type: 'text', text: 'No task "t9"' }], isError: true };
    expect(layer.decorateResult('tasks.update', failed)).toBe(failed);
    const read = ok();
    expect(layer.decorateResult('tasks.list', read)).toBe(read);
    expect(events).toEqual([]);
  });

  it('tells onInvalidation with causedBy, patterns and an ISO-8601 timestamp', () => {
    const clock = createClock();
    const events: InvalidationEvent[] = [];
    const layer = new StateSyncLayer({ policies, onInvalidation: (e) => events.push(e) }, new Map(), {
      now: clock.now,
    });
    layer.decorateResult('tasks.update', ok());
    clock.advance(1500);
    layer.decorateResult('tasks.update', ok());
    expect(events).toEqual([
      { causedBy: 'tasks.update', patterns: ['tasks.*', 'sprints.*'], timestamp: T0 },
      { causedBy: 'tasks.update', patterns: ['tasks.*', 'sprints.*'], timestamp: '2026-01-01T00:00:01.500Z' },
    ]);
    expect(new Date(events[0]!.timestamp).toISOString()).toBe(events[0]!.timestamp);
  });

  it('uses the real clock by default', () => {
    let event: InvalidationEvent | undefined;
    const before = Date.now();
    new StateSyncLayer({ policies, onInvalidation: (e) => (event = e) }).decorateResult('tasks.update', ok());
    expect(event?.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(event!.timestamp)).toBeGreaterThanOrEqual(before);
  });

  it('swallows observer exceptions, thrown or rejected, and still decorates the result', async () => {
    const throwing = new StateSyncLayer({
      policies,
      onInvalidation: () => {
        throw new Error('observer down');
      },
    });
    expect(throwing.decorateResult('tasks.update', ok()).content).toHaveLength(2);
    const rejecting = new StateSyncLayer({
      policies,
      onInvalidation: async () => {
        throw new Error('observer down');
      },
    });
    expect(rejecting.decorateResult('tasks.update', ok()).content).toHaveLength(2);
    await settle();
    expect(unhandled).toEqual([]);
  });

  it('sends one notifications/resources/updated per pattern with fusion://stale/<pattern>', () => {
    const sent: ResourceNotification[] = [];
    const layer = new StateSyncLayer({ policies, notificationSink: (n) => void sent.push(n) });
    layer.decorateResult('tasks.update', ok());
    expect(sent).toEqual([
      { method: 'notifications/resources/updated', params: { uri: 'fusion://stale/tasks.*' } },
      { method: 'notifications/resources/updated', params: { uri: 'fusion://stale/sprints.*' } },
    ]);
  });

  it('swallows a sink that throws (and keeps notifying the other patterns) or rejects, with no unhandled rejection', async () => {
    const uris: string[] = [];
    const throwing = new StateSyncLayer({
      policies,
      notificationSink: (n) => {
        uris.push(n.params.uri);
        throw new Error('sink down');
      },
    });
    expect(throwing.decorateResult('tasks.update', ok()).content).toHaveLength(2);
    expect(uris).toEqual(['fusion://stale/tasks.*', 'fusion://stale/sprints.*']);

    let calls = 0;
    const rejecting = new StateSyncLayer({
      policies,
      notificationSink: async () => {
        calls++;
        throw new Error('sink down');
      },
    });
    expect(rejecting.decorateResult('tasks.update', ok()).content).toHaveLength(2);
    expect(calls).toBe(2);
    await settle();
    expect(unhandled).toEqual([]);
  });

  it('does not wait for an async sink (fire-and-forget)', () => {
    // A sink that never settles: the result comes back all the same, with the sink still pending.
    let pending = 0;
    const never = () => (pending++, new Promise<void>(() => {}));
    const layer = new StateSyncLayer({ policies, notificationSink: never });
    const result = layer.decorateResult('tasks.update', ok());
    expect(result.content).toHaveLength(2);
    expect(pending).toBe(2);
  });
});
