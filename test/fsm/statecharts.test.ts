import { describe, expect, it } from 'vitest';
import { provideOptional } from '../../src/_internal/loadOptional.js';
import { DefinitionError, StateMachineGate } from '../../src/index.js';
import { statechart } from './fixtures.js';

describe('statecharts with XState', () => {
  it("enters nested states, keeps the full value, and lets a parent handle its children's events", async () => {
    const gate = new StateMachineGate(statechart);
    expect(gate.statechart).toBe(true);
    expect(gate.initialState).toBe('browsing');
    expect(await gate.next('browsing', 'PAY')).toEqual({ payment: 'card' });
    expect(await gate.next({ payment: 'card' }, 'SWITCH')).toEqual({ payment: 'wallet' });
    expect(await gate.next({ payment: 'wallet' }, 'PAID')).toBe('done');
    expect(await gate.next({ payment: 'wallet' }, 'NOPE')).toEqual({ payment: 'wallet' });
    const result = await gate.transition('PAY');
    expect(result).toEqual({ changed: true, previousState: 'browsing', currentState: { payment: 'card' } });
    expect(gate.snapshot().state).toEqual({ payment: 'card' });
    gate.restore({ state: { payment: 'wallet' }, updatedAt: 1 });
    expect(gate.currentState).toEqual({ payment: 'wallet' });
    expect(() => gate.restore({ state: { payment: 'cash' }, updatedAt: 1 })).toThrow(DefinitionError);
  });

  it('binds by dotted path; a binding to a parent covers its children; one state may be given as a string', () => {
    const gate = new StateMachineGate(statechart)
      .bindTool('pay.card', 'payment.card')
      .bindTool('pay.cancel', 'payment')
      .bindTool('browse', 'browsing');
    expect(gate.bindings.get('browse')!.states).toEqual(['browsing']);
    expect(gate.visibleIn({ payment: 'card' }, ['pay.card', 'pay.cancel', 'browse'])).toEqual([
      'pay.card',
      'pay.cancel',
    ]);
    expect(gate.visibleIn({ payment: 'wallet' }, ['pay.card', 'pay.cancel', 'browse'])).toEqual(['pay.cancel']);
    expect(gate.visibleIn('browsing', ['pay.card', 'pay.cancel', 'browse'])).toEqual(['browse']);
    expect(() => gate.bindTool('x', 'payment.cash')).toThrow(
      /unknown state "payment.cash" of FSM "order"; known states: browsing, payment, payment.card, payment.wallet, review, review.legal/,
    );
  });

  it('parallel states: a tool is visible when any active path matches its binding', async () => {
    const gate = new StateMachineGate(statechart)
      .bindTool('legal.approve', 'review.legal.open')
      .bindTool('tech.approve', 'review.tech.open')
      .bindTool('review.status', 'review');
    const entered = await gate.next('browsing', 'REVIEW');
    expect(entered).toEqual({ review: { legal: 'open', tech: 'open' } });
    expect(gate.visibleIn(entered, ['legal.approve', 'tech.approve', 'review.status'])).toEqual([
      'legal.approve',
      'tech.approve',
      'review.status',
    ]);
    const half = await gate.next(entered, 'APPROVE_LEGAL');
    expect(half).toEqual({ review: { legal: 'ok', tech: 'open' } });
    expect(gate.visibleIn(half, ['legal.approve', 'tech.approve', 'review.status'])).toEqual([
      'tech.approve',
      'review.status',
    ]);
  });

  it("guards are functions of the gate options, called with XState's ({ context, event })", async () => {
    let balance = 0;
    const seen: unknown[] = [];
    const gate = new StateMachineGate(
      {
        initial: 'cart',
        context: { currency: 'EUR' },
        states: {
          cart: { on: { PAY: [{ target: 'paid', guard: 'funded' }, { target: 'declined' }] } },
          paid: {},
          declined: {},
        },
      },
      { guards: { funded: (args) => (seen.push(args), balance > 0) } },
    );
    expect(await gate.next('cart', 'PAY')).toBe('declined');
    balance = 10;
    expect(await gate.next('cart', 'PAY')).toBe('paid');
    expect(seen[0]).toMatchObject({ context: { currency: 'EUR' }, event: { type: 'PAY' } });
    expect(
      () =>
        new StateMachineGate({ initial: 'a', states: { a: { on: { GO: { target: 'b', guard: 'missing' } } }, b: {} } }),
    ).toThrow(/guards event "GO" with "missing", which is not in the gate's guards option/);
  });

  it('refuses a nested state without an initial child', () => {
    expect(() => new StateMachineGate({ initial: 'a', states: { a: { states: { x: {}, y: {} } } } })).toThrow(
      /nested state "a" has no "initial" child; name one of x, y/,
    );
  });
});

describe('statecharts without XState', () => {
  it('the built-in engine refuses nested, parallel or guarded machines at definition, saying to install xstate', async () => {
    expect(() => new StateMachineGate(statechart, { engine: 'builtin' })).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: FSM "order" uses nested or parallel states or guards, which the built-in engine does not support; install XState (\`npm install xstate\`) and use engine "auto" or "xstate", or flatten the machine.]`,
    );
    const real = await import('xstate');
    provideOptional('xstate', undefined);
    try {
      expect(() => new StateMachineGate(statechart)).toThrowErrorMatchingInlineSnapshot(
        `[DefinitionError: FSM "order" uses nested or parallel states or guards, which the built-in engine does not support; install XState (\`npm install xstate\`) (installed where this process cannot resolve it? hand it over with setXStateModule(await import("xstate"))), or flatten the machine.]`,
      );
      // Flat machines keep working on the built-in engine.
      expect(
        await new StateMachineGate({ initial: 'a', states: { a: { on: { GO: 'b' } }, b: {} } }).next('a', 'GO'),
      ).toBe('b');
    } finally {
      provideOptional('xstate', real);
    }
  });
});
