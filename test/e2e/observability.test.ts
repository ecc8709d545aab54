import { describe, expect, it, vi } from 'vitest';
import { allowConsole } from '../_helpers/console.js';
import {
  createDebugObserver,
  createFusionApp,
  initFusion,
  type DebugEvent,
  type TransitionEvent,
} from '../../src/index.js';
import { createTestClient } from '../../src/testing/index.js';
import { texts, v2FetchClient } from '../_helpers/clients.js';

function workspace() {
  const f = initFusion();
  const gate = f.fsm({
    id: 'cart',
    initial: 'empty',
    states: { empty: { on: { ADD: 'full' } }, full: { on: { CLEAR: 'empty' } } },
  });
  const registry = f.registry();
  registry.registerAll(
    f
      .action('cart.add')
      .bindState('empty', 'ADD')
      .handle(() => 'added'),
    f
      .action('cart.clear')
      .bindState('full', 'CLEAR')
      .handle(() => 'cleared'),
    f
      .action('sprints.create')
      .invalidates('sprints.*')
      .handle(() => 'created'),
    f.query('sprints.list').handle(() => []),
  );
  return { gate, registry };
}

describe('gates and the debug observer report what the server does', () => {
  it('legacy era: onTransition hears every served transition with its session; the observer prints one line per event', async () => {
    const { gate, registry } = workspace();
    const heard: TransitionEvent[] = [];
    const off = gate.onTransition((e) => heard.push(e));
    const lines: string[] = [];
    await using t = await createTestClient(registry, {
      fsm: gate,
      listChangedDebounceMs: 1,
      debug: createDebugObserver((line) => lines.push(line)),
    });

    expect((await t.call('cart.add')).isError).toBe(false);
    await t.nextListChanged();
    expect(heard).toEqual([
      {
        changed: true,
        previousState: 'empty',
        currentState: 'full',
        event: 'ADD',
        tool: 'cart.add',
        sessionId: expect.any(String),
      },
    ]);
    const session = heard[0]!.sessionId!;
    // The standalone state is the gate's own; served sessions keep theirs apart.
    expect(gate.currentState).toBe('empty');

    expect((await t.call('cart.add')).isError).toBe(true);
    await t.call('cart.clear');
    await t.call('sprints.create');
    off();
    await t.call('cart.add');
    expect(heard.map((e) => `${e.previousState}>${e.currentState}:${e.tool}`)).toEqual([
      'empty>full:cart.add',
      'full>empty:cart.clear',
    ]);

    expect(lines).toEqual(
      expect.arrayContaining([
        `[mcp-fusion] transition cart: empty → full on ADD by cart.add session=${session}`,
        `[mcp-fusion] tools/list_changed (workflow transition) session=${session}`,
        `[mcp-fusion] refused cart.add: hidden in workflow state "full" session=${session}`,
        `[mcp-fusion] transition cart: full → empty on CLEAR by cart.clear session=${session}`,
        '[mcp-fusion] invalidated sprints.* by sprints.create',
      ]),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^\\[mcp-fusion\\] call cart\\.add error \\d+ms session=${session}$`)),
    );
    expect(lines.filter((l) => l.startsWith('[mcp-fusion] call '))).toHaveLength(5);
    expect(lines.every((l) => !l.includes('\n'))).toBe(true);

    // Run-time enable/disable is a list change for everyone.
    registry.disable('sprints.list');
    expect(lines.at(-1)).toBe('[mcp-fusion] tools/list_changed (tools enabled or disabled)');
  });

  it('modern era: onTransition names the workflow instance and its handle', async () => {
    const { gate, registry } = workspace();
    const heard: TransitionEvent[] = [];
    gate.onTransition((e) => heard.push(e));
    const events: DebugEvent[] = [];
    const app = createFusionApp(registry, { fsm: gate, debug: (e) => events.push(e) });
    await using client = await v2FetchClient(app, 'auto');
    expect(client.getProtocolEra()).toBe('modern');
    const added = await client.callTool({ name: 'cart.add', arguments: {} });
    const handle = /cart_id: (car_[\w-]+)/.exec(texts(added).join('\n'))?.[1];
    expect(handle).toBeDefined();
    expect(heard).toEqual([
      {
        changed: true,
        previousState: 'empty',
        currentState: 'full',
        event: 'ADD',
        tool: 'cart.add',
        workflowKey: expect.any(String),
        handle,
      },
    ]);
    const refused = await client.callTool({ name: 'cart.add', arguments: { cart_id: handle } });
    expect(refused.isError).toBe(true);
    await client.callTool({ name: 'cart.clear', arguments: { cart_id: handle } });
    expect(heard.map((e) => [e.previousState, e.currentState, e.handle])).toEqual([
      ['empty', 'full', handle],
      ['full', 'empty', handle],
    ]);
    expect(events.filter((e) => e.type === 'transition' || e.type === 'refusal').map((e) => e.type)).toEqual([
      'transition',
      'refusal',
      'transition',
    ]);
    expect(events.find((e) => e.type === 'refusal')).toMatchObject({
      tool: 'cart.add',
      reason: 'gate',
      state: 'full',
      workflowKey: heard[0]!.workflowKey,
    });
  });

  it('a standalone gate keeps its documented state, snapshot and restore', async () => {
    const { gate } = workspace();
    const heard: TransitionEvent[] = [];
    gate.onTransition((e) => heard.push(e));
    await gate.transition('ADD');
    expect(gate.currentState).toBe('full');
    expect(gate.snapshot().state).toBe('full');
    gate.restore({ state: 'empty', updatedAt: 1 });
    expect(gate.currentState).toBe('empty');
    expect(heard).toEqual([{ changed: true, previousState: 'empty', currentState: 'full', event: 'ADD' }]);
  });

  it('debug: true still logs every event as JSON to stderr; createDebugObserver() defaults to console.debug', async () => {
    allowConsole();
    const { gate, registry } = workspace();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const debugs = vi.spyOn(console, 'debug').mockImplementation(() => {});
    {
      await using t = await createTestClient(registry, { fsm: gate, debug: true });
      await t.call('cart.add');
    }
    const logged = errors.mock.calls.map((c) => String(c[0]));
    expect(logged).toContainEqual(
      expect.stringMatching(
        /^\[mcp-fusion\] \{"type":"transition","tool":"cart.add","event":"ADD","from":"empty","to":"full"/,
      ),
    );
    createDebugObserver()({ type: 'invalidation', patterns: ['a.*'], causedBy: 'a.set' });
    expect(debugs.mock.calls.at(-1)).toEqual(['[mcp-fusion] invalidated a.* by a.set']);
  });
});
