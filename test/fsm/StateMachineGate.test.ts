import { describe, expect, it, vi } from 'vitest';
import {
  DefinitionError,
  initFusion,
  StateMachineGate,
  type FsmConfig,
  type TransitionResult,
} from '../../src/index.js';
import { approval, checkout, engines, thrown } from './fixtures.js';

describe.each(engines)('StateMachineGate (%s engine)', (engine) => {
  const make = (config: FsmConfig, now?: () => number) =>
    new StateMachineGate(config, now === undefined ? { engine } : { engine, now });

  it('runs on the engine it was given', async () => {
    expect(await make(approval).engine()).toBe(engine);
  });

  it('runs the seed standalone example', async () => {
    const gate = make(approval, () => 1709000000000);
    gate.bindTool('doc_submit', ['draft'], 'SUBMIT');
    gate.bindTool('doc_approve', ['review'], 'APPROVE');
    gate.bindTool('doc_reject', ['review'], 'REJECT');

    expect(gate.isToolAllowed('doc_approve')).toBe(false);
    expect(await gate.transition('SUBMIT')).toEqual({ changed: true, previousState: 'draft', currentState: 'review' });
    expect(gate.isToolAllowed('doc_approve')).toBe(true);

    const snapshot = gate.snapshot();
    expect(snapshot).toEqual({ state: 'review', updatedAt: 1709000000000 });
    const gate2 = make(approval);
    gate2.restore(snapshot);
    expect(gate2.currentState).toBe('review');
    expect(gate2.snapshot()).toEqual(snapshot);
  });

  it('completes the seed checkout flow', async () => {
    const gate = make(checkout);
    gate.bindTool('cart_add', ['empty', 'has_items'], 'ADD_ITEM');
    gate.bindTool('cart_pay', ['payment'], 'PAY');

    expect(gate.isToolAllowed('cart_pay')).toBe(false);
    await gate.transition('ADD_ITEM');
    await gate.transition('CHECKOUT');
    expect(gate.isToolAllowed('cart_pay')).toBe(true);
    await gate.transition('PAY');
    expect(gate.currentState).toBe('confirmed');
  });

  describe('method table', () => {
    it('bindTool returns the gate and sets hasBindings', () => {
      const gate = make(checkout);
      expect(gate.hasBindings).toBe(false);
      expect(
        gate.bindTool('cart.add_item', ['empty', 'has_items'], 'ADD_ITEM').bindTool('cart.view_total', ['has_items']),
      ).toBe(gate);
      expect(gate.hasBindings).toBe(true);
      expect([...gate.bindings.keys()]).toEqual(['cart.add_item', 'cart.view_total']);
    });

    it('isToolAllowed passes unbound tools and bound tools only in their states', async () => {
      const gate = make(checkout).bindTool('cart.checkout', ['has_items'], 'CHECKOUT');
      expect(gate.isToolAllowed('cart.view')).toBe(true);
      expect(gate.isToolAllowed('cart.checkout')).toBe(false);
      await gate.transition('ADD_ITEM');
      expect(gate.isToolAllowed('cart.checkout')).toBe(true);
      expect(gate.isAllowedIn('payment', 'cart.checkout')).toBe(false);
    });

    it('getVisibleToolNames filters in order', () => {
      const gate = make(checkout)
        .bindTool('cart.pay', ['payment'], 'PAY')
        .bindTool('cart.add_item', ['empty', 'has_items'], 'ADD_ITEM');
      expect(gate.getVisibleToolNames(['cart.view', 'cart.pay', 'cart.add_item', 'other'])).toEqual([
        'cart.view',
        'cart.add_item',
        'other',
      ]);
      expect(gate.visibleIn('payment', ['cart.add_item', 'cart.pay', 'cart.view'])).toEqual(['cart.pay', 'cart.view']);
    });

    it('getTransitionEvent returns the bound event, or undefined', () => {
      const gate = make(checkout).bindTool('cart.pay', ['payment'], 'PAY').bindTool('cart.peek', ['payment']);
      expect(gate.getTransitionEvent('cart.pay')).toBe('PAY');
      expect(gate.getTransitionEvent('cart.peek')).toBeUndefined();
      expect(gate.getTransitionEvent('cart.view')).toBeUndefined();
    });

    it('transition reports changed and unchanged results', async () => {
      const gate = make(checkout);
      expect(await gate.transition('PAY')).toEqual({ changed: false, previousState: 'empty', currentState: 'empty' });
      expect(await gate.transition('NO_SUCH_EVENT')).toEqual({
        changed: false,
        previousState: 'empty',
        currentState: 'empty',
      });
      expect(await gate.transition('ADD_ITEM')).toEqual({
        changed: true,
        previousState: 'empty',
        currentState: 'has_items',
      });
      expect(await gate.transition('CLEAR')).toEqual({
        changed: true,
        previousState: 'has_items',
        currentState: 'empty',
      });
    });

    it('applies concurrent transitions in call order, losing none', async () => {
      const gate = make(checkout);
      const results = await Promise.all(['ADD_ITEM', 'CHECKOUT', 'PAY'].map((e) => gate.transition(e)));
      expect(results.map((r) => r.currentState)).toEqual(['has_items', 'payment', 'confirmed']);
      expect(gate.currentState).toBe('confirmed');
    });

    it('onTransition fires on changes only, and its unsubscribe stops it', async () => {
      const gate = make(checkout);
      const seen: TransitionResult[] = [];
      const off = gate.onTransition((r) => seen.push(r));
      await gate.transition('PAY');
      await gate.transition('ADD_ITEM');
      expect(seen).toEqual([{ changed: true, previousState: 'empty', currentState: 'has_items', event: 'ADD_ITEM' }]);
      off();
      await gate.transition('CHECKOUT');
      expect(seen).toHaveLength(1);
    });

    it('snapshot and restore carry state and updatedAt', async () => {
      let t = 100;
      const gate = make(checkout, () => t);
      expect(gate.snapshot()).toEqual({ state: 'empty', updatedAt: 100 });
      t = 250;
      await gate.transition('PAY');
      expect(gate.snapshot().updatedAt).toBe(100);
      await gate.transition('ADD_ITEM');
      expect(gate.snapshot()).toEqual({ state: 'has_items', updatedAt: 250 });
      gate.restore({ state: 'payment', updatedAt: 7 });
      expect(gate.currentState).toBe('payment');
      expect(gate.snapshot()).toEqual({ state: 'payment', updatedAt: 7 });
    });

    it('dispose removes every listener', async () => {
      const gate = make(checkout);
      const listener = vi.fn();
      gate.onTransition(listener);
      gate.dispose();
      await gate.transition('ADD_ITEM');
      expect(listener).not.toHaveBeenCalled();
      expect(gate.currentState).toBe('has_items');
    });

    it('ignores every event in a final state, even one its "on" names', async () => {
      const gate = make({
        initial: 'open',
        states: { open: { on: { CLOSE: 'closed' } }, closed: { type: 'final', on: { REOPEN: 'open' } } },
      });
      await gate.transition('CLOSE');
      expect(gate.isFinal('closed')).toBe(true);
      expect(await gate.transition('REOPEN')).toEqual({
        changed: false,
        previousState: 'closed',
        currentState: 'closed',
      });
      expect(await gate.next('closed', 'REOPEN')).toBe('closed');
    });

    it('treats event and state names that are Object.prototype keys as plain names', async () => {
      const gate = make({ initial: 'a', states: { a: { on: { go: 'b' } }, b: {} } });
      expect(await gate.transition('toString')).toEqual({ changed: false, previousState: 'a', currentState: 'a' });
      expect(await gate.transition('constructor')).toEqual({ changed: false, previousState: 'a', currentState: 'a' });
      expect(() => gate.restore({ state: 'toString', updatedAt: 0 })).toThrow(DefinitionError);
    });
  });
});

