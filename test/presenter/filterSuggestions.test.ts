import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { initFusion, StateMachineGate, type HandlerExtra, type ToolResponse } from '../../src/index.js';
import { detachedExtra, WorkflowSessions } from '../../src/advanced/index.js';
import { filterSuggestions, hasSuggestions } from '../../src/presenter/filterSuggestions.js';
import { createPresenter, presentResult } from '../../src/presenter/index.js';
import { withPresenter } from '../../src/presenter/withPresenter.js';
import { checkout, engines } from '../fsm/fixtures.js';

const extra: HandlerExtra = detachedExtra({ sessionId: 's', requestId: 1 });

const cartItem = createPresenter('CartItem')
  .schema(z.object({ id: z.string() }))
  .suggestActions(() => [
    { tool: 'cart.checkout', reason: 'Ready to pay?' },
    { tool: 'cart.pay', reason: 'Pay now' },
  ]);

const texts = (r: ToolResponse) => r.content.map((b) => (b as { text?: string }).text);

describe('filterSuggestions', () => {
  it('narrows the block of a presented result and keeps every other block in place', () => {
    const presented = presentResult(cartItem, { id: 'p1' });
    const decorated = {
      ...presented,
      content: [
        { type: 'text' as const, text: '[System: Cache invalidated for cart.* — caused by cart.add_item]' },
        ...presented.content,
      ],
    };
    const filtered = filterSuggestions(decorated, (t) => t === 'cart.checkout');
    expect(texts(filtered)).toEqual([
      '[System: Cache invalidated for cart.* — caused by cart.add_item]',
      '{"id":"p1"}',
      'Suggested next actions:\n- cart.checkout: Ready to pay?',
    ]);
    expect(texts(decorated)).toHaveLength(3);
  });

  it('removes the block when nothing is visible or the result became an error', () => {
    const presented = presentResult(cartItem, { id: 'p1' });
    expect(texts(filterSuggestions(presented, () => false))).toEqual(['{"id":"p1"}']);
    expect(texts(filterSuggestions({ ...presented, isError: true }, () => true))).toEqual(['{"id":"p1"}']);
  });

  it('returns a result without suggestions unchanged', () => {
    const plain: ToolResponse = { content: [{ type: 'text', text: 'ok' }] };
    expect(hasSuggestions(plain)).toBe(false);
    expect(hasSuggestions(presentResult(cartItem, { id: 'p1' }))).toBe(true);
    expect(filterSuggestions(plain, () => true)).toBe(plain);
  });
});

describe.each(engines)('suggestActions after an FSM transition (%s engine)', (engine) => {
  it('suggests only tools visible in the new state, as the pipeline will', async () => {
    const f = initFusion();
    const addItem = f
      .mutation('cart.add_item')
      .bindState(['empty', 'has_items'], 'ADD_ITEM')
      .handle(withPresenter(cartItem, () => ({ id: 'p1', secret: 'x' }), 'cart.add_item'));
    const gate = new StateMachineGate(checkout, { engine })
      .bindTool('cart.add_item', ['empty', 'has_items'], 'ADD_ITEM')
      .bindTool('cart.checkout', ['has_items'], 'CHECKOUT')
      .bindTool('cart.pay', ['payment'], 'PAY');
    const sessions = new WorkflowSessions(gate);
    const outcome = await sessions.run('k', 'cart.add_item', () => addItem.run({}, undefined, extra));
    expect(outcome.outcome).toBe('ran');
    if (outcome.outcome !== 'ran') return;
    // Before the transition was known, both suggestions were rendered; the new state "has_items" hides cart.pay.
    expect(texts(outcome.result)).toEqual([
      '{"id":"p1"}',
      'Suggested next actions:\n- cart.checkout: Ready to pay?\n- cart.pay: Pay now',
    ]);
    const shown = filterSuggestions(outcome.result, (tool) => gate.isAllowedIn(outcome.state!, tool));
    expect(texts(shown)).toEqual(['{"id":"p1"}', 'Suggested next actions:\n- cart.checkout: Ready to pay?']);
    sessions.dispose();
  });

  it('runs no transition when the data does not match: the mismatch is an error result', async () => {
    const f = initFusion();
    const addItem = f.mutation('cart.add_item').handle(withPresenter(cartItem, () => ({ id: 1 }), 'cart.add_item'));
    const gate = new StateMachineGate(checkout, { engine }).bindTool(
      'cart.add_item',
      ['empty', 'has_items'],
      'ADD_ITEM',
    );
    const sessions = new WorkflowSessions(gate);
    const outcome = await sessions.run('k', 'cart.add_item', () => addItem.run({}, undefined, extra));
    expect(outcome).toMatchObject({ outcome: 'ran', state: 'empty', result: { isError: true } });
    expect(texts((outcome as { result: ToolResponse }).result)[0]).toMatch(
      /^Tool "cart.add_item" ran, but its result does not match "CartItem":\n- id: expected string, received number/,
    );
  });
});
