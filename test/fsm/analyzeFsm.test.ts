import { describe, expect, it } from 'vitest';
import { StateMachineGate } from '../../src/index.js';
import { fsmWarnings } from '../../src/advanced/index.js';
import { checkout } from './fixtures.js';

describe('fsmWarnings', () => {
  it('is silent for the seed checkout with its tools bound', () => {
    const gate = new StateMachineGate(checkout)
      .bindTool('cart.add_item', ['empty', 'has_items'], 'ADD_ITEM')
      .bindTool('cart.checkout', ['has_items'], 'CHECKOUT')
      .bindTool('cart.pay', ['payment'], 'PAY');
    expect(fsmWarnings(gate)).toEqual([]);
  });

  it('warns about an event no state handles', () => {
    const gate = new StateMachineGate(checkout).bindTool('cart.ship', ['payment'], 'SHIP');
    expect(fsmWarnings(gate)).toMatchInlineSnapshot(`
      [
        "Tool "cart.ship" sends event "SHIP", which no state of FSM "checkout" handles; add it to a state's "on" or fix the name.",
      ]
    `);
  });

  it("warns about an event handled elsewhere but not in the tool's own states", () => {
    const gate = new StateMachineGate(checkout).bindTool('cart.pay', ['has_items'], 'PAY');
    expect(fsmWarnings(gate)).toMatchInlineSnapshot(`
      [
        "Tool "cart.pay" sends event "PAY", but none of its states (has_items) handles it, so it never changes the state of FSM "checkout".",
      ]
    `);
  });

  it('warns about states no path reaches', () => {
    const gate = new StateMachineGate({
      initial: 'draft',
      states: { draft: { on: { SUBMIT: 'review' } }, review: {}, archived: { on: { RESTORE: 'draft' } } },
    });
    expect(fsmWarnings(gate)).toMatchInlineSnapshot(`
      [
        "State "archived" of the FSM is unreachable from "draft"; add a transition to it or remove it.",
      ]
    `);
  });
});