describe('StateMachineGate fails fast, naming the culprit', () => {
  it('rejects a machine without states', () => {
    expect(thrown(() => new StateMachineGate({ id: 'x', initial: 'a', states: {} })).message).toMatchInlineSnapshot(
      `"FSM "x" has no states; declare at least one under "states"."`,
    );
  });

  it('rejects an unknown initial state', () => {
    const error = thrown(() => new StateMachineGate({ ...checkout, initial: 'cart' }));
    expect(error).toBeInstanceOf(DefinitionError);
    expect(error.message).toMatchInlineSnapshot(
      `"FSM "checkout" has initial state "cart", which is not one of its states (empty, has_items, payment, confirmed)."`,
    );
    expect(thrown(() => new StateMachineGate({ ...checkout, initial: 'toString' })).message).toMatch(
      /initial state "toString"/,
    );
  });

  it('rejects a transition to an unknown state', () => {
    const config: FsmConfig = { initial: 'a', states: { a: { on: { GO: 'b' } } } };
    expect(thrown(() => new StateMachineGate(config)).message).toMatchInlineSnapshot(
      `"The FSM: state "a" sends event "GO" to unknown state "b"; add the state or fix the target (known: a)."`,
    );
  });

  it('rejects a tool bound to an unknown state', () => {
    const gate = new StateMachineGate(checkout);
    expect(thrown(() => gate.bindTool('cart.pay', ['payment', 'paying'], 'PAY')).message).toMatchInlineSnapshot(
      `"Tool "cart.pay" names unknown state "paying" of FSM "checkout"; known states: empty, has_items, payment, confirmed."`,
    );
    expect(gate.hasBindings).toBe(false);
  });

  it('rejects restoring an unknown state', () => {
    const gate = new StateMachineGate(checkout);
    expect(thrown(() => gate.restore({ state: 'shipped', updatedAt: 0 })).message).toMatchInlineSnapshot(
      `"restore() names unknown state "shipped" of FSM "checkout"; known states: empty, has_items, payment, confirmed."`,
    );
    expect(gate.currentState).toBe('empty');
  });

  it('rejects names XState would read differently from the built-in engine', () => {
    const messages = [
      { initial: 'a', states: { a: { on: { GO: 'b.c' } }, 'b.c': {} } },
      { initial: 'a', states: { a: {}, '#b': {} } },
      { initial: 'a', states: { a: { on: { '*': 'b' } }, b: {} } },
      { initial: 'a', states: { a: { on: { 'xstate.init': 'b' } }, b: {} } },
    ].map((config) => thrown(() => new StateMachineGate(config)).message);
    expect(messages).toMatchInlineSnapshot(`
      [
        "The FSM has state "b.c"; state names may not contain "." or start with "#" (XState reads them as paths). Rename it, e.g. "b_c".",
        "The FSM has state "#b"; state names may not contain "." or start with "#" (XState reads them as paths). Rename it, e.g. "b".",
        "The FSM: state "a" handles event "*"; wildcards ("*") and the reserved "xstate." prefix are not supported. List each event by its exact name.",
        "The FSM: state "a" handles event "xstate.init"; wildcards ("*") and the reserved "xstate." prefix are not supported. List each event by its exact name.",
      ]
    `);
  });
});

describe('f.fsm and .bindState', () => {
  it('creates a gate and records bindings on built tools', async () => {
    const f = initFusion();
    const gate = f.fsm(checkout);
    expect(gate).toBeInstanceOf(StateMachineGate);
    expect(await gate.engine()).toBe('xstate');
    const pay = f
      .mutation('cart.pay')
      .bindState('payment', 'PAY')
      .handle(() => 'paid');
    const add = f
      .mutation('cart.add_item')
      .bindState(['empty', 'has_items'], 'ADD_ITEM')
      .handle(() => 'added');
    const peek = f
      .query('cart.peek')
      .bindState('payment')
      .handle(() => 'peek');
    expect(pay.fsm).toEqual({ states: ['payment'], event: 'PAY' });
    expect(add.fsm).toEqual({ states: ['empty', 'has_items'], event: 'ADD_ITEM' });
    expect(peek.fsm).toEqual({ states: ['payment'] });
    expect(Object.isFrozen(add.fsm)).toBe(true);
    expect(thrown(() => f.mutation('x').bindState([])).message).toMatchInlineSnapshot(
      `"Tool "x" calls .bindState() with no state; name at least one state."`,
    );
  });
});
