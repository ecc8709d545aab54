import { describe, expect, it } from 'vitest';
import { initFusion, StateMachineGate } from '../../src/index.js';
import { createTestClient } from '../../src/testing/index.js';
import { texts } from '../_helpers/clients.js';

/** A workflow whose `start` leads to a state where `count` tools of its domain may be called. */
function wideWorkflow(count: number) {
  const f = initFusion();
  const gate = new StateMachineGate({
    id: 'wide',
    initial: 'idle',
    states: { idle: { on: { GO: 'open' } }, open: {} },
  });
  const names = Array.from({ length: count }, (_, i) => `wide.t${String(i).padStart(3, '0')}`);
  const registry = f.registry().registerAll(
    f
      .action('wide.start')
      .bindState(['idle'], 'GO')
      .handle(() => 'started'),
    ...names.map((name) =>
      f
        .query(name)
        .bindState(['open'])
        .handle(() => name),
    ),
  );
  return { registry, gate, names };
}

describe('the "Next:" line of a transition', () => {
  it('names every tool allowed now while they are few', async () => {
    const { registry, gate, names } = wideWorkflow(24);
    await using t = await createTestClient(registry, { fsm: gate });
    const result = await t.callTool('wide.start', {});
    expect(texts(result).at(-1)).toBe(`Workflow "wide" is now in state "open". Next: ${names.join(', ')}.`);
  });

  it('names the first 24 and how many more, and tools/list has them all', async () => {
    const { registry, gate, names } = wideWorkflow(200);
    await using t = await createTestClient(registry, { fsm: gate });
    const result = await t.callTool('wide.start', {});
    expect(texts(result).at(-1)).toBe(
      `Workflow "wide" is now in state "open". Next: ${names.slice(0, 24).join(', ')} and 176 more (tools/list lists every tool you may call now).`,
    );
    expect((await t.listToolNames()).filter((n) => n !== 'wide.start').sort()).toEqual(names);
  });
});
