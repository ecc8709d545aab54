import { describe, expect, it } from 'vitest';
import { fsmGraph } from '../../src/fsm/fsmGraph.js';
import { StateMachineGate, type FsmConfig } from '../../src/index.js';
import { shortestPath } from '../../src/skills/shortestPath.js';
import { approval, checkout } from '../fsm/fixtures.js';

/** The worked path of `config` with each `[tool, states, event]` bound, as `from -tool-> to` strings. */
function path(config: FsmConfig, bindings: Array<[string, string[], string]>): string[] {
  const gate = new StateMachineGate(config);
  for (const [tool, states, event] of bindings) gate.bindTool(tool, states, event);
  return shortestPath(
    fsmGraph(
      gate,
      bindings.map(([t]) => t),
    ),
  ).map((s) => `${s.from} -${s.tools.join('|')}-> ${s.to}`);
}

describe('shortestPath', () => {
  it('takes the fewest calls to a final state, skipping transitions no tool sends', () => {
    expect(
      path(approval, [
        ['submit', ['draft'], 'SUBMIT'],
        ['approve', ['review'], 'APPROVE'],
        ['reject', ['review'], 'REJECT'],
      ]),
    ).toEqual(['draft -submit-> review', 'review -approve-> approved']);
    expect(path(approval, [['submit', ['draft'], 'SUBMIT']])).toEqual(['draft -submit-> review']);
  });

  it('with no final state reachable, ends in the state farthest from the initial one', () => {
    const looping = { ...checkout, states: { ...checkout.states, confirmed: { on: { ADD_ITEM: 'has_items' } } } };
    expect(
      path(looping, [
        ['add', ['empty', 'has_items', 'confirmed'], 'ADD_ITEM'],
        ['checkout', ['has_items'], 'CHECKOUT'],
        ['clear', ['has_items'], 'CLEAR'],
        ['pay', ['payment'], 'PAY'],
      ]),
    ).toEqual(['empty -add-> has_items', 'has_items -checkout-> payment', 'payment -pay-> confirmed']);
  });

  it('enters a compound state’s initial child and follows its transitions', () => {
    const nested: FsmConfig = {
      id: 'order',
      initial: 'cart',
      states: {
        cart: { on: { PAY: 'payment' } },
        payment: { initial: 'card', states: { card: { on: { OK: '#order.done' } } } },
        done: { type: 'final' },
      },
    };
    expect(
      path(nested, [
        ['pay', ['cart'], 'PAY'],
        ['ok', ['payment.card'], 'OK'],
      ]),
    ).toEqual(['cart -pay-> payment', 'payment.card -ok-> done']);
  });
});
