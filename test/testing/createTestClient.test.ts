import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { initFusion, MemoryFsmStore, type FsmSnapshot, type FsmStateStore } from '../../src/index.js';
import { createClock, createTestClient } from '../../src/testing/index.js';

describe('createTestClient setState and state', () => {
  it('puts the session in a workflow state, and tools/list follows', async () => {
    await using t = await createTestClient(registry, workspaceOptions());
    expect(await t.state()).toBe('empty');
    expect(await t.listToolNames()).not.toContain('cart.pay');
    await t.setState('payment');
    expect(await t.state()).toBe('payment');
    expect(await t.listToolNames()).toContain('cart.pay');
    expect(t.listChangedCount).toBe(0);
  });

  it('lets the next call transition from the state it set', async () => {
    await using t = await createTestClient(registry, workspaceOptions());
    await t.setState('payment');
    const paid = await t.call('cart.pay', { payment_method: 'card' });
    expect(paid.isError).toBe(false);
    expect(await t.state()).toBe('confirmed');
  });

  it('announces the change with { notify: true }', async () => {
    await using t = await createTestClient(registry, workspaceOptions());
    const changed = t.nextListChanged();
    await t.setState('has_items', { notify: true });
    await changed;
    expect(t.listChangedCount).toBe(1);
  });

  it('writes through a store the test passes, stamped by the test clock', async () => {
    const memory = new MemoryFsmStore();
    const saved: Array<{ key: string; snapshot: FsmSnapshot }> = [];
    const store: FsmStateStore = {
      load: (key) => memory.load(key),
      save: async (key, snapshot) => {
        saved.push({ key, snapshot });
        await memory.save(key, snapshot);
      },
    };
    const clock = createClock(Date.UTC(2030, 0, 1));
    await using t = await createTestClient(registry, { ...workspaceOptions(), fsmStore: store, clock });
    await t.setState('has_items');
    clock.advance(1_000);
    await t.call('cart.checkout');
    expect(saved.map((s) => [s.snapshot.state, s.snapshot.version])).toEqual([
      ['has_items', 1],
      ['payment', 2],
    ]);
    expect(saved[0]!.snapshot.updatedAt).toBe(Date.UTC(2030, 0, 1));
    expect(new Set(saved.map((s) => s.key)).size).toBe(1);
  });

  it('keeps two test clients of one registry apart', async () => {
    await using a = await createTestClient(registry, workspaceOptions());
    await using b = await createTestClient(registry, workspaceOptions());
    await a.setState('payment');
    expect(await b.state()).toBe('empty');
    expect(await b.listToolNames()).not.toContain('cart.pay');
  });

  it('names the states of the machine when the state is unknown', async () => {
    await using t = await createTestClient(registry, workspaceOptions());
    await expect(t.setState('shipped')).rejects.toThrowErrorMatchingInlineSnapshot(
      `[Error: setState("shipped"): FSM "checkout" has no state "shipped"; use one of empty, has_items, payment, confirmed.]`,
    );
  });

  it('explains that setState needs a gate', async () => {
    const f = initFusion();
    const plain = f.registry().registerAll(f.query('notes.list').handle(() => 'notes'));
    await using t = await createTestClient(plain, {});
    await expect(t.setState('payment')).rejects.toThrowErrorMatchingInlineSnapshot(
      `[Error: setState("payment") needs a workflow gate: pass { fsm: gate } to createTestClient(registry, options).]`,
    );
  });
});
